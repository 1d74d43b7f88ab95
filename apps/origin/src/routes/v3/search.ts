import { createRoute } from "@hono/zod-openapi";
import {
  ApiError,
  isApiError,
  v3Envelope,
  v3SearchAggregateInputSchema,
  v3SearchAggregateResponseSchema,
  v3SearchConvertInputSchema,
  v3SearchConvertResponseSchema,
  v3SearchQueryInputSchema,
  v3SearchQueryResponseSchema,
  V3_MEDIA_TYPES,
  V3_PAGE_SIZE_DEFAULT,
  wrapV3,
  type V3SearchAggregateResponse,
  type V3SearchConvertResult,
  type V3SearchQueryResponse,
} from "@scangate/core";
import {
  AGGREGATE_SCOPE_ALIAS,
  cenqlCountLevels,
  cenqlTargets,
  convertLegacyQuery,
  MAX_QUERY_PARAMS,
  parseQuery,
  type CenqlResource,
} from "@scangate/search";
import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
import { withCredits } from "../../http/credits";
import { v3Body, v3Json } from "../../http/v3-inputs";
import { defineRoute, jsonBody } from "../../routing";
import {
  cenqlAggregateField,
  cenqlRegistries,
  compileCenql,
  type CenqlAggregateField,
  type CenqlRegistries,
} from "../../services/cenql-search";
import type { CursorBinding } from "../../services/cursor";
import type { CompiledWhere } from "../../services/search-engine";
import { MATCHED_SERVICE_ALIAS, projectionOf, searchV3Page } from "../../services/v3-search";
import { V3_ERRORS, v3Response } from "./responses";

/**
 * The Platform's global search over the dataset: `query` (CenQL, keyset pages of host,
 * certificate or web property hits), `aggregate` (a CenQL field's buckets, by level)
 * and `convert` (legacy v1/v2 queries to CenQL, as the origin itself reads them).
 */

/** ` (at position 3, near "x")`, unless the message already says where. */
function whereItFailed(message: string, position: number | undefined, token: string | undefined): string {
  if (position === undefined || /\bposition \d+/.test(message)) return "";
  return ` (at position ${position}${token ? `, near ${JSON.stringify(token)}` : ""})`;
}

/**
 * A refused CenQL text (query or field) as the 400 problem: `detail` says why and where, and
 * `errors` names the input (`body.query`) with the position and token where it failed.
 */
function cenqlProblem(error: unknown, location: string, value: string): unknown {
  if (!isApiError(error) || error.kind !== "invalid_query") return error;
  const extra = error.extra ?? {};
  const why = typeof extra.detail === "string" ? extra.detail : (error.clientMessage ?? "invalid query");
  const position = typeof extra.position === "number" ? extra.position : undefined;
  const token = typeof extra.token === "string" ? extra.token : undefined;
  const where = whereItFailed(why, position, token);
  return new ApiError("invalid_query", `Invalid ${location.replace("body.", "")}: ${why}${where}`, {
    errors: [{ location, message: `${why}${where}`, value, position, token }],
    position,
    token,
  });
}

async function registriesOf(c: Context<AppEnv>): Promise<CenqlRegistries> {
  const { dataset } = c.var.services;
  return cenqlRegistries((index) => dataset.registry(index));
}

function compileQuery(
  c: Context<AppEnv>,
  query: string,
  registries: CenqlRegistries,
  options: Parameters<typeof compileCenql>[3] = {},
): { resource: CenqlResource; where: CompiledWhere } {
  try {
    return compileCenql(query, new Date(c.var.services.clock.now()), registries, options);
  } catch (error) {
    throw cenqlProblem(error, "body.query", query);
  }
}

function badInput(location: string, message: string, value: unknown): ApiError {
  return new ApiError("bad_request", `validation failed: ${location}: ${message}`, {
    errors: [{ location, message, value }],
  });
}

/** POST /v3/global/search/query: a page of hits; each page is one call (1 credit). */
export const searchQuery = defineRoute(
  createRoute({
    method: "post",
    path: "/v3/global/search/query",
    request: { body: jsonBody(v3SearchQueryInputSchema) },
    responses: {
      200: v3Response(v3Envelope(v3SearchQueryResponseSchema), V3_MEDIA_TYPES.json, "A page of hits"),
      ...V3_ERRORS,
    },
  }),
  { operation: "v3_search_query", cost: null },
  withCredits("v3_search_query", async (c) => {
    const started = Date.now();
    const input = await v3Body(c, v3SearchQueryInputSchema);
    const registries = await registriesOf(c);
    const { resource, where } = compileQuery(c, input.query, registries);
    const projection = projectionOf(resource, input.fields);
    if (resource === "host" && projection.matchedServices) {
      // The same query read on one service: which services of a hit it matched.
      projection.services = compileQuery(c, input.query, registries, {
        scopeRow: { scope: "services", alias: MATCHED_SERVICE_ALIAS },
      }).where;
    }
    const pageSize = input.page_size ?? V3_PAGE_SIZE_DEFAULT;
    // A token is bound to what shapes the walk: the query, the fields and the page size.
    const binding: CursorBinding = {
      q: `v3\n${input.query}\n${JSON.stringify(input.fields ?? [])}`,
      perPage: pageSize,
    };
    const { cursors } = c.var.services;
    let cursor = null;
    if (input.page_token !== undefined && input.page_token !== "") {
      const decoded = await cursors.decode(input.page_token, binding);
      if (!decoded.ok) {
        const why = {
          malformed: "not a page token this service issued",
          forged: "the page token's signature is invalid",
          mismatched:
            "the page token was issued for another query, fields or page_size; repeat the call that returned it",
        }[decoded.reason];
        throw badInput("body.page_token", why, input.page_token);
      }
      cursor = decoded.position;
    }
    const page = await searchV3Page(
      c.env.DB,
      c.var.services.dataset,
      resource,
      where,
      pageSize,
      cursor,
      projection,
    );
    const result: V3SearchQueryResponse = {
      hits: page.hits,
      total_hits: page.total,
      next_page_token: page.next ? await cursors.encode(page.next, binding) : "",
      previous_page_token: page.prev ? await cursors.encode(page.prev, binding) : "",
      query_duration_millis: Math.max(0, Date.now() - started),
    };
    return v3Json(c, wrapV3(result), V3_MEDIA_TYPES.json);
  }),
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
export const searchAggregate = defineRoute(
  createRoute({
    method: "post",
    path: "/v3/global/search/aggregate",
    request: { body: jsonBody(v3SearchAggregateInputSchema) },
    responses: {
      200: v3Response(
        v3Envelope(v3SearchAggregateResponseSchema),
        V3_MEDIA_TYPES.json,
        "The field's buckets",
      ),
      ...V3_ERRORS,
    },
  }),
  { operation: "v3_search_aggregate", cost: null },
  withCredits("v3_search_aggregate", async (c) => {
    const started = Date.now();
    const input = await v3Body(c, v3SearchAggregateInputSchema);
    const registries = await registriesOf(c);
    let field: CenqlAggregateField;
    try {
      field = cenqlAggregateField(input.field, registries);
    } catch (error) {
      throw cenqlProblem(error, "body.field", input.field);
    }
    const levels = cenqlCountLevels(field);
    const countByLevel = input.count_by_level ?? "";
    const countBy = levels.get(countByLevel);
    if (countBy === undefined) {
      const accepted = [...levels.keys()].map((l) => JSON.stringify(l)).join(", ");
      throw badInput(
        "body.count_by_level",
        `${input.field} cannot be counted by ${JSON.stringify(countByLevel)}: ${field.level === null ? "it is a root field" : `its values live in ${field.level}`}; use one of ${accepted}`,
        countByLevel,
      );
    }
    const everything = input.query.trim() === "";
    // Narrowing the counted services compiles the query twice into one statement: each half
    // gets half of the values a statement binds.
    const filtering = input.filter_by_query === true && field.scope !== null && !everything;
    const maxParams = filtering ? Math.floor(MAX_QUERY_PARAMS / 2) : undefined;
    const compiled = everything
      ? { resource: field.resource, where: { sql: "1", params: [] } }
      : compileQuery(c, input.query, registries, { maxParams });
    if (compiled.resource !== field.resource) {
      throw badInput(
        "body.field",
        `the query searches ${compiled.resource} records; aggregate a ${compiled.resource}. field`,
        input.field,
      );
    }
    const scopeFilter =
      filtering && field.scope !== null
        ? compileQuery(c, input.query, registries, {
            maxParams,
            scopeRow: { scope: field.scope, alias: AGGREGATE_SCOPE_ALIAS },
          }).where
        : undefined;
    const aggregate = await c.var.services.dataset.aggregateField(
      registries[field.resource],
      field.field,
      compiled.where,
      input.number_of_buckets,
      "v2",
      { countBy, scopeFilter },
    );
    const result: V3SearchAggregateResponse = {
      buckets: aggregate.buckets.map(({ key, count }) => ({ key, count })),
      total_count: aggregate.documents,
      other_count: aggregate.totalOmitted,
      // A nested field counts each value (a host with two SSH services counts twice).
      is_more_than_total_hits: aggregate.total > aggregate.documents,
      query_duration_millis: Math.max(0, Date.now() - started),
    };
    return v3Json(c, wrapV3(result), V3_MEDIA_TYPES.json);
  }),
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
export const searchConvert = defineRoute(
  createRoute({
    method: "post",
    path: "/v3/global/search/convert",
    request: { body: jsonBody(v3SearchConvertInputSchema) },
    responses: {
      200: v3Response(
        v3Envelope(v3SearchConvertResponseSchema),
        V3_MEDIA_TYPES.json,
        "The converted queries",
      ),
      ...V3_ERRORS,
    },
  }),
  { operation: "v3_search_convert", cost: null },
  withCredits("v3_search_convert", async (c) => {
    const input = await v3Body(c, v3SearchConvertInputSchema);
    const registry = await c.var.services.dataset.registry("hosts");
    return v3Json(c, wrapV3(input.queries.map((q) => convertOne(q, registry))), V3_MEDIA_TYPES.json);
  }),
);

export const v3SearchRoutes = [searchQuery, searchAggregate, searchConvert];
