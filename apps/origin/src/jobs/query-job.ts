import type { QueryResultRow } from "@scangate/core";
import type { Env } from "../env";
import type { ResultStore } from "../storage/result-store";
import type { JobLimits } from "./config";
import { replanJobSql, runJobSql } from "./job-sql";
import { cellText } from "@scangate/sql/export";
import type { JobRow, QueryOutcome } from "./store";

/**
 * Query job results: the rows cut into pages of `pageSize` and stored in
 * R2 as `query-results/<job_id>/<page>.json` (one-indexed, `{"rows":[{"f":[{"v":...}]}]}`).
 */

export function resultPageKey(jobId: string, page: number): string {
  return `query-results/${jobId}/${page}.json`;
}

export function resultPrefix(jobId: string): string {
  return `query-results/${jobId}/`;
}

export async function readResultPage(
  results: ResultStore,
  jobId: string,
  page: number,
): Promise<QueryResultRow[] | null> {
  const object = await results.get(resultPageKey(jobId, page));
  if (!object) return null;
  return (await object.json<{ rows: QueryResultRow[] }>()).rows;
}

const encoder = new TextEncoder();

async function writePage(
  bucket: R2Bucket,
  jobId: string,
  page: number,
  rows: QueryResultRow[],
): Promise<void> {
  await bucket.put(resultPageKey(jobId, page), JSON.stringify({ rows }), {
    httpMetadata: { contentType: "application/json" },
  });
}

/**
 * Runs the job's SQL and stores its rows as pages. `statistics.data_processed` is the size in
 * bytes (UTF-8) of the result's values.
 */
export async function runQueryJob(
  env: Env,
  job: JobRow,
  limits: JobLimits,
  heartbeat?: () => Promise<void>,
): Promise<QueryOutcome> {
  const started = Date.now();
  const plan = await replanJobSql(env.SNAPSHOTS, job.query);
  const columns = plan.columns;
  let rows = 0;
  let pages = 0;
  let dataProcessed = 0;
  let pending: QueryResultRow[] = [];
  const flush = async (rowsOfPage: QueryResultRow[]) => {
    pages += 1;
    await writePage(env.EXPORTS, job.id, pages, rowsOfPage);
  };
  const batches = runJobSql(env.SNAPSHOTS, plan, {
    maxRows: limits.queryMaxRows,
    timeLimitMs: limits.queryTimeoutMs,
    heartbeat,
  });
  for await (const batch of batches) {
    for (const row of batch) {
      pending.push({
        f: row.map((value, i) => {
          const v = cellText(value, columns[i]);
          if (v !== null) dataProcessed += encoder.encode(v).byteLength;
          return { v };
        }),
      });
      rows += 1;
      if (pending.length === limits.pageSize) {
        await flush(pending);
        pending = [];
      }
    }
  }
  // An empty result still has its page 1 (with no rows), so clients can always read it.
  if (pending.length > 0 || pages === 0) await flush(pending);
  return {
    rows,
    pages,
    dataProcessed,
    schema: columns.map(({ name, type, mode }) => ({ name, type, mode })),
    backendTimeMs: Date.now() - started,
  };
}
