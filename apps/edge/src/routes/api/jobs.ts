import {
  ApiError,
  JOB_MAX_PAGES_LIMIT,
  exportJobConfiguration,
  exportJobSchema,
  exportStartBodySchema,
  queryJobSchema,
  queryJobStartBodySchema,
  queryResultsPageSchema,
  type ExportJob,
  type QueryJob,
  type QueryResultRow,
  type QueryResultsPage,
} from "@scangate/core";
import { describeSqlError, parseQuery } from "@scangate/sql";
import { isUsableDelimiter } from "@scangate/sql/export";
import { planPlatformQuery } from "@scangate/sql/platform";
import { z } from "zod";
import type { PlatformJobRow } from "../../db/schema";
import { jsonObject, parseJsonBody } from "../../http/json-body";
import { JOB_START_OPERATION, type PlatformJobs } from "../../jobs/platform-jobs";
import { resultPageKey, type ExportOptions } from "../../jobs/platform-run";
import { exportFilesOf, resultSchemaOf, type PlatformJobKind } from "../../jobs/platform-store";
import type { JobKind } from "../../jobs/store";
import { component } from "../../openapi/components";
import { type ApiContext, type ApiRoute, defineRoute } from "../../pipeline/define-route";
import { chargedRelay, onPlatform, readRequestBody, upstreamPath } from "../../pipeline/exchange";
import { ALWAYS_FREE, ONE_PER_REQUEST, type RoutePrice } from "../../pipeline/price";
import { relayFile } from "../../upstream/file";
import { isSuccess, relayedResponse } from "../../upstream/relay";

// Query and export jobs, owned by the tenant that started them: status, results and files of
// another tenant's job are 404 like an unknown job's. Export `download_paths` point at the edge,
// where only the owner can fetch them. With a legacy upstream a job runs there: the edge relays
// it and fetches the upstream's files with the job's upstream account. On a Platform-only
// upstream the edge plans and charges a job here, runs it on its own queue consumer
// (jobs/platform-jobs.ts) and reads it back from D1 and R2; every read names the tenant.

// On a Platform-only upstream a job is charged one credit per Platform call it may make (search
// pages, aggregates), all of them before it starts, giving back what it did not spend.
const jobStartPrice: RoutePrice = { legacy: ONE_PER_REQUEST.legacy, platform: { credits: 1, per: "page" } };

function edgeFileUrl(c: ApiContext, jobId: string, n: number): string {
  return `${new URL(c.req.url).origin}/api/v1/export/${encodeURIComponent(jobId)}/files/${n}`;
}

// Jobs on a legacy upstream.

/**
 * The job's SQL, checked by the same parser and text bounds the origin applies, so a query
 * the upstream would refuse is refused here first: no quota spent, no upstream call. A body
 * that is not a JSON object with a string `query` goes on unchanged for the upstream to judge.
 */
function checkJobSql(body: Uint8Array | undefined): void {
  const query = jsonObject(body)?.query;
  if (typeof query !== "string" || query.trim() === "") return;
  const parsed = parseQuery(query);
  if (!parsed.ok) throw new ApiError("invalid_query", undefined, { detail: describeSqlError(parsed.error) });
}

/**
 * Start a job upstream and remember that this tenant owns it (and which upstream account ran it).
 * A submit whose answer never came keeps its charge: the job may be queued upstream all the same.
 */
async function startJob(c: ApiContext, kind: JobKind): Promise<Response> {
  const body = await readRequestBody(c);
  checkJobSql(body);
  const relayed = await chargedRelay(
    c,
    { method: "POST", path: upstreamPath(c), body },
    { keepOnTimeout: true },
  );
  const jobId = (relayed.json as { job_id?: unknown } | null)?.job_id;
  if (isSuccess(relayed.status) && typeof jobId === "string") {
    await c.get("services").jobs.record(kind, jobId, c.get("account").tenant.id, relayed.credentialId);
  }
  return relayedResponse(relayed);
}

/** The caller's upstream job read with the account that ran it, or a 404 exactly like an unknown job's. */
async function readOwnedJob(c: ApiContext, kind: JobKind, path = upstreamPath(c)) {
  const job = await c
    .get("services")
    .jobs.owned(kind, c.req.param("job_id") ?? "", c.get("account").tenant.id);
  if (!job) throw new ApiError("not_found");
  return chargedRelay(c, { method: "GET", path, credentialId: job.upstreamCredential });
}

function downloadPaths(json: unknown): string[] | null {
  const paths = (json as { download_paths?: unknown } | null)?.download_paths;
  return Array.isArray(paths) && paths.every((p) => typeof p === "string") ? paths : null;
}

// Jobs on a Platform-only upstream.

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

function queryStatusBody(job: PlatformJobRow): QueryJob & ReturnType<typeof creditsOf> {
  // A query's pages expire with its retention; its status then says error, as the spec's statuses allow.
  const errorMessage =
    job.status === "expired"
      ? "the job's results expired 24 hours after it ended"
      : job.status === "error" && job.errorMessage;
  return {
    status: job.status === "expired" ? "error" : job.status,
    job_id: job.id,
    configuration: { query: job.query },
    ...(errorMessage ? { error_message: errorMessage } : {}),
    ...creditsOf(job),
  };
}

function exportStatusBody(c: ApiContext, job: PlatformJobRow): ExportJob & ReturnType<typeof creditsOf> {
  const options = JSON.parse(job.options ?? "{}") as ExportOptions;
  const finished = job.status === "success" || job.status === "expired";
  return {
    status: job.status,
    job_id: job.id,
    configuration: exportJobConfiguration(options, job.query),
    statistics: { backend_time: job.backendTimeMs, result_count: finished ? job.resultRows : null },
    ...(job.status === "success"
      ? { download_paths: exportFilesOf(job).map((_, i) => edgeFileUrl(c, job.id, i + 1)) }
      : {}),
    ...(job.status === "error" && job.errorMessage ? { error_message: job.errorMessage } : {}),
    ...creditsOf(job),
  };
}

async function startPlatformExport(c: ApiContext): Promise<Response> {
  const { query, max_pages, delimeter, ...encoding } = await parseJsonBody(c, exportBody);
  const delimiter = delimeter ?? ",";
  if ([...delimiter].length !== 1 || !isUsableDelimiter(delimiter)) {
    throw new ApiError("bad_request", "delimeter: must be one character, not a double quote or a line break");
  }
  const options: ExportOptions = { ...encoding, delimiter, delimiterGiven: delimeter !== undefined };
  const job = await submit(c, "export", query, max_pages, options);
  const { statistics: _, ...started } = exportStatusBody(c, job);
  return c.json(started);
}

async function platformQueryResults(c: ApiContext): Promise<Response> {
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

async function platformExportDownload(c: ApiContext): Promise<Response> {
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

export const JOB_ROUTES: readonly ApiRoute[] = [
  defineRoute({
    method: "POST",
    path: "/api/v1/query",
    operation: JOB_START_OPERATION.query,
    price: jobStartPrice,
    summary: "Start a query job",
    body: component("QueryJobStartBody", queryJobStartBodySchema),
    ok: component("QueryJob", queryJobSchema),
    handler: async (c) => {
      if (!onPlatform(c)) return startJob(c, "query");
      const body = await parseJsonBody(c, queryBody);
      return c.json(queryStatusBody(await submit(c, "query", body.query, body.max_pages, null)));
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/v1/query/:job_id",
    operation: "query_status",
    price: ALWAYS_FREE,
    summary: "Status of a query job (its owner only)",
    ok: component("QueryJob", queryJobSchema),
    handler: async (c) =>
      onPlatform(c)
        ? c.json(queryStatusBody(await owned(c, "query")))
        : relayedResponse(await readOwnedJob(c, "query")),
  }),
  defineRoute({
    method: "GET",
    path: "/api/v1/query/:job_id/:page",
    operation: "query_results",
    price: ALWAYS_FREE,
    summary: "A page of a query job's results (its owner only)",
    ok: component("QueryResultsPage", queryResultsPageSchema),
    handler: async (c) =>
      onPlatform(c) ? platformQueryResults(c) : relayedResponse(await readOwnedJob(c, "query")),
  }),
  defineRoute({
    method: "POST",
    path: "/api/v1/export",
    operation: JOB_START_OPERATION.export,
    price: jobStartPrice,
    summary: "Start an export job",
    body: component("ExportStartBody", exportStartBodySchema),
    ok: component("ExportJob", exportJobSchema),
    handler: (c) => (onPlatform(c) ? startPlatformExport(c) : startJob(c, "export")),
  }),
  defineRoute({
    method: "GET",
    path: "/api/v1/export/:job_id",
    operation: "export_status",
    price: ALWAYS_FREE,
    summary: "Status of an export job; download_paths point at the edge (its owner only)",
    ok: component("ExportJob", exportJobSchema),
    handler: async (c) => {
      if (onPlatform(c)) return c.json(exportStatusBody(c, await owned(c, "export")));
      const relayed = await readOwnedJob(c, "export");
      const paths = downloadPaths(relayed.json);
      if (!isSuccess(relayed.status) || paths === null) return relayedResponse(relayed);
      const jobId = c.req.param("job_id") ?? "";
      const download_paths = paths.map((_, i) => edgeFileUrl(c, jobId, i + 1));
      return c.json({ ...(relayed.json as object), download_paths }, 200);
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/v1/export/:job_id/files/:file{[0-9]+}",
    operation: "export_download",
    price: ALWAYS_FREE,
    summary: "Download one file of an export job (edge route, its owner only)",
    ok: "file",
    handler: async (c) => {
      if (onPlatform(c)) return platformExportDownload(c);
      const jobId = c.req.param("job_id") ?? "";
      const status = await readOwnedJob(c, "export", `/v1/export/${encodeURIComponent(jobId)}`);
      if (!isSuccess(status.status)) return relayedResponse(status);
      const url = downloadPaths(status.json)?.[Number(c.req.param("file")) - 1];
      if (!url) throw new ApiError("not_found");
      const services = c.get("services");
      c.get("account").upstreamCall();
      return relayFile(services.config.upstreamTimeoutMs, (signal) =>
        services.upstream.download(url, status.credentialId, signal),
      );
    },
  }),
];
