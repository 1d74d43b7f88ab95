import { defineApiRoute } from "../../api/define-route";
import { forward } from "../../api/forward";

/** GET /api/v2/hosts/aggregate: forwarded as it is. */
export const hostsAggregateRoute = defineApiRoute({
  method: "GET",
  path: "/api/v2/hosts/aggregate",
  operation: "hosts_aggregate",
  version: "v2",
  cost: 1,
  summary: "Aggregate hosts into buckets",
  query: "hostsAggregate",
  ok: "HostsAggregateResponse",
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
  query: "hostsSearch",
  ok: "HostsSearchResponse",
  handler: forward,
});
