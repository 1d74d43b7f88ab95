import { defineRoute } from "../../pipeline/define-route";
import { forward } from "../../pipeline/forward";
import { seriesDetailsSchema, seriesListSchema } from "@scangate/core";
import { component } from "../../openapi/components";
import { FREE } from "../../pipeline/price";
import { legacyOnly } from "../../pipeline/untranslated";

const DEFINITIONS_PRICE = legacyOnly(
  FREE,
  "the SQL query series have no Platform equivalent (use the Platform's /v3/global/search/query)",
);

/** GET /api/v1/query_definitions: free, forwarded as it is. */
export const seriesListRoute = defineRoute({
  method: "GET",
  path: "/api/v1/query_definitions",
  operation: "query_definitions",
  api: "v1",
  price: DEFINITIONS_PRICE,
  summary: "Series that can be queried",
  ok: component("SeriesList", seriesListSchema),
  handler: forward,
});

/** GET /api/v1/query_definitions/:series: free, forwarded as it is. */
export const seriesDetailsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/query_definitions/:series",
  operation: "query_definitions",
  api: "v1",
  price: DEFINITIONS_PRICE,
  summary: "Fields and tables of a series",
  ok: component("SeriesDetails", seriesDetailsSchema),
  handler: forward,
});
