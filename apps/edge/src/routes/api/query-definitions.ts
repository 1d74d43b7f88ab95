import { ApiError, seriesDetailsSchema, seriesListSchema } from "@scangate/core";
import {
  platformCatalog,
  platformDay,
  platformSeriesDetails,
  platformSeriesList,
} from "@scangate/sql/platform";
import { defineRoute, type ApiRoute } from "../../pipeline/define-route";
import { onPlatform } from "../../pipeline/exchange";
import { forward } from "../../pipeline/forward";
import { component } from "../../openapi/components";
import { ALWAYS_FREE } from "../../pipeline/price";

// Free in both modes. With a legacy upstream forwarded as they are; on a Platform-only upstream
// the edge answers them: the three series its jobs read, each with the fields a Platform
// document fills (@scangate/sql/platform) and one table, today's (the latest data).

export const SERIES_ROUTES: readonly ApiRoute[] = [
  defineRoute({
    method: "GET",
    path: "/api/v1/query_definitions",
    operation: "query_definitions",
    price: ALWAYS_FREE,
    summary: "Series that can be queried",
    ok: component("SeriesList", seriesListSchema),
    handler: async (c) => (onPlatform(c) ? c.json(platformSeriesList()) : forward(c)),
  }),
  defineRoute({
    method: "GET",
    path: "/api/v1/query_definitions/:series",
    operation: "query_definitions",
    price: ALWAYS_FREE,
    summary: "Fields and tables of a series",
    ok: component("SeriesDetails", seriesDetailsSchema),
    handler: async (c) => {
      if (!onPlatform(c)) return forward(c);
      const catalog = platformCatalog(platformDay(c.get("services").clock.now()));
      const details = platformSeriesDetails(catalog, c.req.param("series") ?? "");
      if (!details) throw new ApiError("not_found");
      return c.json(details);
    },
  }),
];
