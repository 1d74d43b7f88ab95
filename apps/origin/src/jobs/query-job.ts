import type { QueryResultRow } from "@scangate/core";
import type { Env } from "../env";
import { columnDefinitions, readPublishedTables } from "../snapshots/catalog";
import type { JobLimits } from "./config";
import { cellText, ResultSchema } from "./result-values";
import { JobFailure, readResultChunks } from "./run-sql";
import { checkSnapshotQuery, type CheckedQuery } from "./sql-guard";
import type { JobRow, QueryOutcome } from "./store";

/**
 * Runs a query job: its SQL on SNAPSHOTS, the rows cut into pages of `pageSize` and stored in
 * R2 as `query-results/<job_id>/<page>.json` (one-indexed, `{"rows":[{"f":[{"v":...}]}]}`).
 */

export function resultPageKey(jobId: string, page: number): string {
  return `query-results/${jobId}/${page}.json`;
}

export function resultPrefix(jobId: string): string {
  return `query-results/${jobId}/`;
}

export async function readResultPage(
  bucket: R2Bucket,
  jobId: string,
  page: number,
): Promise<QueryResultRow[] | null> {
  const object = await bucket.get(resultPageKey(jobId, page));
  if (!object) return null;
  return (await object.json<{ rows: QueryResultRow[] }>()).rows;
}

/** Deletes every object under `prefix` (R2 lists at most 1000 keys per call). */
export async function deletePrefix(bucket: R2Bucket, prefix: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const listing = await bucket.list({ prefix, limit: 1000 });
    const keys = listing.objects.map((o) => o.key);
    if (keys.length > 0) await bucket.delete(keys);
    deleted += keys.length;
    if (!listing.truncated) return deleted;
  }
}

/**
 * The consumer checks the stored SQL again before running it: the tables it reads must still
 * be published, and a row written by anything but the route would still be guarded.
 */
export async function recheckJobSql(env: Env, job: JobRow): Promise<CheckedQuery> {
  const published = await readPublishedTables(env.SNAPSHOTS);
  const checked = checkSnapshotQuery(job.checkedSql, published.names);
  if (!checked.ok) throw new JobFailure(`query could not be parsed: ${checked.reason}`);
  return checked.query;
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

/** `statistics.data_processed` is the size in bytes (UTF-8) of the result's values. */
export async function runQueryJob(env: Env, job: JobRow, limits: JobLimits): Promise<QueryOutcome> {
  const started = Date.now();
  const query = await recheckJobSql(env, job);
  const definitions = columnDefinitions(query.tables);
  let schema: ResultSchema | undefined;
  let rows = 0;
  let pages = 0;
  let dataProcessed = 0;
  const chunks = readResultChunks(env.SNAPSHOTS, query.sql, {
    chunkRows: limits.pageSize * 5,
    maxRows: limits.queryMaxRows,
    deadline: started + limits.queryTimeoutMs,
  });
  for await (const chunk of chunks) {
    const current = (schema ??= new ResultSchema(chunk.columns, definitions));
    for (let start = 0; start < chunk.rows.length; start += limits.pageSize) {
      const pageRows = chunk.rows.slice(start, start + limits.pageSize).map((row) => {
        current.observe(row);
        return {
          f: row.map((value, i) => {
            const v = cellText(value, current.definitionOf(i));
            if (v !== null) dataProcessed += encoder.encode(v).byteLength;
            return { v };
          }),
        };
      });
      pages += 1;
      rows += pageRows.length;
      await writePage(env.EXPORTS, job.id, pages, pageRows);
    }
  }
  // An empty result still has its page 1 (with no rows), so clients can always read it.
  if (pages === 0) {
    pages = 1;
    await writePage(env.EXPORTS, job.id, 1, []);
  }
  return {
    rows,
    pages,
    dataProcessed,
    schema: schema?.fields() ?? [],
    backendTimeMs: Date.now() - started,
  };
}
