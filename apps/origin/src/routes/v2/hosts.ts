import { createRoute } from "@hono/zod-openapi";
import {
  ApiError,
  hostDocumentSchema,
  hostsAggregateQuerySchema,
  hostsAggregateResultSchema,
  hostsSearchQuerySchema,
  hostsSearchResultSchema,
  hostViewParamsSchema,
  hostViewQuerySchema,
  ipAddressSchema,
  parseRfc3339Nanos,
  v2Envelope,
  wrapV2,
  type HostsAggregateResult,
  type HostsSearchResult,
} from "@scangate/core";
import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
import { parseInput } from "../../http/validation";
import { defineRoute, jsonResponse, V2_ERRORS } from "../../routing";
import type { CursorBinding, CursorPosition } from "../../services/cursor";
import { compileSearch } from "../../services/search-engine";

/**
 * Refuses percent-escapes that do not decode to UTF-8 (`%FF`): left alone they would be searched
 * as their raw text. In `q` that is an unparseable query (422); elsewhere a bad request.
 */
function requireUtf8Query(url: string): void {
  const search = new URL(url).search.slice(1);
  if (search === "") return;
  for (const pair of search.split("&")) {
    const [key = "", value = ""] = pair.split("=", 2);
    try {
      decodeURIComponent(key.replaceAll("+", " "));
      decodeURIComponent(value.replaceAll("+", " "));
    } catch {
      if (key === "q") throw new ApiError("invalid_query");
      throw new ApiError("bad_request", `query parameter ${JSON.stringify(key)} is not valid UTF-8`);
    }
  }
}

/** Query parameters as core's schemas expect them: repeated `fields` as a list. */
function queryParams(c: Context<AppEnv>): Record<string, unknown> {
  requireUtf8Query(c.req.url);
  const params: Record<string, unknown> = { ...c.req.query() };
  const fields = c.req.queries("fields");
  if (fields) params.fields = fields;
  return params;
}

async function decodeCursor(
  c: Context<AppEnv>,
  token: string,
  binding: CursorBinding,
): Promise<CursorPosition> {
  const decoded = await c.var.services.cursors.decode(token, binding);
  if (decoded.ok) return decoded.position;
  const why = {
    malformed: "cursor is not a cursor this service issued",
    forged: "cursor signature is invalid",
    mismatched:
      "cursor was issued for a different q or per_page; repeat the parameters of the call that returned it",
  }[decoded.reason];
  throw new ApiError("bad_request", `Invalid cursor: ${why}`);
}

/** GET /api/v2/hosts/search: keyset pages of matching hosts, with signed cursors. */
export const hostsSearch = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v2/hosts/search",
    request: { query: hostsSearchQuerySchema },
    responses: { 200: jsonResponse(v2Envelope(hostsSearchResultSchema), "A page of hosts"), ...V2_ERRORS },
  }),
  { operation: "hosts_search", cost: 1 },
  async (c) => {
    const params = parseInput(hostsSearchQuerySchema, queryParams(c));
    const q = params.q ?? "";
    const { services } = c.var;
    const binding: CursorBinding = { q, perPage: params.per_page };
    const cursor = params.cursor ? await decodeCursor(c, params.cursor, binding) : null;
    const registry = await services.dataset.registry("hosts");
    const where = compileSearch(q, "v2", registry, new Date(services.clock.now()));
    const page = await services.dataset.searchHosts(where, params.per_page, cursor, params.fields);
    const result: HostsSearchResult = {
      query: q,
      total: page.total,
      hits: page.hits,
      links: {
        prev: page.prev ? await services.cursors.encode(page.prev, binding) : "",
        next: page.next ? await services.cursors.encode(page.next, binding) : "",
      },
    };
    return c.json(wrapV2(result));
  },
);

/** GET /api/v2/hosts/aggregate: the breakdown of one field over the matching hosts. */
export const hostsAggregate = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v2/hosts/aggregate",
    request: { query: hostsAggregateQuerySchema },
    responses: {
      200: jsonResponse(v2Envelope(hostsAggregateResultSchema), "The field's buckets"),
      ...V2_ERRORS,
    },
  }),
  { operation: "hosts_aggregate", cost: 1 },
  async (c) => {
    const params = parseInput(hostsAggregateQuerySchema, queryParams(c));
    const q = params.q ?? "";
    const { services } = c.var;
    const registry = await services.dataset.registry("hosts");
    const where = compileSearch(q, "v2", registry, new Date(services.clock.now()));
    const aggregate = await services.dataset.aggregateField(
      registry,
      params.field,
      where,
      params.num_buckets,
      "v2",
    );
    const result: HostsAggregateResult = {
      query: q,
      field: params.field,
      // Matching hosts (the public service's `total` can be smaller than `total_omitted`, which
      // counts services for a service-level field).
      total: aggregate.documents,
      total_omitted: aggregate.totalOmitted,
      // Counts are exact (one SQL GROUP BY), so the deviation bound is 0.
      potential_deviation: 0,
      buckets: aggregate.buckets.map(({ key, count }) => ({ key, count })),
    };
    return c.json(wrapV2(result));
  },
);

/**
 * GET /api/v2/hosts/{ip}: the host now, or as it was at `at_time`. The path takes any text, so
 * that a malformed IP is the spec's 422 rather than a 404.
 */
export const hostView = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v2/hosts/{ip}",
    request: { params: hostViewParamsSchema, query: hostViewQuerySchema },
    responses: { 200: jsonResponse(v2Envelope(hostDocumentSchema), "The host document"), ...V2_ERRORS },
  }),
  { operation: "host_view", cost: 1 },
  async (c) => {
    const ip = c.req.param("ip");
    if (!ipAddressSchema.safeParse(ip).success) {
      throw new ApiError("invalid_query", `Invalid IP address: ${ip}`);
    }
    const atTimeText = c.req.query("at_time");
    let document: unknown;
    if (atTimeText === undefined) {
      document = await c.var.services.dataset.readHost(ip);
    } else {
      const atTime = parseRfc3339Nanos(atTimeText);
      if (!atTime) {
        throw new ApiError(
          "invalid_query",
          `Invalid at_time: expected an RFC 3339 timestamp, got ${JSON.stringify(atTimeText)}`,
        );
      }
      document = await c.var.services.dataset.readHostAt(ip, atTime.ms);
    }
    if (document === null) {
      const when = atTimeText === undefined ? "" : ` at ${atTimeText}`;
      throw new ApiError("not_found", `Host ${ip} not found${when}.`);
    }
    return c.json(wrapV2(document));
  },
);

/** In this order, so the two fixed paths are not taken for an IP. */
export const hostRoutes = [hostsSearch, hostsAggregate, hostView];
