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
  v2Envelope,
  wrapV2,
  type HostsAggregateResult,
  type HostsSearchResult,
  requireHostIp,
  requireInstant,
} from "@scangate/core";
import { parseInput } from "../../http/validation";
import { defineRoute, jsonResponse, V2_ERRORS } from "../../routing";
import type { CursorBinding } from "../../services/cursor";
import { compileSearch } from "../../services/search-engine";
import { decodeCursor, queryParams } from "../../http/inputs";

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
    const ip = requireHostIp(c.req.param("ip"));
    const atTimeText = c.req.query("at_time");
    const document =
      atTimeText === undefined
        ? await c.var.services.dataset.readHost(ip)
        : await c.var.services.dataset.readHostAt(ip, requireInstant("at_time", atTimeText).ms);
    if (document === null) {
      const when = atTimeText === undefined ? "" : ` at ${atTimeText}`;
      throw new ApiError("not_found", `Host ${ip} not found${when}.`);
    }
    return c.json(wrapV2(document));
  },
);

/** In this order, so the two fixed paths are not taken for an IP. */
export const hostRoutes = [hostsSearch, hostsAggregate, hostView];
