import { V3_AGGREGATE_BUCKETS_MAX, V3_PAGE_SIZE_MAX } from "@scangate/core";
import { CSV_OPTION, refuseExtraArgs, requireArg, type Command } from "../command";
import { UsageError } from "../exit-codes";
import { signal, v1IndexArg } from "./documents";

const search: Command = {
  name: "search",
  summary: "search v1 indexes, v2 hosts, or CenQL with --api v3: every page, or --limit",
  usage: [
    "search ipv4|websites|certificates <query> [--fields a,b] [--limit N] [--page N | --pages N] [--nested] [--csv]",
    "search hosts [query] [--per-page N] [--pages N] [--fields a,b] [--limit N] [--cursor C [--backwards]] [--csv]",
    "search <cenql> --api v3 [--page-size N] [--pages N] [--fields a,b] [--limit N] [--page-token T] [--csv]",
  ],
  details:
    "Results stream out as one JSON array (or CSV rows) while pages are fetched.\n" +
    "v1 pages hold 100 results; v2 pages follow links.next, or links.prev with --backwards.\n" +
    "With --api v3 the query is CenQL over hosts, certificates and web properties alike (e.g.\n" +
    "'host.services.port=22'); hits are `{host_v1|certificate_v1|webproperty_v1: {resource, ...}}`,\n" +
    "pages follow next_page_token, and each page is a credit: --pages or --limit bound the spend.",
  options: {
    fields: {
      type: "string",
      multiple: true,
      valueName: "LIST",
      description: "fields to return, dot notation, comma-separated",
    },
    limit: { type: "string", valueName: "N", description: "stop after N results (default: all pages)" },
    pages: { type: "string", valueName: "N", description: "stop after N pages (v3: each page is a credit)" },
    page: { type: "string", valueName: "N", description: "v1: only this page (1-indexed)" },
    nested: { type: "boolean", description: "v1: nested objects instead of flattened a.b keys" },
    "per-page": {
      type: "string",
      valueName: "N",
      description: "v2 hosts: hits per page, 1..100 (default 50); v3: as --page-size",
    },
    "page-size": {
      type: "string",
      valueName: "N",
      description: "v3: hits per page, 1..100 (default 100)",
    },
    cursor: {
      type: "string",
      valueName: "CURSOR",
      description: "v2 hosts: start from this links.next/links.prev cursor",
    },
    backwards: { type: "boolean", description: "v2 hosts: walk links.prev from --cursor" },
    "page-token": {
      type: "string",
      valueName: "TOKEN",
      description: "v3: start from this next_page_token",
    },
    ...CSV_OPTION,
  },
  async run(ctx) {
    const fields = ctx.flags.list("fields");
    const limit = ctx.flags.int("limit", 1);
    const pages = ctx.flags.int("pages", 1);
    const common = {
      ...(fields ? { fields } : {}),
      ...(limit === undefined ? {} : { maxResults: limit }),
      ...(pages === undefined ? {} : { maxPages: pages }),
      ...signal(ctx.signal),
    };
    if (ctx.api === "v3") {
      const query = requireArg(ctx, 0, "CenQL query");
      if (ctx.args.length > 1) {
        throw new UsageError(
          "with --api v3, search takes one CenQL query (it spans hosts, certificates and web properties: e.g. 'host.services.port=22')",
          "search",
        );
      }
      const pageSize =
        ctx.flags.int("page-size", 1, V3_PAGE_SIZE_MAX) ?? ctx.flags.int("per-page", 1, V3_PAGE_SIZE_MAX);
      const pageToken = ctx.flags.string("page-token");
      const hits = ctx.platform().search(query, {
        ...common,
        ...(pageSize === undefined ? {} : { pageSize }),
        ...(pageToken ? { pageToken } : {}),
      });
      await ctx.output.list(hits);
      return;
    }
    const index = requireArg(ctx, 0, "index (ipv4, websites, certificates or hosts)");
    refuseExtraArgs(ctx, 2);
    const query = ctx.args[1];
    for (const v3Only of ["page-size", "page-token"])
      if (ctx.flags.string(v3Only) !== undefined)
        throw new UsageError(`--${v3Only} needs --api v3`, "search");
    if (index === "hosts") {
      const cursor = ctx.flags.string("cursor");
      if (ctx.flags.bool("backwards") && !cursor)
        throw new UsageError("--backwards needs a --cursor to start from", "search");
      const perPage = ctx.flags.int("per-page", 1, 100);
      const hits = ctx.client().hosts.search(query, {
        ...common,
        ...(perPage === undefined ? {} : { perPage }),
        ...(cursor ? { cursor } : {}),
        direction: ctx.flags.bool("backwards") ? "prev" : "next",
      });
      await ctx.output.list(hits, ctx.output.csv && fields ? ["ip", ...fields] : undefined);
      return;
    }
    const v1Index = v1IndexArg(index, "search");
    if (query === undefined || query.trim() === "") throw new UsageError("missing query", "search");
    const flatten = !ctx.flags.bool("nested");
    const page = ctx.flags.int("page", 1);
    if (page !== undefined && pages !== undefined)
      throw new UsageError("--page reads one page; --pages bounds a walk: give one of them", "search");
    const client = ctx.client();
    const results =
      page === undefined
        ? client.searchAll(v1Index, query, { ...common, flatten })
        : (await client.search(v1Index, query, { ...common, flatten, page })).results.slice(0, limit);
    await ctx.output.list(results, fields);
  },
};

const report: Command = {
  name: "report",
  summary: "v1 breakdown of one field over the results of a query",
  usage: ["report ipv4|websites|certificates <query> <field> [--buckets N] [--csv]"],
  details: "JSON prints the whole report with its metadata; --csv prints key,doc_count rows.",
  options: {
    buckets: { type: "string", valueName: "N", description: "number of buckets, 1..500 (default 50)" },
    ...CSV_OPTION,
  },
  async run(ctx) {
    const index = v1IndexArg(requireArg(ctx, 0, "index"), "report");
    const query = requireArg(ctx, 1, "query");
    const field = requireArg(ctx, 2, "field");
    refuseExtraArgs(ctx, 3);
    const buckets = ctx.flags.int("buckets", 1, 500);
    const result = await ctx.client().report(index, query, field, {
      ...(buckets === undefined ? {} : { buckets }),
      ...signal(ctx.signal),
    });
    if (ctx.output.csv) await ctx.output.list(result.results, ["key", "doc_count"]);
    else await ctx.output.json(result);
  },
};

const aggregate: Command = {
  name: "aggregate",
  summary: "hosts (v2; v3: any records) matching a query, bucketed by one field",
  usage: [
    "aggregate <field> [query] [--buckets N] [--csv]",
    "aggregate <field> [cenql] --api v3 [--buckets N] [--count-by-level L] [--filter-by-query] [--csv]",
  ],
  details:
    "JSON prints the whole result (v2: total, total_omitted, buckets; v3: buckets, total_count,\n" +
    "other_count, ...); --csv prints key,count rows. v3 fields are CenQL names (host.services.port).",
  options: {
    buckets: { type: "string", valueName: "N", description: "number of buckets, at least 1 (default 50)" },
    "count-by-level": {
      type: "string",
      valueName: "LEVEL",
      description: "v3: the document level counted per bucket (e.g. host.services)",
    },
    "filter-by-query": { type: "boolean", description: "v3: count only values that match the query" },
    ...CSV_OPTION,
  },
  async run(ctx) {
    const field = requireArg(ctx, 0, "field");
    refuseExtraArgs(ctx, 2);
    const query = ctx.args[1];
    const countByLevel = ctx.flags.string("count-by-level");
    const filterByQuery = ctx.flags.bool("filter-by-query");
    if (ctx.api === "v3") {
      const numberOfBuckets = ctx.flags.int("buckets", 1, V3_AGGREGATE_BUCKETS_MAX);
      const result = await ctx.platform().aggregate(field, {
        ...(query ? { query } : {}),
        ...(numberOfBuckets === undefined ? {} : { numberOfBuckets }),
        ...(countByLevel ? { countByLevel } : {}),
        ...(filterByQuery ? { filterByQuery } : {}),
        ...signal(ctx.signal),
      });
      if (ctx.output.csv) await ctx.output.list(result.buckets, ["key", "count"]);
      else await ctx.output.json(result);
      return;
    }
    if (countByLevel !== undefined || filterByQuery)
      throw new UsageError("--count-by-level and --filter-by-query need --api v3", "aggregate");
    const numBuckets = ctx.flags.int("buckets", 1);
    const result = await ctx.client().hosts.aggregate(field, {
      ...(query ? { q: query } : {}),
      ...(numBuckets === undefined ? {} : { numBuckets }),
      ...signal(ctx.signal),
    });
    if (ctx.output.csv) await ctx.output.list(result.buckets, ["key", "count"]);
    else await ctx.output.json(result);
  },
};

export const searchCommands: readonly Command[] = [search, report, aggregate];
