import { defineApiRoute } from "../../api/define-route";
import { forward } from "../../api/forward";
import { seriesDetailsSchema, seriesListSchema } from "@scangate/core";
import { component } from "../../openapi/components";

/** GET /api/v1/query_definitions: free, forwarded as it is. */
export const seriesListRoute = defineApiRoute({
  method: "GET",
  path: "/api/v1/query_definitions",
  operation: "query_definitions",
  version: "v1",
  cost: 0,
  summary: "Series that can be queried",
  ok: component("SeriesList", seriesListSchema),
  handler: forward,
});

/** GET /api/v1/query_definitions/:series: free, forwarded as it is. */
export const seriesDetailsRoute = defineApiRoute({
  method: "GET",
  path: "/api/v1/query_definitions/:series",
  operation: "query_definitions",
  version: "v1",
  cost: 0,
  summary: "Fields and tables of a series",
  ok: component("SeriesDetails", seriesDetailsSchema),
  handler: forward,
});
