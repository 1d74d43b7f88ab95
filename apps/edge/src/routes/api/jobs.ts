import {
  ApiError,
  exportJobSchema,
  exportStartBodySchema,
  queryJobSchema,
  queryJobStartBodySchema,
  queryResultsPageSchema,
} from "@scangate/core";
import { describeSqlError, parseQuery } from "@scangate/sql";
import { defineRoute } from "../../pipeline/define-route";
import { type ApiContext, chargedRelay, readRequestBody, upstreamPath } from "../../pipeline/exchange";
import type { JobKind } from "../../jobs/store";
import { relayFile } from "../../upstream/file";
import { isSuccess, relayedResponse } from "../../upstream/relay";
import { component } from "../../openapi/components";
import { ALWAYS_FREE, ONE_PER_REQUEST, type RoutePrice } from "../../pipeline/price";
import {
  platformExportDownload,
  platformExportStart,
  platformExportStatus,
  platformQueryResults,
  platformQueryStart,
  platformQueryStatus,
} from "./platform-jobs";

// With a legacy upstream a job runs there; on a Platform-only upstream the edge runs it over the
// Platform's search (platform-jobs.ts) and charges one credit per Platform call it may make
// (search pages, aggregates), all of them before it starts, giving back what it did not spend.
const jobStartPrice: RoutePrice = { legacy: ONE_PER_REQUEST.legacy, platform: { credits: 1, per: "page" } };
const jobReadPrice: RoutePrice = ALWAYS_FREE;

const onPlatform = (c: ApiContext) => c.get("services").config.upstreamApi === "platform";

/**
 * The job's SQL, checked by the same parser and text bounds the origin applies, so a query
 * the upstream would refuse is refused here first: no quota spent, no upstream call. A body
 * that is not a JSON object with a string `query` goes on unchanged for the upstream to judge.
 */
function checkJobSql(body: Uint8Array | undefined): void {
  let query: unknown;
  try {
    query = (JSON.parse(new TextDecoder().decode(body)) as { query?: unknown } | null)?.query;
  } catch {
    return;
  }
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

/** The caller's job, or a 404 exactly like an unknown job's. */
async function ownedJob(c: ApiContext, kind: JobKind) {
  const job = await c
    .get("services")
    .jobs.owned(kind, c.req.param("job_id") ?? "", c.get("account").tenant.id);
  if (!job) throw new ApiError("not_found");
  return job;
}

async function readOwnedJob(c: ApiContext, kind: JobKind, path = upstreamPath(c)) {
  const job = await ownedJob(c, kind);
  return chargedRelay(c, { method: "GET", path, credentialId: job.upstreamCredential });
}

function edgeFileUrl(c: ApiContext, jobId: string, n: number): string {
  return `${new URL(c.req.url).origin}/api/v1/export/${encodeURIComponent(jobId)}/files/${n}`;
}

function downloadPaths(json: unknown): string[] | null {
  const paths = (json as { download_paths?: unknown } | null)?.download_paths;
  return Array.isArray(paths) && paths.every((p) => typeof p === "string") ? paths : null;
}

// Query and export jobs, owned by the tenant that started them: status, results and files of
// another tenant's job are 404. Export `download_paths` point at the edge, where only the
// owner can fetch them; the edge fetches the upstream's file with the job's upstream account.

export const queryStartRoute = defineRoute({
  method: "POST",
  path: "/api/v1/query",
  operation: "query_start",
  api: "v1",
  price: jobStartPrice,
  summary: "Start a query job",
  body: component("QueryJobStartBody", queryJobStartBodySchema),
  ok: component("QueryJob", queryJobSchema),
  handler: (c) => (onPlatform(c) ? platformQueryStart(c) : startJob(c, "query")),
});

export const queryStatusRoute = defineRoute({
  method: "GET",
  path: "/api/v1/query/:job_id",
  operation: "query_status",
  api: "v1",
  price: jobReadPrice,
  summary: "Status of a query job (its owner only)",
  ok: component("QueryJob", queryJobSchema),
  handler: async (c) =>
    onPlatform(c) ? platformQueryStatus(c) : relayedResponse(await readOwnedJob(c, "query")),
});

export const queryResultsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/query/:job_id/:page",
  operation: "query_results",
  api: "v1",
  price: jobReadPrice,
  summary: "A page of a query job's results (its owner only)",
  ok: component("QueryResultsPage", queryResultsPageSchema),
  handler: async (c) =>
    onPlatform(c) ? platformQueryResults(c) : relayedResponse(await readOwnedJob(c, "query")),
});

export const exportStartRoute = defineRoute({
  method: "POST",
  path: "/api/v1/export",
  operation: "export_start",
  api: "v1",
  price: jobStartPrice,
  summary: "Start an export job",
  body: component("ExportStartBody", exportStartBodySchema),
  ok: component("ExportJob", exportJobSchema),
  handler: (c) => (onPlatform(c) ? platformExportStart(c) : startJob(c, "export")),
});

export const exportStatusRoute = defineRoute({
  method: "GET",
  path: "/api/v1/export/:job_id",
  operation: "export_status",
  api: "v1",
  price: jobReadPrice,
  summary: "Status of an export job; download_paths point at the edge (its owner only)",
  ok: component("ExportJob", exportJobSchema),
  handler: async (c) => {
    if (onPlatform(c)) return platformExportStatus(c);
    const relayed = await readOwnedJob(c, "export");
    const paths = downloadPaths(relayed.json);
    if (!isSuccess(relayed.status) || paths === null) return relayedResponse(relayed);
    const jobId = c.req.param("job_id") ?? "";
    const rewritten = {
      ...(relayed.json as object),
      download_paths: paths.map((_, i) => edgeFileUrl(c, jobId, i + 1)),
    };
    return c.json(rewritten, 200);
  },
});

export const exportDownloadRoute = defineRoute({
  method: "GET",
  path: "/api/v1/export/:job_id/files/:file{[0-9]+}",
  operation: "export_download",
  api: "v1",
  price: jobReadPrice,
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
});
