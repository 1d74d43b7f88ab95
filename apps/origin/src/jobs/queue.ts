import { ApiError } from "@scangate/core";
import type { JobMessage } from "./messages";
import type { JobStore } from "./store";

/** Where started jobs wait for the consumer: the JOBS queue in the worker, a fake in tests. */
export interface JobQueue {
  /** Hands job `jobId` to the consumer; rejects when the job could not be queued. */
  enqueue(jobId: string): Promise<void>;
}

/** The JOBS queue producer (this worker is its consumer too, see jobs/handlers.ts). */
export function workersJobQueue(queue: Queue<JobMessage>): JobQueue {
  return {
    async enqueue(jobId) {
      await queue.send({ job_id: jobId });
    },
  };
}

const NOT_QUEUED = "the job could not be queued; please retry";

/**
 * Hands a stored job to the queue. A queue that refuses it ends the job at once (nothing is
 * left pending for the sweep) and the request is a 503: the client may retry, nothing it sent
 * was wrong.
 */
export async function enqueueStoredJob(
  services: { jobQueue: JobQueue; jobs: JobStore; clock: { now(): number } },
  jobId: string,
): Promise<void> {
  try {
    await services.jobQueue.enqueue(jobId);
  } catch (error) {
    await services.jobs.markFailed(jobId, NOT_QUEUED, new Date(services.clock.now()));
    throw new ApiError("unavailable", NOT_QUEUED, undefined, { cause: error });
  }
}
