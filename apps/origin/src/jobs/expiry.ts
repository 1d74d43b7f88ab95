import { EXPORT_FILE_RETENTION_MS, QUERY_RESULTS_RETENTION_MS } from "@scangate/core";
import type { Env } from "../env";
import { exportPrefix } from "../exports/splitter";
import { deletePrefix, resultPrefix } from "./query-job";
import {
  deleteJob,
  jobsCompletedBefore,
  jobsPendingSince,
  markExpired,
  markFailed,
  type JobRow,
} from "./store";

/** A job still pending this long after it started will not finish (its messages ran out). */
export const STALLED_JOB_MS = 60 * 60 * 1000;

const SWEEP_BATCH = 100;

/** Whether a finished job's results or files are past their 24-hour retention at `now`. */
export function isPastRetention(job: JobRow, now: Date): boolean {
  if (job.completedAt === null) return false;
  const retention = job.kind === "query" ? QUERY_RESULTS_RETENTION_MS : EXPORT_FILE_RETENTION_MS;
  return now.getTime() >= job.completedAt + retention;
}

/** Expires one successful export: files deleted, status `expired`. */
export async function expireExport(env: Env, job: JobRow): Promise<void> {
  await deletePrefix(env.EXPORTS, exportPrefix(job.id));
  await markExpired(env.DB, job.id);
}

export interface ExpirySummary {
  queryJobsDeleted: number;
  exportsExpired: number;
  stalledJobsFailed: number;
}

/**
 * The scheduled sweep: query jobs past retention are deleted with their result pages (they
 * answer 404 from then on), successful exports past retention lose their files and become
 * `expired`, and jobs stuck in `pending` are ended as `error`.
 */
export async function expireJobs(env: Env, now: Date): Promise<ExpirySummary> {
  const summary: ExpirySummary = { queryJobsDeleted: 0, exportsExpired: 0, stalledJobsFailed: 0 };
  for (;;) {
    const due = await jobsCompletedBefore(
      env.DB,
      "query",
      ["success", "error"],
      now.getTime() - QUERY_RESULTS_RETENTION_MS,
      SWEEP_BATCH,
    );
    for (const job of due) {
      await deletePrefix(env.EXPORTS, resultPrefix(job.id));
      await deleteJob(env.DB, job.id);
      summary.queryJobsDeleted += 1;
    }
    if (due.length < SWEEP_BATCH) break;
  }
  for (;;) {
    const due = await jobsCompletedBefore(
      env.DB,
      "export",
      ["success"],
      now.getTime() - EXPORT_FILE_RETENTION_MS,
      SWEEP_BATCH,
    );
    for (const job of due) {
      await expireExport(env, job);
      summary.exportsExpired += 1;
    }
    if (due.length < SWEEP_BATCH) break;
  }
  const stalled = await jobsPendingSince(env.DB, now.getTime() - STALLED_JOB_MS, SWEEP_BATCH);
  for (const job of stalled) {
    if (await markFailed(env.DB, job.id, "the job did not finish; please retry", now))
      summary.stalledJobsFailed += 1;
  }
  return summary;
}
