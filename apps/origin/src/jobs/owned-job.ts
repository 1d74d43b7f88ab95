import { ApiError } from "@scangate/core";
import { describeSqlError, type SqlError } from "@scangate/sql";
import type { JobKind, JobRow, JobStore } from "./store";

/**
 * The job `id` of `kind` if the calling account started it. Unknown ids, the other kind's ids
 * and other accounts' jobs are all the same 404 `page not found`, so ids reveal nothing.
 */
export async function findOwnedJob(
  jobs: JobStore,
  id: string,
  kind: JobKind,
  owner: string,
): Promise<JobRow> {
  const job = await jobs.find(id);
  if (!job || job.kind !== kind || job.owner !== owner) throw new ApiError("not_found");
  return job;
}

/**
 * SQL the engine refused, as the spec's 400 `query could not be parsed`, with the reason and
 * where in `detail` (`Unrecognized name: nosuchcol at [1:8]`), and beside it the 0-based
 * `position` (as search errors give it) with the 1-based `line` and `column`.
 */
export function invalidQuery(error: SqlError): ApiError {
  return new ApiError("invalid_query", undefined, {
    detail: describeSqlError(error),
    ...(error.position
      ? { position: error.position.offset, line: error.position.line, column: error.position.column }
      : {}),
  });
}
