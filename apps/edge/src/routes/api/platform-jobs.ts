import {
  ApiError,
  JOB_MAX_PAGES_LIMIT,
  exportStartBodySchema,
  queryJobStartBodySchema,
  type ExportJob,
  type QueryJob,
  type QueryResultRow,
  type QueryResultsPage,
} from "@scangate/core";
import { describeSqlError } from "@scangate/sql";
import { isUsableDelimiter } from "@scangate/sql/export";
import { planPlatformQuery } from "@scangate/sql/platform";
import { z } from "zod";

import type { PlatformJobRow } from "../../db/schema";
import { parseJsonBody } from "../../http/json-body";
import type { PlatformJobs } from "../../jobs/platform-jobs";
import { resultPageKey, type ExportOptions } from "../../jobs/platform-run";
import { exportFilesOf, resultSchemaOf, type PlatformJobKind } from "../../jobs/platform-store";
import type { ApiContext } from "../../pipeline/define-route";

// Query and export jobs on a Platform-only upstream: planned and charged here, run by the edge's
// own queue consumer (jobs/platform-jobs.ts), read back from D1 and R2. Only the tenant that
// started a job sees it: every read names the tenant, so another's job is a 404 like an unknown one.

/** The optional body field that lowers the job's maximum of result pages below its tenant's. */
const maxPagesField = {
  max_pages: z.number().int().min(1).max(JOB_MAX_PAGES_LIMIT).optional(),
};
const queryBody = queryJobStartBodySchema.extend(maxPagesField);
// `delimeter` checked below, so the job's configuration can tell whether it was given.
const exportBody = exportStartBodySchema.extend({ ...maxPagesField, delimeter: z.string().optional() });

function platformJobs(c: ApiContext): PlatformJobs {
  const jobs = c.get("services").platformJobs;
  if (!jobs) {
    throw new ApiError(
      "unavailable",
      "query and export jobs need the edge's JOBS queue and JOB_FILES bucket; tell the endpoint's operator",
    );
  }
  return jobs;
}

/** What the job's status tells of its credits: charged before it started, spent on Platform calls. */
function creditsOf(job: PlatformJobRow) {
  return { credits_charged: job.creditsCharged, credits_spent: job.creditsSpent, max_pages: job.maxPages };
}

/**
 * Plans `query` for the Platform, charges its most Platform calls before it runs, stores and
 * queues it. A query the Platform cannot answer within the maximum is a 400 saying why.
 */
async function submit(
  c: ApiContext,
  kind: PlatformJobKind,
  query: string,
  maxPagesAsked: number | undefined,
  options: ExportOptions | null,
) {
  const jobs = platformJobs(c);
  const { config, clock } = c.get("services");
  const account = c.get("account");
  const tenantMax = account.tenant.jobMaxPages ?? config.jobMaxPages;
  const maxPages = Math.min(maxPagesAsked ?? tenantMax, tenantMax);
  const now = clock.now();
  const planned = planPlatformQuery(query, { now, maxPages });
  if (!planned.ok)
    throw new ApiError("invalid_query", undefined, { detail: describeSqlError(planned.error) });
  // Charged, not held: a hold expires long before a job of many pages ends. The consumer gives
  // back what the job did not spend.
  const charge = await account.charge(planned.value.maxCalls);
  const job = await jobs.store.insert({
    id: crypto.randomUUID(),
    kind,
    tenantId: account.tenant.id,
    query,
    options,
    plannedAt: now,
    maxPages,
    creditsCharged: charge?.credits ?? 0,
    chargeResetsAt: charge?.resetsAt ?? null,
  });
  if (!(await jobs.enqueue(job)))
    throw new ApiError("unavailable", "the job could not be queued; retry in a moment");
  return job;
}

async function owned(c: ApiContext, kind: PlatformJobKind): Promise<PlatformJobRow> {
  const job = await platformJobs(c).store.owned(
    kind,
    c.req.param("job_id") ?? "",
    c.get("account").tenant.id,
  );
  if (!job) throw new ApiError("not_found");
  return job;
}

// Query jobs.

function queryStatusBody(job: PlatformJobRow): QueryJob & ReturnType<typeof creditsOf> {
  // A query's pages expire with its retention; its status then says error, as the spec's statuses allow.
  const status = job.status === "expired" ? "error" : job.status;
  return {
    status,
    job_id: job.id,
    configuration: { query: job.query },
    ...(job.status === "error" && job.errorMessage ? { error_message: job.errorMessage } : {}),
    ...(job.status === "expired"
      ? { error_message: "the job's results expired 24 hours after it ended" }
      : {}),
    ...creditsOf(job),
  };
}

export async function platformQueryStart(c: ApiContext): Promise<Response> {
  const body = await parseJsonBody(c, queryBody);
  const job = await submit(c, "query", body.query, body.max_pages, null);
  return c.json(queryStatusBody(job));
}

export async function platformQueryStatus(c: ApiContext): Promise<Response> {
  return c.json(queryStatusBody(await owned(c, "query")));
}

export async function platformQueryResults(c: ApiContext): Promise<Response> {
  const job = await owned(c, "query");
  if (job.status !== "success") return c.json(queryStatusBody(job));
  const pageText = c.req.param("page") ?? "";
  const page = /^\d{1,9}$/.test(pageText) ? Number(pageText) : 0;
  const pages = job.resultPages ?? 0;
  if (page < 1 || page > pages) throw new ApiError("not_found");
  const object = await platformJobs(c).files.get(resultPageKey(job.id, page));
  if (!object) throw new ApiError("not_found");
  const { rows } = await object.json<{ rows: QueryResultRow[] }>();
  const body: QueryResultsPage = {
    rows,
    statistics: { rows: job.resultRows ?? 0, pages, data_processed: job.dataProcessed ?? 0 },
    configuration: { query: job.query, page, schema: { fields: resultSchemaOf(job) } },
  };
  return c.json(body);
}

// Export jobs.

function exportConfiguration(job: PlatformJobRow) {
  const options = JSON.parse(job.options ?? "{}") as ExportOptions;
  return {
    format: options.format,
    compress: options.compress,
    headers: options.headers,
    // The spec: "the delimiter is null or false when unset".
    delimiter: options.delimiterGiven ? options.delimiter : null,
    flatten: options.flatten,
    query: job.query,
  };
}

function exportStatusBody(c: ApiContext, job: PlatformJobRow): ExportJob & ReturnType<typeof creditsOf> {
  const finished = job.status === "success" || job.status === "expired";
  const origin = new URL(c.req.url).origin;
  return {
    status: job.status,
    job_id: job.id,
    configuration: exportConfiguration(job),
    statistics: { backend_time: job.backendTimeMs, result_count: finished ? job.resultRows : null },
    ...(job.status === "success"
      ? {
          download_paths: exportFilesOf(job).map(
            (_, i) => `${origin}/api/v1/export/${encodeURIComponent(job.id)}/files/${i + 1}`,
          ),
        }
      : {}),
    ...(job.status === "error" && job.errorMessage ? { error_message: job.errorMessage } : {}),
    ...creditsOf(job),
  };
}

export async function platformExportStart(c: ApiContext): Promise<Response> {
  const body = await parseJsonBody(c, exportBody);
  const delimiter = body.delimeter ?? ",";
  if ([...delimiter].length !== 1 || !isUsableDelimiter(delimiter)) {
    throw new ApiError("bad_request", "delimeter: must be one character, not a double quote or a line break");
  }
  const options: ExportOptions = {
    format: body.format,
    flatten: body.flatten,
    compress: body.compress,
    headers: body.headers,
    delimiter,
    delimiterGiven: body.delimeter !== undefined,
  };
  const job = await submit(c, "export", body.query, body.max_pages, options);
  const { statistics: _, ...started } = exportStatusBody(c, job);
  return c.json(started);
}

export async function platformExportStatus(c: ApiContext): Promise<Response> {
  return c.json(exportStatusBody(c, await owned(c, "export")));
}

export async function platformExportDownload(c: ApiContext): Promise<Response> {
  const job = await owned(c, "export");
  if (job.status !== "success") throw new ApiError("not_found");
  const file = exportFilesOf(job)[Number(c.req.param("file")) - 1];
  if (!file) throw new ApiError("not_found");
  const object = await platformJobs(c).files.get(file.key);
  if (!object) throw new ApiError("not_found");
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("Content-Length", String(object.size));
  return new Response(object.body, { headers });
}
