/**
 * A compiled boolean SQL expression with its parameters (in the order of their `?`), and an
 * estimate of its expression-tree height: D1 refuses trees deeper than 100, so the compiler
 * keeps the estimate (which errs high) under MAX_SQL_HEIGHT.
 */
export type SqlParam = string | number | null;

export interface SqlFragment {
  sql: string;
  params: SqlParam[];
}

export interface Expr extends SqlFragment {
  height: number;
}

export const MAX_SQL_HEIGHT = 90;

export const MATCH_ALL: Expr = { sql: "1", params: [], height: 1 };
export const MATCH_NONE: Expr = { sql: "0", params: [], height: 1 };

export function expr(sql: string, params: SqlParam[], height: number): Expr {
  return { sql, params, height };
}

/**
 * AND/OR of several expressions. SQLite builds `a OR b OR c` as a left-deep tree, so long lists
 * are split in halves to keep the tree shallow.
 */
export function combine(operator: "AND" | "OR", parts: Expr[]): Expr {
  if (parts.length === 1 && parts[0]) return parts[0];
  if (parts.length <= 4) {
    const height = Math.max(...parts.map((part) => part.height)) + parts.length - 1;
    return expr(
      `(${parts.map((part) => part.sql).join(` ${operator} `)})`,
      parts.flatMap((part) => part.params),
      height,
    );
  }
  const middle = Math.ceil(parts.length / 2);
  return combine(operator, [
    combine(operator, parts.slice(0, middle)),
    combine(operator, parts.slice(middle)),
  ]);
}

/**
 * NOT that treats "unknown" as "no match": `NOT (col = ?)` is NULL, not true, for a NULL
 * column, but a document without the field does match `not field: x`.
 */
export function negate(inner: Expr): Expr {
  if (inner === MATCH_ALL) return MATCH_NONE;
  if (inner === MATCH_NONE) return MATCH_ALL;
  return expr(`(${inner.sql}) IS NOT TRUE`, inner.params, inner.height + 1);
}

/** `outer IN (SELECT key FROM table alias WHERE inner)`: uncorrelated, so indexes on the
 * inner table answer it once rather than once per outer row. */
export function inSubquery(outer: string, key: string, from: string, inner: Expr): Expr {
  const where = inner === MATCH_ALL ? "" : ` WHERE ${inner.sql}`;
  return expr(`${outer} IN (SELECT ${key} FROM ${from}${where})`, inner.params, inner.height + 2);
}
