import type { Env } from "../env";
import { runExportJob } from "../exports/export-job";
import { exportPrefix } from "../exports/splitter";
import { systemClock, type Clock } from "../services/clock";
import { jobLimits } from "./config";
import { expireJobs } from "./expiry";
import { jobMessageSchema } from "./messages";
import { deletePrefix, resultPrefix, runQueryJob } from "./query-job";
import { JobFailure } from "./run-sql";
import { findJob, markFailed, markSucceeded, type JobRow } from "./store";

/** Deliveries after which an unexpected failure ends the job instead of retrying it. */
export const MAX_JOB_ATTEMPTS = 3;

export interface JobHandlerDeps {
  clock?: Clock;
}

async function runJob(env: Env, job: JobRow, clock: Clock): Promise<void> {
  const limits = jobLimits(env);
  const started = Date.now();
  try {
    const outcome =
      job.kind === "query" ? await runQueryJob(env, job, limits) : await runExportJob(env, job, limits);
    const recorded = await markSucceeded(env.DB, job.id, outcome, clock.now());
    // Another delivery (or the stall sweep) ended the job first: its outcome stands.
    if (!recorded)
      await deletePrefix(env.EXPORTS, job.kind === "query" ? resultPrefix(job.id) : exportPrefix(job.id));
  } catch (error) {
    if (!(error instanceof JobFailure)) throw error;
    await markFailed(env.DB, job.id, error.message, clock.now(), Date.now() - started);
  }
}

/**
 * The worker's `queue` and `scheduled` handlers. The consumer runs each job named by a message
 * once: a message for a job that is missing or no longer pending is acknowledged and dropped.
 * A failure of the query itself ends the job as `error`; anything else (storage hiccups) is
 * retried, and ends the job as `error` after MAX_JOB_ATTEMPTS deliveries.
 */
export function createJobHandlers(deps: JobHandlerDeps = {}) {
  const clock = deps.clock ?? systemClock;
  return {
    queue: async (batch: MessageBatch<unknown>, env: Env): Promise<void> => {
      for (const message of batch.messages) {
        const parsed = jobMessageSchema.safeParse(message.body);
        if (!parsed.success) {
          console.error(`dropping malformed job message ${message.id}`);
          message.ack();
          continue;
        }
        const job = await findJob(env.DB, parsed.data.job_id);
        if (!job || job.status !== "pending") {
          message.ack();
          continue;
        }
        try {
          await runJob(env, job, clock);
          message.ack();
        } catch (error) {
          console.error(`job ${job.id} failed (attempt ${message.attempts}):`, error);
          if (message.attempts >= MAX_JOB_ATTEMPTS) {
            await markFailed(env.DB, job.id, "the job failed unexpectedly; please retry", clock.now());
            message.ack();
          } else {
            message.retry();
          }
        }
      }
    },

    scheduled: async (_controller: ScheduledController, env: Env): Promise<void> => {
      await expireJobs(env, clock.now());
    },
  };
}
