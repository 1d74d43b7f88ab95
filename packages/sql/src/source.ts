/**
 * What the engine needs from the place the data lives: the tables and their schemas (a
 * `Catalog`) and their rows in batches (a `RowSource`). The origin implements both over its
 * SNAPSHOTS D1 database; tests implement them over arrays.
 */

export type FieldType = "STRING" | "INTEGER" | "FLOAT" | "BOOLEAN" | "TIMESTAMP";
export type FieldMode = "NULLABLE" | "REQUIRED" | "REPEATED";

/**
 * One field of a series, named by its full dot path (`location.country`, `services.port`).
 *
 * - A field without `record` is a top-level column. A row holds it under its full name; a
 *   REPEATED one as an array of values.
 * - A field with `record` (for example "services") belongs to a repeated record: a row holds
 *   the record under the record's name as an array of element objects, and the element holds
 *   the field under the rest of its name (`services.software.product` is element key
 *   `software.product`). Its `mode` is the mode inside one element: REPEATED there means each
 *   element holds an array.
 */
export interface FieldDef {
  name: string;
  type: FieldType;
  mode: FieldMode;
  record?: string;
  description?: string;
}

export interface SeriesSchema {
  /** `ipv4`, `certificates`, `websites`. */
  series: string;
  fields: readonly FieldDef[];
  /** Names of the repeated records (`services`). */
  records: readonly string[];
}

/** A table the catalog resolved: one series on one day. */
export interface ResolvedTable {
  /** The canonical name, `ipv4.20261031`. */
  name: string;
  series: string;
  /** `YYYYMMDD`. */
  day: string;
  schema: SeriesSchema;
}

export interface Catalog {
  /**
   * The table a query names, or null when there is none. Accepts `ipv4.20261031`, a series
   * alone (`ipv4`: its latest day) and `series.series` (`certificates.certificates`: likewise),
   * case-insensitively.
   */
  resolve(name: string): ResolvedTable | null;
}

/**
 * A row as the source gives it: top-level columns under their full names, repeated records
 * under the record name (see FieldDef). Values: STRING string, INTEGER and FLOAT number,
 * BOOLEAN boolean, TIMESTAMP ISO 8601 text in UTC; missing or null is null.
 */
export type SourceRow = Record<string, unknown>;

/**
 * A condition the source may apply to narrow a scan. It is only ever a hint: the engine still
 * evaluates the whole WHERE on every row it gets, so a source may ignore it. `column` is a
 * top-level, non-repeated field; `values` are compared for equality (SQL `=` / `IN`).
 */
export interface ScanHint {
  column: string;
  values: readonly (string | number | boolean)[];
}

export interface ScanRequest {
  table: ResolvedTable;
  /** The top-level columns and record names the query reads (a source may return more). */
  columns: readonly string[];
  hints: readonly ScanHint[];
  /** Where the previous batch ended (null for the first batch). */
  after: string | null;
  /** A size the engine would like; the source may return fewer (never more than 10×). */
  batchRows: number;
}

export interface ScanBatch {
  rows: SourceRow[];
  /** Pass as `after` for the next batch; null when the table has no more rows. */
  next: string | null;
}

export interface RowSource {
  scan(request: ScanRequest): Promise<ScanBatch>;
}
