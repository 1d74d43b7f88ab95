import type { ExportFormat } from "@scangate/core";
import type { Env } from "../env";
import type { JobLimits } from "../jobs/config";
import { replanJobSql, runJobSql } from "../jobs/job-sql";
import { deletePrefix } from "../storage/result-store";
import type { JobRow, QueryOutcome } from "../jobs/store";
import { createRowEncoder } from "@scangate/sql/export";
import { exportPrefix, ExportFileSplitter } from "./splitter";

/** Export options as stored with the job (the request's, defaults applied). */
export interface ExportOptions {
  format: ExportFormat;
  flatten: boolean;
  compress: boolean;
  headers: boolean;
  /** The delimiter used (`,` unless given). */
  delimiter: string;
  /** Whether the request gave `delimeter` (the job's configuration shows null when not). */
  delimiterGiven: boolean;
}

const CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8",
  json: "application/x-ndjson; charset=utf-8",
} as const;

/** Runs an export job: its SQL over the snapshots, every row into files under `exports/<job_id>/`. */
export async function runExportJob(
  env: Env,
  job: JobRow,
  limits: JobLimits,
  heartbeat?: () => Promise<void>,
  signal?: AbortSignal,
): Promise<QueryOutcome> {
  const started = Date.now();
  const options = JSON.parse(job.options ?? "{}") as ExportOptions;
  const plan = await replanJobSql(env.SNAPSHOTS, job.query);
  const encoder = createRowEncoder(options, plan.columns);
  const splitter = new ExportFileSplitter({
    bucket: env.EXPORTS,
    jobId: job.id,
    extension: options.format,
    contentType: CONTENT_TYPES[options.format],
    compress: options.compress,
    maxBytes: limits.exportFileMaxBytes,
    header: encoder.header,
  });
  let rows = 0;
  try {
    const batches = runJobSql(env.SNAPSHOTS, plan, {
      maxRows: limits.exportMaxRows,
      timeLimitMs: limits.exportTimeoutMs,
      heartbeat,
      signal,
    });
    for await (const batch of batches) {
      for (const row of batch) {
        await splitter.writeRecord(encoder.encode(row));
        rows += 1;
      }
    }
    const files = await splitter.finish();
    return {
      rows,
      pages: files.length,
      dataProcessed: files.reduce((sum, file) => sum + file.size, 0),
      schema: plan.columns.map(({ name, type, mode }) => ({ name, type, mode })),
      backendTimeMs: Date.now() - started,
      files,
    };
  } catch (error) {
    // No partial export survives a failure.
    await splitter.abort();
    await deletePrefix(env.EXPORTS, exportPrefix(job.id));
    throw error;
  }
}
