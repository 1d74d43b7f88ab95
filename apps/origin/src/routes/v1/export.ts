import { createRoute } from "@hono/zod-openapi";
import {
  ApiError,
  exportJobConfiguration,
  exportJobParamsSchema,
  exportJobSchema,
  exportStartBodySchema,
  type ExportJob,
  type ExportJobConfiguration,
} from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { parseInput, readJsonBody } from "../../http/validation";
import { isUsableDelimiter } from "@scangate/sql/export";
import type { ExportOptions } from "../../exports/export-job";
import { expireExport, isPastRetention } from "../../jobs/expiry";
import { newJobId } from "../../jobs/messages";
import { enqueueStoredJob } from "../../jobs/queue";
import { findOwnedJob, invalidQuery } from "../../jobs/owned-job";
import { exportFilesOf, type JobRow } from "../../jobs/store";
import { planJobSqlIn } from "../../jobs/job-sql";
import { defineRoute, fileResponse, jsonBody, jsonResponse, V1_ERRORS } from "../../routing";

function configurationOf(job: JobRow): ExportJobConfiguration {
  return exportJobConfiguration(JSON.parse(job.options ?? "{}") as ExportOptions, job.query);
}

function downloadUrl(c: Context, job: JobRow, name: string): string {
  return `${new URL(c.req.url).origin}/api/v1/export/${job.id}/files/${encodeURIComponent(name)}`;
}

function statusBody(c: Context, job: JobRow): ExportJob {
  const finished = job.status === "success" || job.status === "expired";
  return {
    status: job.status,
    job_id: job.id,
    configuration: configurationOf(job),
    statistics: {
      backend_time: job.backendTimeMs,
      result_count: finished ? job.resultRows : null,
    },
    ...(job.status === "success"
      ? { download_paths: exportFilesOf(job).map((f) => downloadUrl(c, job, f.name)) }
      : {}),
    ...(job.status === "error" && job.errorMessage ? { error_message: job.errorMessage } : {}),
  };
}

/** The export as the caller may see it now: a success past its retention is expired here. */
async function currentExport(c: Context<AppEnv>): Promise<JobRow> {
  const { clock, jobs, results } = c.var.services;
  const job = await findOwnedJob(jobs, c.req.param("job_id") ?? "", "export", c.var.account.api_id);
  if (job.status === "success" && isPastRetention(job, new Date(clock.now()))) {
    await expireExport(results, jobs, job);
    return { ...job, status: "expired" };
  }
  return job;
}

/*
 * Export jobs: POST /api/v1/export starts one (same SQL guard as query jobs), GET
 * /api/v1/export/{job_id} is its status (pending → success with download_paths, or error;
 * expired 24 h after completion), GET /api/v1/export/{job_id}/files/{name} downloads a file.
 * `statistics.backend_time` is in milliseconds; `result_count` is the number of rows. Job
 * routes spend no query quota.
 */

export const exportStart = defineRoute(
  createRoute({
    method: "post",
    path: "/api/v1/export",
    request: { body: jsonBody(exportStartBodySchema) },
    responses: { 200: jsonResponse(exportJobSchema, "The job, pending"), ...V1_ERRORS },
  }),
  { operation: "export_start", cost: null },
  async (c) => {
    const raw = await readJsonBody(c);
    const body = parseInput(exportStartBodySchema, raw);
    if (!isUsableDelimiter(body.delimeter)) {
      throw new ApiError("bad_request", "delimeter: must not be a double quote or a line break");
    }
    const { clock, jobs, snapshots } = c.var.services;
    const planned = planJobSqlIn(await snapshots.load(), body.query);
    if (!planned.ok) throw invalidQuery(planned.error);
    const options: ExportOptions = {
      format: body.format,
      flatten: body.flatten,
      compress: body.compress,
      headers: body.headers,
      delimiter: body.delimeter,
      delimiterGiven: typeof raw === "object" && raw !== null && "delimeter" in raw,
    };
    const job = await jobs.insert({
      id: newJobId(),
      kind: "export",
      owner: c.var.account.api_id,
      query: body.query,
      checkedSql: body.query,
      options,
      now: new Date(clock.now()),
    });
    await enqueueStoredJob(c.var.services, job.id);
    const started: ExportJob = { status: "pending", job_id: job.id, configuration: configurationOf(job) };
    return c.json(started);
  },
);

export const exportStatus = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v1/export/{job_id}",
    request: { params: exportJobParamsSchema },
    responses: { 200: jsonResponse(exportJobSchema, "The job's status"), ...V1_ERRORS },
  }),
  { operation: "export_status", cost: null },
  async (c) => c.json(statusBody(c, await currentExport(c))),
);

export const exportDownload = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v1/export/{job_id}/files/{name}",
    request: { params: exportJobParamsSchema.extend({ name: z.string().min(1) }) },
    responses: { 200: fileResponse("One file of a successful export"), ...V1_ERRORS },
  }),
  { operation: "export_download", cost: null },
  async (c) => {
    const job = await currentExport(c);
    if (job.status !== "success") throw new ApiError("not_found");
    const file = exportFilesOf(job).find((f) => f.name === c.req.param("name"));
    if (!file) throw new ApiError("not_found");
    const object = await c.var.services.results.get(file.key);
    if (!object) throw new ApiError("not_found");
    const headers = new Headers();
    object.writeHttpMetadata(headers);
    headers.set("Content-Length", String(object.size));
    headers.set("ETag", object.httpEtag);
    return new Response(object.body, { headers });
  },
);

export const exportJobRoutes = [exportStart, exportStatus, exportDownload];
