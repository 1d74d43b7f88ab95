import { exportJobSchema, type ExportJob, type ExportStartBodyInput } from "@scangate/core";
import { JobFailedError } from "../errors";
import { waitForJob, type PollDeps, type WaitOptions } from "../job-polling";
import type { Transport } from "../transport";

type Signal = { signal?: AbortSignal };

/**
 * What to export. `delimiter` is accepted as the usual spelling of the spec's `delimeter`
 * request field (the spec spells it so; the job object says `delimiter`).
 */
export type ExportOptions = ExportStartBodyInput & { delimiter?: string };

export interface ExportRunResult {
  job: ExportJob;
  /** URLs of the files (each up to 128 MB); fetch them with `client.download`. */
  downloadPaths: string[];
}

/** Export jobs (`/api/v1/export`): SQL whose whole output is written to files. */
export function v1ExportJobs(transport: Transport, deps: PollDeps) {
  /** Starts an export. Never retried after a 5xx or network error: it might have started. */
  function start(options: ExportOptions & Signal): Promise<ExportJob> {
    const { signal, delimiter, ...body } = options;
    return transport.call({
      method: "POST",
      path: "/api/v1/export",
      body: { ...body, delimeter: body.delimeter ?? delimiter },
      schema: exportJobSchema,
      idempotent: false,
      signal,
    });
  }

  function status(jobId: string, options: Signal = {}): Promise<ExportJob> {
    return transport.call({
      method: "GET",
      path: `/api/v1/export/${encodeURIComponent(jobId)}`,
      schema: exportJobSchema,
      idempotent: true,
      signal: options.signal,
    });
  }

  /** Waits until the export succeeds; JobFailedError if it ends as `error` or `expired`. */
  async function wait(job: string | ExportJob, options: WaitOptions = {}): Promise<ExportJob> {
    const first = typeof job === "string" ? await status(job, options) : job;
    const done = await waitForJob(
      first,
      (signal) => status(first.job_id, signal ? { signal } : {}),
      options,
      deps,
    );
    if (done.status !== "success") {
      const reason =
        done.status === "expired" ? "its files expired" : (done.error_message ?? "no reason given");
      throw new JobFailedError(`export job ${done.job_id} ended as ${done.status}: ${reason}`, {
        status: 200,
        body: done,
        jobId: done.job_id,
        jobStatus: done.status,
      });
    }
    return done;
  }

  /** Starts an export, waits for it, and returns its download paths. */
  async function run(options: ExportOptions, wait_: WaitOptions = {}): Promise<ExportRunResult> {
    const signal = wait_.signal;
    const job = await wait(await start({ ...options, ...(signal ? { signal } : {}) }), wait_);
    return { job, downloadPaths: job.download_paths ?? [] };
  }

  return { start, status, wait, run };
}
