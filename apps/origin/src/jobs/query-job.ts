import type { QueryResultRow } from "@scangate/core";
import type { Env } from "../env";
import { deletePrefix, type ResultStore } from "../storage/result-store";
import type { JobLimits } from "./config";
import { JobFailure, replanJobSql, runJobSql } from "./job-sql";
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
const NON_ASCII = /[\u0080-\uffff]/;

/** Bytes of `text` in UTF-8 (without encoding it when it is ASCII, as result text mostly is). */
function utf8Length(text: string): number {
  return NON_ASCII.test(text) ? encoder.encode(text).byteLength : text.length;
}

/**
 * A result page as it fills: each row is serialised as it arrives, between two slices of the
 * query's work, so a page of large rows is never serialised in one piece (which kept the
 * isolate from other requests for seconds).
 */
class PageBuffer {
  private chunks: Uint8Array[] = [];
  rows = 0;

  add(row: QueryResultRow): void {
    this.chunks.push(encoder.encode(`${this.rows === 0 ? "" : ","}${JSON.stringify(row)}`));
    this.rows += 1;
  }

  async write(bucket: R2Bucket, key: string): Promise<void> {
    const body = new Blob([encoder.encode('{"rows":['), ...this.chunks, encoder.encode("]}")]);
    this.chunks = [];
    this.rows = 0;
    await bucket.put(key, body, { httpMetadata: { contentType: "application/json" } });
  }
}

/** The failure of a result past `queryMaxBytes`, or of one page past `queryPageMaxBytes`. */
function resultTooLarge(limits: JobLimits, pageBytes: number): JobFailure {
  return new JobFailure(
    pageBytes > limits.queryPageMaxBytes
      ? `a result page (${limits.pageSize} rows) is larger than ${limits.queryPageMaxBytes} bytes; select fewer or shorter values, or use an export job`
      : `the result is larger than ${limits.queryMaxBytes} bytes; narrow the query or use an export job`,
  );
}

/**
 * Runs the job's SQL and stores its rows as pages. `statistics.data_processed` is the size in
 * bytes (UTF-8) of the result's values; a result past `limits.queryMaxBytes`, or a page past
 * `limits.queryPageMaxBytes`, fails the job as soon as it is. A job that fails keeps no pages.
 */
export async function runQueryJob(
  env: Env,
  job: JobRow,
  limits: JobLimits,
  heartbeat?: () => Promise<void>,
  signal?: AbortSignal,
): Promise<QueryOutcome> {
  const started = Date.now();
  const plan = await replanJobSql(env.SNAPSHOTS, job.query);
  const columns = plan.columns;
  let rows = 0;
  let pages = 0;
  let dataProcessed = 0;
  let pageBytes = 0;
  const pending = new PageBuffer();
  const flush = async () => {
    pages += 1;
    await pending.write(env.EXPORTS, resultPageKey(job.id, pages));
  };
  const batches = runJobSql(env.SNAPSHOTS, plan, {
    maxRows: limits.queryMaxRows,
    timeLimitMs: limits.queryTimeoutMs,
    heartbeat,
    signal,
  });
  try {
    for await (const batch of batches) {
      for (const row of batch) {
        let rowBytes = 0;
        const cells = row.map((value, i) => {
          const v = cellText(value, columns[i]);
          if (v !== null) rowBytes += utf8Length(v);
          return { v };
        });
        dataProcessed += rowBytes;
        pageBytes += rowBytes;
        if (dataProcessed > limits.queryMaxBytes || pageBytes > limits.queryPageMaxBytes)
          throw resultTooLarge(limits, pageBytes);
        pending.add({ f: cells });
        rows += 1;
        if (pending.rows === limits.pageSize) {
          await flush();
          pageBytes = 0;
        }
      }
    }
  } catch (error) {
    if (pages > 0) await deletePrefix(env.EXPORTS, resultPrefix(job.id));
    throw error;
  }
  // An empty result still has its page 1 (with no rows), so clients can always read it.
  if (pending.rows > 0 || pages === 0) await flush();
  return {
    rows,
    pages,
    dataProcessed,
    schema: columns.map(({ name, type, mode }) => ({ name, type, mode })),
    backendTimeMs: Date.now() - started,
  };
}
