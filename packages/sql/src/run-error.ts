import { SQL_LIMITS } from "./limits";

/**
 * A failure while a query runs that the job's owner is told about: a bound was exceeded, the
 * time ran out, a value could not be cast, a division by zero. Planning failures are
 * `SqlFailure`s instead; they carry a position in the text.
 */
export class SqlRunError extends Error {
  override readonly name = "SqlRunError";
}

/** The error for an exceeded bound of `SQL_LIMITS`, naming the bound so the owner can narrow the query. */
export function limitExceeded(what: string, limit: number, bound: string): SqlRunError {
  return new SqlRunError(
    `the query needs more than ${limit} ${what} (SQL_LIMITS.${bound}); narrow the query`,
  );
}

/** Fails unless a string of `length` characters is within SQL_LIMITS.maxStringLength; checked before it is built. */
export function checkStringLength(length: number): void {
  if (length > SQL_LIMITS.maxStringLength) {
    throw limitExceeded("characters in one string", SQL_LIMITS.maxStringLength, "maxStringLength");
  }
}
