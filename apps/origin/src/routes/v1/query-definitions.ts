import { ApiError, type SeriesDetails, type SeriesList } from "@scangate/core";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { isSnapshotSeries, queryDefinitionFields, SNAPSHOT_SERIES } from "../../snapshots/definitions";

/**
 * GET /api/v1/query_definitions: the series SQL can read. GET /api/v1/query_definitions/:series:
 * its fields (see snapshots/fields-*.ts; a field inside a repeated record is REPEATED here) and
 * its published daily tables, oldest first. An unknown series is 404 with an empty error text,
 * as the spec has it.
 */
export function registerQueryDefinitions(app: Hono<AppEnv>): void {
  app.get("/api/v1/query_definitions", (c) => {
    const body: SeriesList = { series: [...SNAPSHOT_SERIES] };
    return c.json(body);
  });

  app.get("/api/v1/query_definitions/:series", async (c) => {
    const series = c.req.param("series");
    if (!isSnapshotSeries(series)) throw new ApiError("not_found", "");
    const catalog = await c.var.services.snapshots.load();
    const body: SeriesDetails = {
      definition: { fields: queryDefinitionFields(catalog.schema(series)) },
      tables: catalog.tables(series),
    };
    return c.json(body);
  });
}
