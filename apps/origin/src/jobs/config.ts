import { EXPORT_FILE_MAX_BYTES, QUERY_RESULTS_PAGE_SIZE } from "@scangate/core";
import type { Env } from "../env";

/**
 * Bounds of query and export jobs. Each may be overridden by a var of the same name (tests use
 * a tiny EXPORT_FILE_MAX_BYTES to prove the split); the defaults are the documented ones.
 */
export interface JobLimits {
  /** Rows a query job may return; a larger result fails the job and points at exports. */
  queryMaxRows: number;
  /**
   * Bytes (UTF-8) of the values a query job may return, as `data_processed` counts them; a
   * larger result fails the job and points at exports (legacy BigQuery's "Response too large").
   */
  queryMaxBytes: number;
  /**
   * Bytes (UTF-8) of the values of one result page (`pageSize` rows). A page is written, and
   * read back by clients, in one piece; BigQuery's own result pages stop at 10 MB.
   */
  queryPageMaxBytes: number;
  /** Rows an export job may write. */
  exportMaxRows: number;
  /** Wall time a query job may run. */
  queryTimeoutMs: number;
  /** Wall time an export job may run. */
  exportTimeoutMs: number;
  /** No export file is larger than this (after compression). */
  exportFileMaxBytes: number;
  /** Rows per result page (core's QUERY_RESULTS_PAGE_SIZE). */
  pageSize: number;
}

export const DEFAULT_JOB_LIMITS: JobLimits = {
  queryMaxRows: 100_000,
  queryMaxBytes: 32 * 1024 * 1024,
  queryPageMaxBytes: 4 * 1024 * 1024,
  exportMaxRows: 5_000_000,
  queryTimeoutMs: 30_000,
  exportTimeoutMs: 300_000,
  exportFileMaxBytes: EXPORT_FILE_MAX_BYTES,
  pageSize: QUERY_RESULTS_PAGE_SIZE,
};

function positive(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new Error(`expected a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

export function jobLimits(env: Env): JobLimits {
  return {
    queryMaxRows: positive(env.QUERY_MAX_ROWS, DEFAULT_JOB_LIMITS.queryMaxRows),
    queryMaxBytes: positive(env.QUERY_MAX_BYTES, DEFAULT_JOB_LIMITS.queryMaxBytes),
    queryPageMaxBytes: DEFAULT_JOB_LIMITS.queryPageMaxBytes,
    exportMaxRows: positive(env.EXPORT_MAX_ROWS, DEFAULT_JOB_LIMITS.exportMaxRows),
    queryTimeoutMs: positive(env.QUERY_TIMEOUT_MS, DEFAULT_JOB_LIMITS.queryTimeoutMs),
    exportTimeoutMs: positive(env.EXPORT_TIMEOUT_MS, DEFAULT_JOB_LIMITS.exportTimeoutMs),
    exportFileMaxBytes: positive(env.EXPORT_FILE_MAX_BYTES, DEFAULT_JOB_LIMITS.exportFileMaxBytes),
    pageSize: DEFAULT_JOB_LIMITS.pageSize,
  };
}
