// Query and export jobs through an edge whose upstream is the Platform API alone: the edge runs
// them over the origin's /v3 search. A run starts a job, polls its status to the end, reads every
// result page or downloads and decompresses every export file, and reads what the tenant was
// charged (its /api/v1/account `used` before and after). Pure arithmetic at the bottom.
import { gunzipSync } from "node:zlib";
import { sleep } from "./scenario";

export interface PlatformJobRun {
  readonly kind: "query" | "export";
  readonly end: "success" | "error" | "unfinished";
  /** From the start request to the last page read or file downloaded. */
  readonly elapsedMs: number;
  readonly rows: number;
  /** What the tenant's quota `used` moved by. */
  readonly credits: number;
  readonly errorMessage?: string;
}

interface Endpoint {
  readonly url: string;
  readonly authorization: string;
}

async function call(endpoint: Endpoint, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${endpoint.url}${path}`, {
    method,
    headers: {
      authorization: endpoint.authorization,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function json(res: Response, what: string): Promise<Record<string, unknown>> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function used(endpoint: Endpoint): Promise<number> {
  const account = await json(await call(endpoint, "GET", "/api/v1/account"), "account");
  return Number((account.quota as { used?: unknown } | undefined)?.used ?? Number.NaN);
}

/** Polls a job's status until it ends (or `giveUpMs` passes). */
async function finished(endpoint: Endpoint, path: string, pollMs: number, giveUpMs: number) {
  const deadline = performance.now() + giveUpMs;
  for (;;) {
    const status = await json(await call(endpoint, "GET", path), "job status");
    if (status.status !== "pending") return status;
    if (performance.now() > deadline) return { ...status, status: "unfinished" };
    await sleep(pollMs);
  }
}

/** Runs one job of `kind` with `sql` to its end, its rows read back. */
export async function runPlatformJob(
  endpoint: Endpoint,
  kind: "query" | "export",
  sql: string,
  pollMs: number,
  giveUpMs = 300_000,
): Promise<PlatformJobRun> {
  const before = await used(endpoint);
  const started = performance.now();
  const body = kind === "query" ? { query: sql } : { query: sql, format: "csv", compress: true };
  const job = await json(await call(endpoint, "POST", `/api/v1/${kind}`, body), `${kind} start`);
  const id = String(job.job_id);
  const status = await finished(endpoint, `/api/v1/${kind}/${id}`, pollMs, giveUpMs);
  let rows = 0;
  if (status.status === "success" && kind === "query") {
    for (let page = 1; ; page++) {
      const answer = await json(await call(endpoint, "GET", `/api/v1/query/${id}/${page}`), "results page");
      rows += (answer.rows as unknown[]).length;
      if (page >= Number((answer.statistics as { pages: number }).pages)) break;
    }
  }
  if (status.status === "success" && kind === "export") {
    for (const url of status.download_paths as string[]) {
      const res = await call(endpoint, "GET", new URL(url).pathname);
      if (!res.ok) throw new Error(`export file answered ${res.status}`);
      const text = gunzipSync(Buffer.from(await res.arrayBuffer())).toString("utf8");
      // CSV with its header line: one record per CRLF-ended line after it.
      rows += text.split("\r\n").filter((line) => line !== "").length - 1;
    }
  }
  const elapsedMs = performance.now() - started;
  const end = status.status === "success" || status.status === "error" ? status.status : "unfinished";
  return {
    kind,
    end,
    elapsedMs,
    rows,
    credits: (await used(endpoint)) - before,
    ...(typeof status.error_message === "string" ? { errorMessage: status.error_message } : {}),
  };
}

/** Rows per second over the successful runs (their rows over their wall time). */
export function rowsPerSecond(runs: readonly PlatformJobRun[]): number {
  const ok = runs.filter((r) => r.end === "success");
  const ms = ok.reduce((sum, r) => sum + r.elapsedMs, 0);
  return ms > 0 ? (ok.reduce((sum, r) => sum + r.rows, 0) * 1000) / ms : 0;
}

/** Credits charged per 1,000 rows over the successful runs. */
export function creditsPerThousandRows(runs: readonly PlatformJobRun[]): number {
  const ok = runs.filter((r) => r.end === "success");
  const rows = ok.reduce((sum, r) => sum + r.rows, 0);
  return rows > 0 ? (ok.reduce((sum, r) => sum + r.credits, 0) * 1000) / rows : 0;
}
