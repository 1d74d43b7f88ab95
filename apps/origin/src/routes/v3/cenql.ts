import {
  isApiError,
  V3InputError,
  v3InputError,
  V3_PAGE_SIZE_DEFAULT,
  type V3SearchAggregateInput,
  type V3SearchAggregateResponse,
  type V3SearchQueryInput,
  type V3SearchQueryResponse,
} from "@scangate/core";
import {
  AGGREGATE_SCOPE_ALIAS,
  cenqlCountLevels,
  MAX_QUERY_PARAMS,
  type CenqlResource,
} from "@scangate/search";
import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
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

/**
 * CenQL over the dataset as the Platform's search and aggregate answer it, globally or within
 * a collection (`within`: the collection's own query, ANDed with the caller's, each compiled on
 * its own so neither can reach outside the other).
 */

/** ` (at position 3, near "x")`, unless the message already says where. */
export function whereItFailed(
  message: string,
  position: number | undefined,
  token: string | undefined,
): string {
  if (position === undefined || /\bposition \d+/.test(message)) return "";
  return ` (at position ${position}${token ? `, near ${JSON.stringify(token)}` : ""})`;
}

/**
 * A refused CenQL text (query or field) as the invalid-input problem: `detail` says why and
 * where, and `errors` names the input (`body.query`) with the position and token where it failed.
 */
function cenqlProblem(error: unknown, location: string, value: string): unknown {
  if (!isApiError(error) || error.kind !== "invalid_query") return error;
  const extra = error.extra ?? {};
  const why = typeof extra.detail === "string" ? extra.detail : (error.clientMessage ?? "invalid query");
  const position = typeof extra.position === "number" ? extra.position : undefined;
  const token = typeof extra.token === "string" ? extra.token : undefined;
  const where = whereItFailed(why, position, token);
  return new V3InputError("invalid_query", `Invalid ${location.replace(/^\w+\./, "")}: ${why}${where}`, {
    errors: [{ location, message: `${why}${where}`, value, position, token }],
    position,
    token,
  });
}

export async function registriesOf(c: Context<AppEnv>): Promise<CenqlRegistries> {
  const { dataset } = c.var.services;
  return cenqlRegistries((index) => dataset.registry(index));
}

/** Compiles `query`; a refused one is the invalid-input problem naming `location`. */
export function compileQuery(
  c: Context<AppEnv>,
  query: string,
  registries: CenqlRegistries,
  options: Parameters<typeof compileCenql>[3] = {},
  location = "body.query",
): { resource: CenqlResource; where: CompiledWhere } {
  try {
    return compileCenql(query, new Date(c.var.services.clock.now()), registries, options);
  } catch (error) {
    throw cenqlProblem(error, location, query);
  }
}

/** A collection's query, which the caller's query is read within. */
export interface Within {
  id: string;
  query: string;
}

const both = (a: CompiledWhere, b: CompiledWhere): CompiledWhere => ({
  sql: `(${a.sql}) AND (${b.sql})`,
  params: [...a.params, ...b.params],
});

/** `query` within the collection: both compiled with a share of the values a statement binds. */
function compileWithin(
  c: Context<AppEnv>,
  query: string,
  registries: CenqlRegistries,
  within: Within | undefined,
  shares: number,
): { resource: CenqlResource; where: CompiledWhere } {
  const maxParams = Math.floor(MAX_QUERY_PARAMS / (within ? shares + 1 : shares));
  const own = compileQuery(c, query, registries, shares > 1 || within ? { maxParams } : {});
  if (!within) return own;
  const collection = compileQuery(c, within.query, registries, { maxParams }, "collection.query");
  if (collection.resource !== own.resource)
    throw v3InputError(
      "body.query",
      `the collection holds ${collection.resource} assets; query its ${collection.resource}. fields`,
      query,
    );
  return { resource: own.resource, where: both(collection.where, own.where) };
}

/** A page of hits of `input` (within a collection), as `SearchQueryResponse`. */
export async function runSearch(
  c: Context<AppEnv>,
  input: V3SearchQueryInput,
  within?: Within,
): Promise<V3SearchQueryResponse> {
  const started = Date.now();
  const registries = await registriesOf(c);
  const { resource, where } = compileWithin(c, input.query, registries, within, 1);
  const projection = projectionOf(resource, input.fields);
  if (resource === "host" && projection.matchedServices) {
    // The same query read on one service: which services of a hit it matched.
    projection.services = compileQuery(c, input.query, registries, {
      scopeRow: { scope: "services", alias: MATCHED_SERVICE_ALIAS },
    }).where;
  }
  const pageSize = input.page_size ?? V3_PAGE_SIZE_DEFAULT;
  // A token is bound to what shapes the walk: the collection, the query, the fields, the page size.
  const binding: CursorBinding = {
    q: `v3\n${within?.id ?? ""}\n${input.query}\n${JSON.stringify(input.fields ?? [])}`,
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
      throw v3InputError("body.page_token", why, input.page_token);
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
  return {
    hits: page.hits,
    total_hits: page.total,
    next_page_token: page.next ? await cursors.encode(page.next, binding) : "",
    previous_page_token: page.prev ? await cursors.encode(page.prev, binding) : "",
    query_duration_millis: Math.max(0, Date.now() - started),
  };
}

/**
 * The buckets of a CenQL field over the query's documents (within a collection), as
 * `SearchAggregateResponse`. See search.ts for what `count_by_level` and `filter_by_query` mean.
 */
export async function runAggregate(
  c: Context<AppEnv>,
  input: V3SearchAggregateInput,
  within?: Within,
): Promise<V3SearchAggregateResponse> {
  const started = Date.now();
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
    throw v3InputError(
      "body.count_by_level",
      `${input.field} cannot be counted by ${JSON.stringify(countByLevel)}: ${field.level === null ? "it is a root field" : `its values live in ${field.level}`}; use one of ${accepted}`,
      countByLevel,
    );
  }
  const everything = input.query.trim() === "";
  // Narrowing the counted services compiles the query twice into one statement: each compiled
  // text gets its share of the values a statement binds.
  const filtering = input.filter_by_query === true && field.scope !== null && !everything;
  const shares = filtering ? 2 : 1;
  const compiled = everything
    ? within
      ? compileQuery(c, within.query, registries, {}, "collection.query")
      : { resource: field.resource, where: { sql: "1", params: [] } }
    : compileWithin(c, input.query, registries, within, shares);
  if (compiled.resource !== field.resource) {
    throw v3InputError(
      "body.field",
      `the query searches ${compiled.resource} records; aggregate a ${compiled.resource}. field`,
      input.field,
    );
  }
  const scopeFilter =
    filtering && field.scope !== null
      ? compileQuery(c, input.query, registries, {
          maxParams: Math.floor(MAX_QUERY_PARAMS / (within ? shares + 1 : shares)),
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
  return {
    buckets: aggregate.buckets.map(({ key, count }) => ({ key, count })),
    total_count: aggregate.documents,
    other_count: aggregate.totalOmitted,
    // A nested field counts each value (a host with two SSH services counts twice).
    is_more_than_total_hits: aggregate.total > aggregate.documents,
    query_duration_millis: Math.max(0, Date.now() - started),
  };
}
