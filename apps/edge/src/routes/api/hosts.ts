import { defineApiRoute } from "../../api/define-route";
import { forward } from "../../api/forward";
import {
  hostsAggregateQuerySchema,
  hostsAggregateResultSchema,
  hostsSearchQuerySchema,
  hostsSearchResultSchema,
  v2Envelope,
} from "@scangate/core";
import { component } from "../../openapi/components";

/** GET /api/v2/hosts/aggregate: forwarded as it is. */
export const hostsAggregateRoute = defineApiRoute({
  method: "GET",
  path: "/api/v2/hosts/aggregate",
  operation: "hosts_aggregate",
  version: "v2",
  cost: 1,
  summary: "Aggregate hosts into buckets",
  query: hostsAggregateQuerySchema,
  ok: component("HostsAggregateResponse", v2Envelope(hostsAggregateResultSchema)),
  handler: forward,
});

/** GET /api/v2/hosts/search: forwarded as it is (its cursors are the upstream's). */
export const hostsSearchRoute = defineApiRoute({
  method: "GET",
  path: "/api/v2/hosts/search",
  operation: "hosts_search",
  version: "v2",
  cost: 1,
  summary: "Search hosts (cursor pagination)",
  query: hostsSearchQuerySchema,
  ok: component("HostsSearchResponse", v2Envelope(hostsSearchResultSchema)),
  handler: forward,
});
