import { defineApiRoute } from "../../api/define-route";
import { forward } from "../../api/forward";
import {
  reportBodySchema,
  reportResponseSchema,
  searchBodySchema,
  searchResponseSchema,
} from "@scangate/core";
import { component } from "../../openapi/components";

/** POST /api/v1/search/:index: forwarded as it is. */
export const searchRoute = defineApiRoute({
  method: "POST",
  path: "/api/v1/search/:index",
  operation: "search",
  version: "v1",
  cost: 1,
  summary: "Search an index",
  body: component("SearchBody", searchBodySchema),
  ok: component("SearchResponse", searchResponseSchema),
  handler: forward,
});

/** POST /api/v1/report/:index: forwarded as it is. */
export const reportRoute = defineApiRoute({
  method: "POST",
  path: "/api/v1/report/:index",
  operation: "report",
  version: "v1",
  cost: 1,
  summary: "Aggregate report over a query",
  body: component("ReportBody", reportBodySchema),
  ok: component("ReportResponse", reportResponseSchema),
  handler: forward,
});
