import { CSV_OPTION, refuseExtraArgs, requireArg, type Command } from "../command";
import { UsageError } from "../exit-codes";
import { signal, v1IndexArg } from "./documents";

const search: Command = {
  name: "search",
  summary: "search an index (v1 ipv4/websites/certificates, v2 hosts), every page or --limit",
  usage: [
    "search ipv4|websites|certificates <query> [--fields a,b] [--limit N] [--page N] [--nested] [--csv]",
    "search hosts [query] [--per-page N] [--fields a,b] [--limit N] [--cursor C [--backwards]] [--csv]",
  ],
  details:
    "Results stream out as one JSON array (or CSV rows) while pages are fetched.\n" +
    "v1 pages hold 100 results; v2 pages follow links.next, or links.prev with --backwards.",
  options: {
    fields: {
      type: "string",
      multiple: true,
      valueName: "LIST",
      description: "fields to return, dot notation, comma-separated",
    },
    limit: { type: "string", valueName: "N", description: "stop after N results (default: all pages)" },
    page: { type: "string", valueName: "N", description: "v1: only this page (1-indexed)" },
    nested: { type: "boolean", description: "v1: nested objects instead of flattened a.b keys" },
    "per-page": {
      type: "string",
      valueName: "N",
      description: "v2 hosts: hits per page, 1..100 (default 50)",
    },
    cursor: {
      type: "string",
      valueName: "CURSOR",
      description: "v2 hosts: start from this links.next/links.prev cursor",
    },
    backwards: { type: "boolean", description: "v2 hosts: walk links.prev from --cursor" },
    ...CSV_OPTION,
  },
  async run(ctx) {
    const index = requireArg(ctx, 0, "index (ipv4, websites, certificates or hosts)");
    refuseExtraArgs(ctx, 2);
    const query = ctx.args[1];
    const fields = ctx.flags.list("fields");
    const limit = ctx.flags.int("limit", 1);
    const common = {
      ...(fields ? { fields } : {}),
      ...(limit === undefined ? {} : { maxResults: limit }),
      ...signal(ctx.signal),
    };
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
  summary: "v2 hosts matching a query, bucketed by one field",
  usage: ["aggregate <field> [query] [--buckets N] [--csv]"],
  details: "JSON prints the whole result (total, total_omitted, buckets); --csv prints key,count rows.",
  options: {
    buckets: { type: "string", valueName: "N", description: "number of buckets, at least 1 (default 50)" },
    ...CSV_OPTION,
  },
  async run(ctx) {
    const field = requireArg(ctx, 0, "field");
    refuseExtraArgs(ctx, 2);
    const query = ctx.args[1];
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
