import { ApiError } from "@scangate/core";
import { describeSqlError, parseQuery } from "@scangate/sql";
import type { Hono } from "hono";
import type { AppEnv } from "../../app-env";
import type { JobKind } from "../../jobs/store";
import type { Operation } from "../../quota/costs";
import { relayFile } from "../../upstream/file";
import { isSuccess, relayedResponse } from "../../upstream/relay";
import { type ApiContext, beginOperation, chargedRelay, readRequestBody, upstreamPath } from "./exchange";

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

/** Start a job upstream and remember that this tenant owns it (and which upstream account ran it). */
async function startJob(c: ApiContext, kind: JobKind, operation: Operation): Promise<Response> {
  beginOperation(c, operation);
  const body = await readRequestBody(c);
  checkJobSql(body);
  const relayed = await chargedRelay(c, operation, { method: "POST", path: upstreamPath(c), body });
  const jobId = (relayed.json as { job_id?: unknown } | null)?.job_id;
  if (isSuccess(relayed.status) && typeof jobId === "string") {
    await c.get("services").jobs.record(kind, jobId, c.get("tenant").id, relayed.credentialId);
  }
  return relayedResponse(relayed);
}

/** The caller's job, or a 404 exactly like an unknown job's. */
async function ownedJob(c: ApiContext, kind: JobKind) {
  const job = await c.get("services").jobs.owned(kind, c.req.param("job_id") ?? "", c.get("tenant").id);
  if (!job) throw new ApiError("not_found");
  return job;
}

async function readOwnedJob(c: ApiContext, kind: JobKind, operation: Operation, path = upstreamPath(c)) {
  beginOperation(c, operation);
  const job = await ownedJob(c, kind);
  return chargedRelay(c, operation, { method: "GET", path, credentialId: job.upstreamCredential });
}

function edgeFileUrl(c: ApiContext, jobId: string, n: number): string {
  return `${new URL(c.req.url).origin}/api/v1/export/${encodeURIComponent(jobId)}/files/${n}`;
}

function downloadPaths(json: unknown): string[] | null {
  const paths = (json as { download_paths?: unknown } | null)?.download_paths;
  return Array.isArray(paths) && paths.every((p) => typeof p === "string") ? paths : null;
}

/**
 * Query and export jobs, owned by the tenant that started them: status, results and files of
 * another tenant's job are 404. Export `download_paths` point at the edge, where only the
 * owner can fetch them; the edge fetches the upstream's file with the job's upstream account.
 */
export function registerJobRoutes(app: Hono<AppEnv>): void {
  app.post("/api/v1/query", (c) => startJob(c, "query", "query_start"));
  app.get("/api/v1/query/:job_id", async (c) =>
    relayedResponse(await readOwnedJob(c, "query", "query_status")),
  );
  app.get("/api/v1/query/:job_id/:page", async (c) =>
    relayedResponse(await readOwnedJob(c, "query", "query_results")),
  );
  app.post("/api/v1/export", (c) => startJob(c, "export", "export_start"));

  app.get("/api/v1/export/:job_id", async (c) => {
    const relayed = await readOwnedJob(c, "export", "export_status");
    const paths = downloadPaths(relayed.json);
    if (!isSuccess(relayed.status) || paths === null) return relayedResponse(relayed);
    const jobId = c.req.param("job_id");
    const rewritten = {
      ...(relayed.json as object),
      download_paths: paths.map((_, i) => edgeFileUrl(c, jobId, i + 1)),
    };
    return c.json(rewritten, 200);
  });

  app.get("/api/v1/export/:job_id/files/:file{[0-9]+}", async (c) => {
    const jobId = c.req.param("job_id");
    const status = await readOwnedJob(
      c,
      "export",
      "export_download",
      `/v1/export/${encodeURIComponent(jobId)}`,
    );
    if (!isSuccess(status.status)) return relayedResponse(status);
    const url = downloadPaths(status.json)?.[Number(c.req.param("file")) - 1];
    if (!url) throw new ApiError("not_found");
    const services = c.get("services");
    c.get("usage").upstreamCalls += 1;
    return relayFile(services.config.upstreamTimeoutMs, (signal) =>
      services.upstream.download(url, status.credentialId, signal),
    );
  });
}
