import { createRoute } from "@hono/zod-openapi";
import {
  ApiError,
  seriesDetailsSchema,
  seriesListSchema,
  seriesParamsSchema,
  type SeriesDetails,
  type SeriesList,
} from "@scangate/core";
import { defineRoute, jsonResponse, V1_ERRORS } from "../../routing";
import { isSnapshotSeries, queryDefinitionFields, SNAPSHOT_SERIES } from "../../snapshots/definitions";

/** GET /api/v1/query_definitions: the series SQL can read. */
export const querySeries = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v1/query_definitions",
    responses: { 200: jsonResponse(seriesListSchema, "The series job SQL can read"), ...V1_ERRORS },
  }),
  { operation: "query_definitions", cost: null },
  (c) => {
    const body: SeriesList = { series: [...SNAPSHOT_SERIES] };
    return c.json(body);
  },
);

/**
 * GET /api/v1/query_definitions/{series}: its fields (see snapshots/fields-*.ts; a field inside
 * a repeated record is REPEATED here) and its published daily tables, oldest first. An unknown
 * series is 404 with an empty error text, as the spec has it.
 */
export const querySeriesDetails = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v1/query_definitions/{series}",
    request: { params: seriesParamsSchema },
    responses: { 200: jsonResponse(seriesDetailsSchema, "The series' fields and tables"), ...V1_ERRORS },
  }),
  { operation: "query_definitions", cost: null },
  async (c) => {
    const series = c.req.param("series");
    if (!isSnapshotSeries(series)) throw new ApiError("not_found", "");
    const catalog = await c.var.services.snapshots.load();
    const body: SeriesDetails = {
      definition: { fields: queryDefinitionFields(catalog.schema(series)) },
      tables: catalog.tables(series),
    };
    return c.json(body);
  },
);

export const queryDefinitionRoutes = [querySeries, querySeriesDetails];
