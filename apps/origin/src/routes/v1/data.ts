import { createRoute } from "@hono/zod-openapi";
import {
  ApiError,
  rawResultDetailsSchema,
  rawResultParamsSchema,
  rawSeriesDetailsSchema,
  rawSeriesListSchema,
  type PrimarySeriesEntry,
  type RawResultDetails,
  type RawResultRef,
  type RawSeriesDetails,
  type RawSeriesEntry,
  type RawSeriesList,
} from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import {
  findRawSeries,
  RAW_DATA_SERIES,
  type RawSeriesDefinition,
  type ScanResult,
} from "../../rawdata/series";
import { defineRoute, fileResponse, jsonResponse, V1_ERRORS } from "../../routing";

function base(c: Context): string {
  return `${new URL(c.req.url).origin}/api/v1/data`;
}

function resultRef(c: Context, series: RawSeriesDefinition, result: ScanResult): RawResultRef {
  return { timestamp: result.timestamp, id: result.id, details_url: `${base(c)}/${series.id}/${result.id}` };
}

async function seriesAndResult(
  c: Context<AppEnv>,
): Promise<{ series: RawSeriesDefinition; result: ScanResult }> {
  const series = findRawSeries(c.req.param("series") ?? "");
  if (!series) throw new ApiError("not_found");
  const result = (await c.var.services.rawData.scanResults()).find((r) => r.id === c.req.param("result"));
  if (!result) throw new ApiError("not_found");
  return { series, result };
}

/*
 * Raw-data series (spec: "Raw data API"). GET /api/v1/data lists them, /{series} gives its
 * results, /{series}/{result} the files of one result with their size and SHA-256, and
 * /{series}/{result}/files/{label} downloads a file. Unknown series, results and files are 404.
 * Raw data spends no query quota.
 */

export const rawSeriesList = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v1/data",
    responses: { 200: jsonResponse(rawSeriesListSchema, "The primary and raw series"), ...V1_ERRORS },
  }),
  { operation: "data", cost: null },
  async (c) => {
    const results = await c.var.services.rawData.scanResults();
    const latest = results[results.length - 1];
    const body: RawSeriesList = { primary_series: {}, raw_series: {} };
    if (!latest) return c.json(body);
    for (const series of RAW_DATA_SERIES) {
      const entry: PrimarySeriesEntry = {
        id: series.id,
        name: series.name,
        description: series.description,
        details_url: `${base(c)}/${series.id}`,
        latest_result: {
          timestamp: latest.timestamp,
          name: latest.id,
          details_url: `${base(c)}/${series.id}/${latest.id}`,
        },
      };
      if (series.kind === "primary") {
        body.primary_series[series.id] = entry;
      } else {
        const rawEntry: RawSeriesEntry = {
          ...entry,
          protocol: series.protocol,
          subprotocol: series.subprotocol,
          destination: series.destination,
          port: series.port,
        };
        body.raw_series[series.id] = rawEntry;
      }
    }
    return c.json(body);
  },
);

export const rawSeriesDetails = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v1/data/{series}",
    request: { params: rawResultParamsSchema.pick({ series: true }) },
    responses: { 200: jsonResponse(rawSeriesDetailsSchema, "The series and its results"), ...V1_ERRORS },
  }),
  { operation: "data", cost: null },
  async (c) => {
    const series = findRawSeries(c.req.param("series"));
    if (!series) throw new ApiError("not_found");
    const results = await c.var.services.rawData.scanResults();
    const latest = results[results.length - 1];
    if (!latest) throw new ApiError("not_found");
    const body: RawSeriesDetails = {
      id: series.id,
      name: series.name,
      description: series.description,
      protocol: series.protocol,
      subprotocol: series.subprotocol,
      destination: series.destination,
      port: series.port,
      results: {
        historical: results.map((r) => resultRef(c, series, r)),
        latest: resultRef(c, series, latest),
      },
    };
    return c.json(body);
  },
);

export const rawResultDetails = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v1/data/{series}/{result}",
    request: { params: rawResultParamsSchema },
    responses: { 200: jsonResponse(rawResultDetailsSchema, "The files of one result"), ...V1_ERRORS },
  }),
  { operation: "data", cost: null },
  async (c) => {
    const { series, result } = await seriesAndResult(c);
    const files = await c.var.services.rawData.files(series, result);
    const body: RawResultDetails = { id: result.id, timestamp: result.timestamp, files: {} };
    for (const file of files) {
      body.files[file.label] = {
        file_type: file.fileType,
        schema: file.schema,
        download_path: `${base(c)}/${series.id}/${result.id}/files/${file.label}`,
        sha256_fingerprint: file.sha256,
        size: file.size,
      };
    }
    return c.json(body);
  },
);

export const rawFileDownload = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v1/data/{series}/{result}/files/{label}",
    request: { params: rawResultParamsSchema.extend({ label: z.string().min(1) }) },
    responses: { 200: fileResponse("One file of a result"), ...V1_ERRORS },
  }),
  { operation: "data_download", cost: null },
  async (c) => {
    const { series, result } = await seriesAndResult(c);
    const files = await c.var.services.rawData.files(series, result);
    const file = files.find((f) => f.label === c.req.param("label"));
    if (!file) throw new ApiError("not_found");
    const object = await c.var.services.results.get(file.key);
    if (!object) throw new ApiError("not_found");
    const headers = new Headers();
    object.writeHttpMetadata(headers);
    headers.set("Content-Length", String(object.size));
    headers.set(
      "Content-Disposition",
      `attachment; filename="${series.id}-${result.id}-${file.label}.${file.fileType}"`,
    );
    return new Response(object.body, { headers });
  },
);

export const rawDataRoutes = [rawSeriesList, rawSeriesDetails, rawResultDetails, rawFileDownload];
