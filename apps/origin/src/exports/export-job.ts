import type { ExportFormat } from "@scangate/core";
import type { Env } from "../env";
import type { JobLimits } from "../jobs/config";
import { deletePrefix, recheckJobSql } from "../jobs/query-job";
import { ResultSchema } from "../jobs/result-values";
import { readResultChunks } from "../jobs/run-sql";
import type { JobRow, QueryOutcome } from "../jobs/store";
import { columnDefinitions } from "../snapshots/catalog";
import { createRowEncoder } from "./encoders";
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

/** Rows per database call of an export. */
const EXPORT_CHUNK_ROWS = 5000;

/** Runs an export job: its SQL on SNAPSHOTS, every row into files under `exports/<job_id>/`. */
export async function runExportJob(env: Env, job: JobRow, limits: JobLimits): Promise<QueryOutcome> {
  const started = Date.now();
  const options = JSON.parse(job.options ?? "{}") as ExportOptions;
  const query = await recheckJobSql(env, job);
  const definitions = columnDefinitions(query.tables);
  let schema: ResultSchema | undefined;
  let splitter: ExportFileSplitter | undefined;
  let rows = 0;
  try {
    const chunks = readResultChunks(env.SNAPSHOTS, query.sql, {
      chunkRows: EXPORT_CHUNK_ROWS,
      maxRows: limits.exportMaxRows,
      deadline: started + limits.exportTimeoutMs,
    });
    for await (const chunk of chunks) {
      const current = (schema ??= new ResultSchema(chunk.columns, definitions));
      const encoder = createRowEncoder(options, current.columns, (i) => current.definitionOf(i));
      splitter ??= new ExportFileSplitter({
        bucket: env.EXPORTS,
        jobId: job.id,
        extension: options.format,
        contentType: CONTENT_TYPES[options.format],
        compress: options.compress,
        maxBytes: limits.exportFileMaxBytes,
        header: encoder.header,
      });
      for (const row of chunk.rows) {
        current.observe(row);
        await splitter.writeRecord(encoder.encode(row));
        rows += 1;
      }
    }
    const files = splitter ? await splitter.finish() : [];
    return {
      rows,
      pages: files.length,
      dataProcessed: files.reduce((sum, file) => sum + file.size, 0),
      schema: schema?.fields() ?? [],
      backendTimeMs: Date.now() - started,
      files,
    };
  } catch (error) {
    // No partial export survives a failure.
    await splitter?.abort();
    await deletePrefix(env.EXPORTS, exportPrefix(job.id));
    throw error;
  }
}
