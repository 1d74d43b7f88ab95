import type { ResultColumn } from "../plan";

/**
 * How result values leave a job: as query-page cells (`rows[].f[].v`: a string or null) and as
 * JSON export values. The engine gives typed values (numbers, booleans, ISO timestamps, arrays
 * for REPEATED columns); a page cell is text, as BigQuery's pages were.
 */

/** The page cell of a value: numbers as decimal text, booleans "true"/"false", arrays as JSON. */
export function cellText(value: unknown, _column?: ResultColumn): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean")
    return String(value);
  return JSON.stringify(value);
}

/** The JSON export value: numbers stay numbers, booleans booleans, REPEATED columns arrays. */
export function jsonValue(value: unknown, _column?: ResultColumn): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") return Number(value);
  return value;
}
