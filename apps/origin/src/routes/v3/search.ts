import {
  v3SearchAggregateInputSchema,
  v3SearchAggregateResponseSchema,
  v3SearchConvertInputSchema,
  v3SearchConvertResponseSchema,
  v3SearchQueryInputSchema,
  v3SearchQueryResponseSchema,
  type V3SearchConvertResult,
} from "@scangate/core";
import { cenqlTargets, convertLegacyQuery, parseQuery } from "@scangate/search";
import { v3Body } from "../../http/v3-inputs";
import { jsonBody } from "../../routing";
import type { CenqlRegistries } from "../../services/cenql-search";
import { runAggregate, runSearch, whereItFailed } from "./cenql";
import { platformRoute } from "./operation";

/**
 * The Platform's global search over the dataset: `query` (CenQL, keyset pages of host,
 * certificate or web property hits), `aggregate` (a CenQL field's buckets, by level)
 * and `convert` (legacy v1/v2 queries to CenQL, as the origin itself reads them). The
 * searching itself is cenql.ts's, which collections share.
 */

/** POST /v3/global/search/query: a page of hits; each page is one call (1 credit). */
export const searchQuery = platformRoute(
  "globalDataSearch",
  { request: { body: jsonBody(v3SearchQueryInputSchema) }, result: v3SearchQueryResponseSchema },
  async (c) => ({ result: await runSearch(c, await v3Body(c, v3SearchQueryInputSchema)) }),
);

/**
 * POST /v3/global/search/aggregate: the buckets of a CenQL field over the query's documents.
 *
 * - `count_by_level` (the Platform's meanings): `""` (the default) counts at the deepest level
 *   holding the field, so a service field (`host.services.port`) counts services and a root
 *   field counts hosts; `"."` (or the resource, `host`) counts root documents, each once per
 *   value; `host.services` counts services. Any other level is a 400 naming the ones accepted.
 * - `filter_by_query`: `false` (the default) counts every service of the matching hosts; `true`
 *   counts only the services the query's conditions hold for, read on that one service
 *   (`host.services.protocol=SSH` → only the SSH services' ports). A root field's values are
 *   the matching document's own, so it changes nothing there.
 *
 * `total_count` is the query's hits (root documents, as the search's `total_hits`),
 * `other_count` what the buckets not returned hold, and `is_more_than_total_hits` whether the
 * counts add up to more than the hits (a host counted in several buckets, or once per service).
 * Without a level or filter, the numbers are the legacy v2 aggregate's for the same query.
 */
export const searchAggregate = platformRoute(
  "globalDataAggregate",
  { request: { body: jsonBody(v3SearchAggregateInputSchema) }, result: v3SearchAggregateResponseSchema },
  async (c) => ({ result: await runAggregate(c, await v3Body(c, v3SearchAggregateInputSchema)) }),
);

/** One legacy query as CenQL; its errors, if any, stay in its own entry. */
function convertOne(query: string, registry: CenqlRegistries["host"]): V3SearchConvertResult {
  const converted = convertLegacyQuery(query, "v2", "hosts", { registry });
  if (!converted.ok) {
    const { message, position, token } = converted.error;
    return {
      original_query: query,
      targets: [],
      errors: [{ message: `${message}${whereItFailed(message, position, token)}` }],
    };
  }
  const parsed = parseQuery(converted.value, "cenql");
  const targets = parsed.ok ? cenqlTargets(parsed.value) : parsed;
  return {
    original_query: query,
    converted_query: converted.value,
    // Bare terms alone target no record kind in particular (the SDK: "may be empty").
    targets: targets.ok ? targets.value : [],
    errors: [],
  };
}

/**
 * POST /v3/global/search/convert: legacy (v2 hosts) queries as CenQL, one entry per query in
 * order. A query that does not convert has its errors in its own entry; the call succeeds.
 */
export const searchConvert = platformRoute(
  "globalDataConvertLegacySearchQueries",
  { request: { body: jsonBody(v3SearchConvertInputSchema) }, result: v3SearchConvertResponseSchema },
  async (c) => {
    const input = await v3Body(c, v3SearchConvertInputSchema);
    const registry = await c.var.services.dataset.registry("hosts");
    return { result: input.queries.map((q) => convertOne(q, registry)) };
  },
);

export const v3SearchRoutes = [searchQuery, searchAggregate, searchConvert];
