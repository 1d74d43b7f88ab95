/**
 * Why a query was refused, or why a running query stopped. Both are result values, never
 * exceptions thrown across the package boundary.
 *
 * `message` is what a user reads, in BigQuery's words where BigQuery had some
 * (`Unrecognized name: nosuchcol`, `Function not found: frobnicate`); `position`, when known, is
 * where in the text the problem is.
 */

export interface SqlPosition {
  /** 0-based offset into the query text. */
  offset: number;
  /** 1-based line and column, as BigQuery reports them (`[1:8]`). */
  line: number;
  column: number;
}

export interface SqlError {
  message: string;
  position: SqlPosition | null;
}

export type SqlResult<T> = { ok: true; value: T } | { ok: false; error: SqlError };

/** The position of `offset` in `text`. */
export function positionOf(text: string, offset: number): SqlPosition {
  const clamped = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < clamped; i++) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { offset: clamped, line, column: clamped - lineStart + 1 };
}

/** `message at [line:column]`, the text a client sees in `detail` or `error_message`. */
export function describeSqlError(error: SqlError): string {
  return error.position
    ? `${error.message} at [${error.position.line}:${error.position.column}]`
    : error.message;
}

/** Thrown inside the package to unwind to the entry point, which turns it into a result. */
export class SqlFailure extends Error {
  override readonly name = "SqlFailure";
  constructor(
    message: string,
    readonly offset: number | null = null,
  ) {
    super(message);
  }

  toError(text: string): SqlError {
    return { message: this.message, position: this.offset === null ? null : positionOf(text, this.offset) };
  }
}
