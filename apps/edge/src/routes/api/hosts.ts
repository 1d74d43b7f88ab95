import { defineRoute } from "../../pipeline/define-route";
import { forward } from "../../pipeline/forward";
import {
  hostsAggregateQuerySchema,
  hostsAggregateResultSchema,
  hostsSearchQuerySchema,
  hostsSearchResultSchema,
  v2Envelope,
} from "@scangate/core";
import { component } from "../../openapi/components";
import { HOSTS_SEARCH_PRICE } from "../../upstream/legacy-credits";

/** GET /api/v2/hosts/aggregate: forwarded as it is. */
export const hostsAggregateRoute = defineRoute({
  method: "GET",
  path: "/api/v2/hosts/aggregate",
  operation: "hosts_aggregate",
  api: "v2",
  price: HOSTS_SEARCH_PRICE,
  summary: "Aggregate hosts into buckets",
  query: hostsAggregateQuerySchema,
  ok: component("HostsAggregateResponse", v2Envelope(hostsAggregateResultSchema)),
  handler: forward,
});

/** GET /api/v2/hosts/search: forwarded as it is (its cursors are the upstream's). */
export const hostsSearchRoute = defineRoute({
  method: "GET",
  path: "/api/v2/hosts/search",
  operation: "hosts_search",
  api: "v2",
  price: HOSTS_SEARCH_PRICE,
  summary: "Search hosts (cursor pagination)",
  query: hostsSearchQuerySchema,
  ok: component("HostsSearchResponse", v2Envelope(hostsSearchResultSchema)),
  handler: forward,
});
