import { EXPORT_FILE_RETENTION_MS, QUERY_RESULTS_RETENTION_MS } from "@scangate/core";
import type { Env } from "../env";
import { exportPrefix } from "../exports/splitter";
import { r2ResultStore, type ResultStore } from "../storage/result-store";
import { resultPrefix } from "./query-job";
import { jobLimits, type JobLimits } from "./config";
import {
  deleteJob,
  failSilentJobs,
  failUnstartedJobs,
  HEARTBEAT_STALE_MS,
  d1JobStore,
  jobsCompletedBefore,
  type JobRow,
  type JobStore,
} from "./store";

/** Beyond the longest job, how long a queued job may wait to start before its message counts as lost. */
export const QUEUE_GRACE_MS = 5 * 60 * 1000;

/**
 * How long a job may wait in the queue before the sweep counts its message as lost (it ran out
 * of retries, or the local queue was lost with the process). A message can wait behind a whole
 * batch of running jobs (the local queue delivers the next batch when one ends), hence the
 * longest job's bound on top of the grace.
 */
export function queueStaleMs(limits: JobLimits): number {
  return Math.max(limits.queryTimeoutMs, limits.exportTimeoutMs) + QUEUE_GRACE_MS;
}

export const LOST_WHILE_RUNNING =
  "the job's work was lost (the service restarted while it ran); please retry";
export const LOST_IN_QUEUE = "the job's work was lost (its queue message was lost); please retry";

const SWEEP_BATCH = 100;

/** Whether a finished job's results or files are past their 24-hour retention at `now`. */
export function isPastRetention(job: JobRow, now: Date): boolean {
  if (job.completedAt === null) return false;
  const retention = job.kind === "query" ? QUERY_RESULTS_RETENTION_MS : EXPORT_FILE_RETENTION_MS;
  return now.getTime() >= job.completedAt + retention;
}

/** Expires one successful export: files deleted, status `expired`. */
export async function expireExport(results: ResultStore, jobs: JobStore, job: JobRow): Promise<void> {
  await results.deletePrefix(exportPrefix(job.id));
  await jobs.markExpired(job.id);
}

export interface ExpirySummary {
  queryJobsDeleted: number;
  exportsExpired: number;
  lostJobsFailed: number;
}

/**
 * The scheduled sweep: pending jobs whose work was lost (heartbeat stopped, or never started)
 * are ended as `error`, query jobs past retention are deleted with their result pages (they
 * answer 404 from then on), and successful exports past retention lose their files and become
 * `expired`. A consumer that finishes a job the sweep ended cannot overwrite that outcome
 * (markSucceeded is conditional on `pending`) and deletes what it stored.
 */
export async function expireJobs(env: Env, now: Date): Promise<ExpirySummary> {
  const summary: ExpirySummary = { queryJobsDeleted: 0, exportsExpired: 0, lostJobsFailed: 0 };
  const results = r2ResultStore(env.EXPORTS);
  const jobRecords = d1JobStore(env.DB);
  // First: a client is waiting on these, and the retention work below may be long or fail.
  const at = now.getTime();
  summary.lostJobsFailed += await failSilentJobs(env.DB, at - HEARTBEAT_STALE_MS, LOST_WHILE_RUNNING, now);
  summary.lostJobsFailed += await failUnstartedJobs(
    env.DB,
    at - queueStaleMs(jobLimits(env)),
    LOST_IN_QUEUE,
    now,
  );
  for (;;) {
    const due = await jobsCompletedBefore(
      env.DB,
      "query",
      ["success", "error"],
      now.getTime() - QUERY_RESULTS_RETENTION_MS,
      SWEEP_BATCH,
    );
    for (const job of due) {
      await results.deletePrefix(resultPrefix(job.id));
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
      await expireExport(results, jobRecords, job);
      summary.exportsExpired += 1;
    }
    if (due.length < SWEEP_BATCH) break;
  }
  return summary;
}
