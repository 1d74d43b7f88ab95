/**
 * A query the language cannot run: it does not parse, names an unknown field, or holds a value
 * the field's type cannot take. `position` is the 0-based character offset in the query text
 * where the problem is and `token` the text found there ("" at the end of the query); the
 * message repeats both so it can be shown as is (the v2 422 body carries all three).
 */
export class QueryError extends Error {
  override readonly name = "QueryError";

  constructor(
    message: string,
    readonly position: number,
    readonly token: string,
  ) {
    super(message);
  }
}

/**
 * Failing queries are expected input, so the public functions return a result value instead of
 * throwing (STYLE.md: exceptions are for the unexpected). Internally the parser and compiler
 * throw QueryError and the public entry points catch it in one place.
 */
export type QueryResult<T> = { ok: true; value: T } | { ok: false; error: QueryError };

export function catchQueryError<T>(run: () => T): QueryResult<T> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (error instanceof QueryError) return { ok: false, error };
    throw error;
  }
}

/** Quote a token for a message: `"abc"`, with long tokens shortened. */
export function quoteToken(token: string): string {
  const shown = token.length > 40 ? `${token.slice(0, 37)}...` : token;
  return JSON.stringify(shown);
}
