import type { JobMessage } from "./messages";

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
