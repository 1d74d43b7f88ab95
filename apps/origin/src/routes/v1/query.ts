import { ApiError, queryJobStartBodySchema, type QueryJob, type QueryResultsPage } from "@scangate/core";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { parseInput, readJsonBody } from "../../http/validation";
import { isPastRetention } from "../../jobs/expiry";
import { newJobId } from "../../jobs/messages";
import { findOwnedJob, invalidQuery } from "../../jobs/owned-job";
import { readResultPage } from "../../jobs/query-job";
import { resultSchemaOf, type JobRow } from "../../jobs/store";
import { planJobSqlIn } from "../../jobs/job-sql";

function statusBody(job: JobRow): QueryJob {
  const status = job.status === "expired" ? "error" : job.status;
  return {
    status,
    job_id: job.id,
    configuration: { query: job.query },
    ...(job.status === "error" && job.errorMessage ? { error_message: job.errorMessage } : {}),
  };
}

/**
 * Query jobs: POST /api/v1/query starts one (the SQL guard decides, the JOBS queue runs it),
 * GET /api/v1/query/:job_id is its status, GET /api/v1/query/:job_id/:page a result page.
 *
 * Pages are one-indexed and hold QUERY_RESULTS_PAGE_SIZE rows; a job that has not finished
 * answers its status body (`pending`, or `error` with `error_message`) instead of a page.
 * Page 0, a page past the last, a page that is not a decimal number, an unknown job and a job
 * past its 24-hour retention are 404 `page not found`.
 */
export function registerQueryJobs(app: Hono<AppEnv>): void {
  app.post("/api/v1/query", async (c) => {
    const { query } = parseInput(queryJobStartBodySchema, await readJsonBody(c));
    const { clock, jobs, jobQueue, snapshots } = c.var.services;
    const planned = planJobSqlIn(await snapshots.load(), query);
    if (!planned.ok) throw invalidQuery(planned.error);
    const job = await jobs.insert({
      id: newJobId(),
      kind: "query",
      owner: c.var.account.api_id,
      query,
      checkedSql: query,
      now: clock.now(),
    });
    try {
      await jobQueue.enqueue(job.id);
    } catch (error) {
      await jobs.markFailed(job.id, "the job could not be queued; please retry", clock.now());
      throw error;
    }
    return c.json(statusBody(job));
  });

  app.get("/api/v1/query/:job_id", async (c) => {
    const job = await findOwnedJob(c.var.services.jobs, c.req.param("job_id"), "query", c.var.account.api_id);
    if (isPastRetention(job, c.var.services.clock.now())) throw new ApiError("not_found");
    return c.json(statusBody(job));
  });

  app.get("/api/v1/query/:job_id/:page", async (c) => {
    const job = await findOwnedJob(c.var.services.jobs, c.req.param("job_id"), "query", c.var.account.api_id);
    if (isPastRetention(job, c.var.services.clock.now())) throw new ApiError("not_found");
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
  });
}
