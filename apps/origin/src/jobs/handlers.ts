import type { Env } from "../env";
import { runExportJob } from "../exports/export-job";
import { exportPrefix } from "../exports/splitter";
import { systemClock, type Clock } from "../services/clock";
import { jobLimits } from "./config";
import { expireJobs } from "./expiry";
import { jobMessageSchema } from "./messages";
import { deletePrefix } from "../storage/result-store";
import { resultPrefix, runQueryJob } from "./query-job";
import { JobFailure } from "./job-sql";
import {
  findJob,
  markFailed,
  markRetrying,
  markStarted,
  markSucceeded,
  touchJob,
  type JobRow,
} from "./store";

/** Deliveries after which an unexpected failure ends the job instead of retrying it. */
export const MAX_JOB_ATTEMPTS = 3;

/**
 * How long past its time limit the consumer waits for a job before it ends the job itself.
 * The engine stops at the limit on its own (within a slice of work); this bounds everything
 * else a job awaits (storage calls included), so the invocation that runs it always returns
 * and the queue delivers the next batch.
 */
export const JOB_GRACE_MS = 4_000;

export interface JobHandlerDeps {
  clock?: Clock;
}

async function runJobWork(env: Env, job: JobRow, clock: Clock, signal: AbortSignal): Promise<void> {
  const limits = jobLimits(env);
  const started = Date.now();
  // While it beats, the sweep knows the job is alive (see expiry.ts).
  const heartbeat = () => touchJob(env.DB, job.id, new Date(clock.now()));
  try {
    const outcome =
      job.kind === "query"
        ? await runQueryJob(env, job, limits, heartbeat, signal)
        : await runExportJob(env, job, limits, heartbeat, signal);
    const recorded = await markSucceeded(env.DB, job.id, outcome, new Date(clock.now()));
    // Another delivery (or the lost-job sweep) ended the job first: its outcome stands.
    if (!recorded)
      await deletePrefix(env.EXPORTS, job.kind === "query" ? resultPrefix(job.id) : exportPrefix(job.id));
  } catch (error) {
    if (!(error instanceof JobFailure)) throw error;
    await markFailed(env.DB, job.id, error.message, new Date(clock.now()), Date.now() - started);
  }
}

/**
 * Runs a job, and ends it as `error` if it has not ended JOB_GRACE_MS past its time limit
 * (its work is then told to stop at its next pause, and whatever it does later is discarded:
 * markSucceeded is conditional on `pending`).
 */
async function runJob(env: Env, job: JobRow, clock: Clock): Promise<void> {
  const limits = jobLimits(env);
  const limitMs = job.kind === "query" ? limits.queryTimeoutMs : limits.exportTimeoutMs;
  const stop = new AbortController();
  const work = runJobWork(env, job, clock, stop.signal);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), limitMs + JOB_GRACE_MS);
  });
  try {
    if ((await Promise.race([work, late])) !== "late") return;
  } finally {
    clearTimeout(timer);
  }
  stop.abort();
  work.catch((error: unknown) => console.error(`job ${job.id} stopped after its time limit:`, error));
  await markFailed(
    env.DB,
    job.id,
    `the job exceeded its ${limitMs / 1000} s time limit`,
    new Date(clock.now()),
    limitMs + JOB_GRACE_MS,
  );
}

/**
 * Runs the job one message names. A message for a job that is missing or no longer pending is
 * acknowledged and dropped. A failure of the query itself ends the job as `error`; anything else
 * (storage hiccups) hands the job back for a retry, and ends it as `error` after
 * MAX_JOB_ATTEMPTS deliveries.
 */
async function consume(message: Message<unknown>, env: Env, clock: Clock): Promise<void> {
  const parsed = jobMessageSchema.safeParse(message.body);
  if (!parsed.success) {
    console.error(`dropping malformed job message ${message.id}`);
    message.ack();
    return;
  }
  const job = await findJob(env.DB, parsed.data.job_id);
  // markStarted is the claim: the sweep may have ended the job since the read, or a duplicate
  // delivery may be running it right now (its cleanup after losing would delete the results).
  if (!job || job.status !== "pending" || !(await markStarted(env.DB, job.id, new Date(clock.now())))) {
    message.ack();
    return;
  }
  try {
    await runJob(env, job, clock);
    message.ack();
  } catch (error) {
    console.error(`job ${job.id} failed (attempt ${message.attempts}):`, error);
    if (message.attempts >= MAX_JOB_ATTEMPTS) {
      await markFailed(env.DB, job.id, "the job failed unexpectedly; please retry", new Date(clock.now()));
      message.ack();
    } else {
      await markRetrying(env.DB, job.id, new Date(clock.now()));
      message.retry();
    }
  }
}

/**
 * The worker's `queue` and `scheduled` handlers. The jobs of one batch run side by side: one
 * after another, the last of a batch of exports would wait long enough for the sweep to count
 * its message as lost (and together they would pass a consumer's wall-time limit).
 */
export function createJobHandlers(deps: JobHandlerDeps = {}) {
  const clock = deps.clock ?? systemClock;
  return {
    queue: async (batch: MessageBatch<unknown>, env: Env): Promise<void> => {
      const outcomes = await Promise.allSettled(
        batch.messages.map((message) => consume(message, env, clock)),
      );
      // Unexpected failures of the bookkeeping itself: the unacknowledged messages are retried.
      const failed = outcomes.find((outcome) => outcome.status === "rejected");
      if (failed) throw failed.reason;
    },

    scheduled: async (_controller: ScheduledController, env: Env): Promise<void> => {
      await expireJobs(env, new Date(clock.now()));
    },
  };
}
