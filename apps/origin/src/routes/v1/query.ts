import { createRoute } from "@hono/zod-openapi";
import {
  ApiError,
  queryJobParamsSchema,
  queryJobSchema,
  queryJobStartBodySchema,
  queryResultsPageSchema,
  queryResultsParamsSchema,
  type QueryJob,
  type QueryResultsPage,
} from "@scangate/core";
import { z } from "zod";
import { parseInput, readJsonBody } from "../../http/validation";
import { isPastRetention } from "../../jobs/expiry";
import { newJobId } from "../../jobs/messages";
import { enqueueStoredJob } from "../../jobs/queue";
import { findOwnedJob, invalidQuery } from "../../jobs/owned-job";
import { readResultPage } from "../../jobs/query-job";
import { resultSchemaOf, type JobRow } from "../../jobs/store";
import { planJobSqlIn } from "../../jobs/job-sql";
import { defineRoute, jsonBody, jsonResponse, V1_ERRORS } from "../../routing";

function statusBody(job: JobRow): QueryJob {
  const status = job.status === "expired" ? "error" : job.status;
  return {
    status,
    job_id: job.id,
    configuration: { query: job.query },
    ...(job.status === "error" && job.errorMessage ? { error_message: job.errorMessage } : {}),
  };
}

/*
 * Query jobs: POST /api/v1/query starts one (the SQL guard decides, the JOBS queue runs it),
 * GET /api/v1/query/{job_id} is its status, GET /api/v1/query/{job_id}/{page} a result page.
 * Job routes spend no query quota.
 *
 * Pages are one-indexed and hold QUERY_RESULTS_PAGE_SIZE rows; a job that has not finished
 * answers its status body (`pending`, or `error` with `error_message`) instead of a page.
 * Page 0, a page past the last, a page that is not a decimal number, an unknown job and a job
 * past its 24-hour retention are 404 `page not found`.
 */

export const queryStart = defineRoute(
  createRoute({
    method: "post",
    path: "/api/v1/query",
    request: { body: jsonBody(queryJobStartBodySchema) },
    responses: { 200: jsonResponse(queryJobSchema, "The job, pending"), ...V1_ERRORS },
  }),
  { operation: "query_start", cost: null },
  async (c) => {
    const { query } = parseInput(queryJobStartBodySchema, await readJsonBody(c));
    const { clock, jobs, snapshots } = c.var.services;
    const planned = planJobSqlIn(await snapshots.load(), query);
    if (!planned.ok) throw invalidQuery(planned.error);
    const job = await jobs.insert({
      id: newJobId(),
      kind: "query",
      owner: c.var.account.api_id,
      query,
      checkedSql: query,
      now: new Date(clock.now()),
    });
    await enqueueStoredJob(c.var.services, job.id);
    return c.json(statusBody(job));
  },
);

export const queryStatus = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v1/query/{job_id}",
    request: { params: queryJobParamsSchema },
    responses: { 200: jsonResponse(queryJobSchema, "The job's status"), ...V1_ERRORS },
  }),
  { operation: "query_status", cost: null },
  async (c) => {
    const job = await findOwnedJob(c.var.services.jobs, c.req.param("job_id"), "query", c.var.account.api_id);
    if (isPastRetention(job, new Date(c.var.services.clock.now()))) throw new ApiError("not_found");
    return c.json(statusBody(job));
  },
);

export const queryResults = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v1/query/{job_id}/{page}",
    request: { params: queryResultsParamsSchema },
    responses: {
      200: jsonResponse(
        z.union([queryResultsPageSchema, queryJobSchema]),
        "A page of results, or the status of a job that has not succeeded",
      ),
      ...V1_ERRORS,
    },
  }),
  { operation: "query_results", cost: null },
  async (c) => {
    const job = await findOwnedJob(c.var.services.jobs, c.req.param("job_id"), "query", c.var.account.api_id);
    if (isPastRetention(job, new Date(c.var.services.clock.now()))) throw new ApiError("not_found");
    if (job.status !== "success") return c.json(statusBody(job));
    const pageText = c.req.param("page");
    const page = /^\d{1,9}$/.test(pageText) ? Number(pageText) : 0;
    const pages = job.resultPages ?? 0;
    if (page < 1 || page > pages) throw new ApiError("not_found");
    const rows = await readResultPage(c.var.services.results, job.id, page);
    if (rows === null) throw new ApiError("not_found");
    const body: QueryResultsPage = {
      rows,
      statistics: { rows: job.resultRows ?? 0, pages, data_processed: job.dataProcessed ?? 0 },
      configuration: { query: job.query, page, schema: { fields: resultSchemaOf(job) } },
    };
    return c.json(body);
  },
);

export const queryJobRoutes = [queryStart, queryStatus, queryResults];
