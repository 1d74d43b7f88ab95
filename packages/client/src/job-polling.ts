import { JobTimeoutError } from "./errors";

/** How a job helper waits. Delays grow by half each poll, from `pollIntervalMs` to the cap. */
export interface WaitOptions {
  signal?: AbortSignal;
  /** Called after every status poll (the CLI draws its progress line from it). */
  onProgress?: (progress: JobProgress) => void;
  /** First delay between polls; default 1 s. */
  pollIntervalMs?: number;
  /** Longest delay between polls; default 10 s. */
  maxPollIntervalMs?: number;
  /** Give up (JobTimeoutError) after this long; default 15 minutes. The job keeps running. */
  timeoutMs?: number;
}

export interface JobProgress {
  jobId: string;
  status: string;
  /** Status polls so far, the start call not counted. */
  polls: number;
  elapsedMs: number;
}

export const DEFAULT_POLL_INTERVAL_MS = 1_000;
export const DEFAULT_MAX_POLL_INTERVAL_MS = 10_000;
export const DEFAULT_JOB_TIMEOUT_MS = 15 * 60_000;

export function pollDelay(poll: number, initialMs: number, maxMs: number): number {
  return Math.min(maxMs, Math.round(initialMs * 1.5 ** poll));
}

export interface PollDeps {
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
}

/** Polls `fetchStatus` until the job leaves `pending`, and returns its last status body. */
export async function waitForJob<J extends { status: string; job_id: string }>(
  first: J,
  fetchStatus: (signal: AbortSignal | undefined) => Promise<J>,
  options: WaitOptions,
  deps: PollDeps,
): Promise<J> {
  const initial = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const max = Math.max(initial, options.maxPollIntervalMs ?? DEFAULT_MAX_POLL_INTERVAL_MS);
  const timeoutMs = options.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  const started = deps.now();
  let job = first;
  let polls = 0;
  options.onProgress?.({ jobId: job.job_id, status: job.status, polls, elapsedMs: 0 });
  while (job.status === "pending") {
    const elapsed = deps.now() - started;
    const delay = pollDelay(polls, initial, max);
    if (elapsed + delay > timeoutMs) {
      throw new JobTimeoutError(
        `job ${job.job_id} still pending after ${Math.round(elapsed / 1000)} s; it keeps running, poll its status later`,
        {
          status: 200,
          body: job,
          jobId: job.job_id,
        },
      );
    }
    await deps.sleep(delay, options.signal);
    job = await fetchStatus(options.signal);
    polls += 1;
    options.onProgress?.({ jobId: job.job_id, status: job.status, polls, elapsedMs: deps.now() - started });
  }
  return job;
}
