// SQL query jobs as a client sees them: start (`POST /api/v1/query`), poll the status
// (`GET /api/v1/query/:id`) at a fixed interval until it is `success` or `error`, and the wall
// time from the start request to the answer that said so (nothing subtracted: the queue's batch
// wait, the polling interval and the job's own slices all count). Also the probes the
// contention scenario sends on one connection each, and the pure arithmetic behind its figures.
import http from "node:http";
import { emptySample, type LoadSample, quantile } from "./load";
import { sleep } from "./scenario";

/** An origin and the Basic auth of an account on it (the bench's, or the local system's). */
export interface SqlEndpoint {
  readonly originUrl: string;
  readonly authorization: string;
}

/**
 * A query job's time limit when the origin's QUERY_TIMEOUT_MS is not set (neither the bench nor
 * wrangler.jsonc sets it): DEFAULT_JOB_LIMITS.queryTimeoutMs of apps/origin/src/jobs/config.ts
 * (not imported: that module's types need the Workers runtime's).
 */
export const JOB_LIMIT_MS = 30_000;
/** How much past its limit the fault suite lets a job end (apps/origin/test/sql-faults.test.ts). */
export const JOB_GRACE_MS = 5_000;

export type JobEnd = "success" | "error" | "refused" | "unfinished";

export interface JobRun {
  readonly query: string;
  /** The origin's job id (none when the start was refused). */
  readonly jobId?: string;
  readonly end: JobEnd;
  /** From sending the start request to the status answer that said success or error. */
  readonly elapsedMs: number;
  readonly polls: number;
  readonly errorMessage?: string;
  /** The start request's status when it was refused. */
  readonly startStatus?: number;
}

/** A failed fetch's reason: undici puts the socket's error (ECONNRESET, ...) in `cause`. */
export function fetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  return cause ? `${error.message} (${cause.code ?? cause.message ?? "no cause"})` : error.message;
}

async function json(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { raw: text.slice(0, 200) };
  }
}

/**
 * Runs one query job to its end. `pollMs`: the pause after each status answer before the next
 * status request. A job still pending after `giveUpMs` ends as `unfinished`.
 */
export async function runQueryJob(
  endpoint: SqlEndpoint,
  query: string,
  pollMs: number,
  giveUpMs: number,
): Promise<JobRun> {
  const headers = { authorization: endpoint.authorization, "content-type": "application/json" };
  const started = performance.now();
  const start = await fetch(`${endpoint.originUrl}/api/v1/query`, {
    method: "POST",
    headers,
    body: JSON.stringify({ query }),
  });
  const body = await json(start);
  const elapsed = () => performance.now() - started;
  if (!start.ok || typeof body.job_id !== "string") {
    return {
      query,
      end: "refused",
      elapsedMs: elapsed(),
      polls: 0,
      errorMessage: `${start.status}: ${JSON.stringify(body).slice(0, 300)}`,
      startStatus: start.status,
    };
  }
  const statusUrl = `${endpoint.originUrl}/api/v1/query/${body.job_id}`;
  let polls = 0;
  for (;;) {
    await sleep(pollMs);
    let res: Response;
    try {
      res = await fetch(statusUrl, { headers: { authorization: endpoint.authorization } });
    } catch (error) {
      // The origin did not answer at all (e.g. its runtime went away): the job's end is unknown.
      return {
        query,
        jobId: body.job_id,
        end: "unfinished",
        elapsedMs: elapsed(),
        polls,
        errorMessage: `the status request failed: ${fetchError(error)}`,
      };
    }
    const status = await json(res);
    polls += 1;
    if (status.status === "success" || status.status === "error") {
      const ms = elapsed();
      return {
        query,
        jobId: body.job_id,
        end: status.status,
        elapsedMs: ms,
        polls,
        ...(status.status === "error"
          ? {
              errorMessage:
                typeof status.error_message === "string"
                  ? status.error_message
                  : JSON.stringify(status.error_message ?? ""),
            }
          : {}),
      };
    }
    if (!res.ok || elapsed() > giveUpMs) {
      return {
        query,
        jobId: body.job_id,
        end: "unfinished",
        elapsedMs: elapsed(),
        polls,
        errorMessage: res.ok
          ? `still ${String(status.status)} after ${Math.round(elapsed())} ms`
          : `${res.status}`,
      };
    }
  }
}

/** Result rows of a successful job's first page (a check that the query did what it says). */
export async function firstPageRows(endpoint: SqlEndpoint, query: string): Promise<unknown[]> {
  const run = await fetch(`${endpoint.originUrl}/api/v1/query`, {
    method: "POST",
    headers: { authorization: endpoint.authorization, "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  const { job_id: id } = (await run.json()) as { job_id: string };
  for (let i = 0; i < 1200; i++) {
    await sleep(50);
    const page = await fetch(`${endpoint.originUrl}/api/v1/query/${id}/1`, {
      headers: { authorization: endpoint.authorization },
    });
    const body = (await page.json()) as { rows?: unknown[]; status?: string; error_message?: string };
    if (body.rows) return body.rows;
    if (body.status === "error") throw new Error(`the query failed: ${body.error_message ?? ""}`);
  }
  throw new Error("the query did not finish in 60 s");
}

/** Job runs as a load sample: one "request" per job, its wall time the latency; failed jobs are errors. */
export function jobSample(runs: readonly JobRun[], isFailure: (run: JobRun) => boolean): LoadSample {
  const sample = emptySample();
  for (const run of runs) {
    sample.requests += 1;
    sample.latenciesMs.push(run.elapsedMs);
    sample.elapsedMs += run.elapsedMs;
    const failed = isFailure(run);
    if (failed) sample.non2xx += 1;
    // The table counts statuses outside 2xx as failures: a failed job's end is not "2xx".
    const key = failed ? run.end : `200 ${run.end}`;
    sample.statuses[key] = (sample.statuses[key] ?? 0) + 1;
  }
  return sample;
}

/** Whether a worst-case job ended as the fault suite requires: success or error, within limit + grace. */
export function endedWithinLimit(run: JobRun, limitMs = JOB_LIMIT_MS, graceMs = JOB_GRACE_MS): boolean {
  return (run.end === "success" || run.end === "error") && run.elapsedMs < limitMs + graceMs;
}

/** What the origin must do with a worst-case query: run it to its end, or refuse it with a 400 before queueing it. */
export type WorstExpectation = "runs" | "refused";

/** Whether a worst-case job ended as expected: within limit + grace, or refused with a 400 at the start. */
export function endedAsExpected(run: JobRun, expected: WorstExpectation): boolean {
  return expected === "refused" ? run.end === "refused" && run.startStatus === 400 : endedWithinLimit(run);
}

export interface ProbeRun {
  readonly sample: LoadSample;
  /** Each failed probe: when (seconds into the loop) and what (status, or the socket error's code). */
  readonly failures: readonly string[];
}

/**
 * Sends GET `path` again and again, one at a time, on one keep-alive connection of its own for
 * as long as `running()` says so; each answer's latency and status are kept. A socket error
 * counts under its code (e.g. ECONNRESET) in the statuses.
 */
export async function probeLoop(
  endpoint: SqlEndpoint,
  path: string,
  running: () => boolean,
  timeoutMs = 30_000,
): Promise<ProbeRun> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(path, endpoint.originUrl);
  const sample = emptySample();
  const failures: string[] = [];
  const started = performance.now();
  try {
    while (running()) {
      const sent = performance.now();
      const answer = await new Promise<number | string>((resolve) => {
        const req = http.get(url, { agent, headers: { authorization: endpoint.authorization } }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
          res.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        });
        req.setTimeout(timeoutMs, () =>
          req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })),
        );
        req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      });
      sample.requests += 1;
      sample.latenciesMs.push(performance.now() - sent);
      const key = String(answer);
      sample.statuses[key] = (sample.statuses[key] ?? 0) + 1;
      if (typeof answer === "string") sample.socketErrors += 1;
      else if (answer < 200 || answer > 299) sample.non2xx += 1;
      if (typeof answer === "string" || answer < 200 || answer > 299)
        failures.push(
          `${key} at ${((sent - started) / 1000).toFixed(1)} s (after ${Math.round(performance.now() - sent)} ms)`,
        );
    }
  } finally {
    agent.destroy();
  }
  sample.elapsedMs = performance.now() - started;
  return { sample, failures };
}

export interface ProbeComparison {
  readonly idleP50Ms: number;
  readonly loadedP50Ms: number;
  /** loaded p50 / idle p50 (NaN when either side has no answers). */
  readonly ratio: number;
  /** Probes of both phases that got no 2xx answer. */
  readonly failed: number;
  readonly idleProbes: number;
  readonly loadedProbes: number;
}

/** A probe's idle and loaded samples side by side: p50s (nearest rank) and their ratio. */
export function compareProbes(idle: LoadSample, loaded: LoadSample): ProbeComparison {
  const p50 = (s: LoadSample) => quantile(Array.from(Float64Array.from(s.latenciesMs).sort()), 0.5);
  const idleP50Ms = p50(idle);
  const loadedP50Ms = p50(loaded);
  return {
    idleP50Ms,
    loadedP50Ms,
    ratio: idleP50Ms > 0 ? loadedP50Ms / idleP50Ms : Number.NaN,
    failed: idle.non2xx + idle.socketErrors + loaded.non2xx + loaded.socketErrors,
    idleProbes: idle.requests,
    loadedProbes: loaded.requests,
  };
}
