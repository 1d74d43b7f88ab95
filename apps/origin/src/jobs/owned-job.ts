import { ApiError } from "@scangate/core";
import { findJob, type JobKind, type JobRow } from "./store";

/**
 * The job `id` of `kind` if the calling account started it. Unknown ids, the other kind's ids
 * and other accounts' jobs are all the same 404 `page not found`, so ids reveal nothing.
 */
export async function findOwnedJob(
  db: D1Database,
  id: string,
  kind: JobKind,
  owner: string,
): Promise<JobRow> {
  const job = await findJob(db, id);
  if (!job || job.kind !== kind || job.owner !== owner) throw new ApiError("not_found");
  return job;
}

/** The guard's refusal as the spec's 400 `query could not be parsed`, with the reason beside it. */
export function invalidQuery(reason: string): ApiError {
  return new ApiError("invalid_query", undefined, { detail: reason });
}
