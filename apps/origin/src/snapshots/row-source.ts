import type { RowSource, ScanBatch, ScanHint, ScanRequest, SourceRow } from "@scangate/sql";
import { endOfDay } from "./build";
import { isSnapshotSeries, type SnapshotSeries } from "./definitions";
import { decodeStored, keyIndex, quoteIdentifier, seriesStorage, type StoredColumn } from "./layout";
import { SNAPSHOT_DEFINITIONS } from "./series";

/**
 * The engine's rows, read from the SNAPSHOTS database (layout.ts). Every `scan` is one bounded
 * statement, whatever the table's size:
 *
 * - by default a window of physical rows, `row_id > after AND row_id <= after + window`, with
 *   the day's validity filter and the hints as conditions; the cursor is the window's end;
 * - when a hint names the series' indexed key (`ip`, `parsed.fingerprint_sha256`, `domain`),
 *   the index instead: the matching versions after the cursor, in row order, a batch at a time.
 *
 * Values are always bound; column names only ever come from the schema.
 */

/** The most physical rows one window reads (the engine's batchRows below that is the window). */
export const MAX_WINDOW_ROWS = 2_000;

/** A hint with more values than this is left to the engine. */
const MAX_HINT_VALUES = 1_000;

const TABLE_DAY = /^\d{8}$/;

interface Columns {
  tables: string[];
  byName: Map<string, StoredColumn>;
}

const COLUMNS = new Map<SnapshotSeries, Columns>();

function columnsOf(series: SnapshotSeries): Columns {
  let columns = COLUMNS.get(series);
  if (!columns) {
    const storage = seriesStorage(series);
    columns = {
      tables: storage.tables,
      byName: new Map(storage.columns.map((c) => [c.name.toLowerCase(), c])),
    };
    COLUMNS.set(series, columns);
  }
  return columns;
}

/** A column as the scan's SQL names it: `r<part>."name"`. */
function qualified(column: StoredColumn): string {
  return `r${column.part}.${quoteIdentifier(column.name)}`;
}

/** D1 answers at most 100 columns (row_id is one) and takes at most 32 arguments per function. */
const MAX_RESULT_COLUMNS = 99;
const MAX_FUNCTION_ARGS = 32;

/** What a scan selects and how a result row turns back into a SourceRow. */
interface Projection {
  sql: string[];
  row(values: unknown[]): SourceRow;
}

/**
 * The select list of `columns` after row_id. Past D1's 100 result columns, the last columns go
 * as `json_array(...)` groups, one result column each: lossless for text and integers, so a
 * FLOAT is never packed (SQLite writes a real to JSON with 15 digits).
 */
function projection(columns: readonly StoredColumn[]): Projection {
  let packed: StoredColumn[] = [];
  if (columns.length > MAX_RESULT_COLUMNS) {
    const packable = columns.filter((c) => c.type !== "FLOAT" || c.kind === "json");
    let count = columns.length - MAX_RESULT_COLUMNS;
    while (columns.length - count + Math.ceil(count / MAX_FUNCTION_ARGS) > MAX_RESULT_COLUMNS) count += 1;
    if (packable.length < count) throw new Error(`too many FLOAT columns to read in one statement`);
    packed = packable.slice(-count);
  }
  const inPack = new Set(packed);
  const direct = columns.filter((c) => !inPack.has(c));
  const groups: StoredColumn[][] = [];
  for (let i = 0; i < packed.length; i += MAX_FUNCTION_ARGS)
    groups.push(packed.slice(i, i + MAX_FUNCTION_ARGS));
  return {
    sql: [
      ...direct.map(qualified),
      ...groups.map((group) => `json_array(${group.map(qualified).join(", ")})`),
    ],
    row(values) {
      const row: SourceRow = {};
      direct.forEach((column, i) => {
        row[column.name] = decodeStored(column.kind, values[i]);
      });
      groups.forEach((group, g) => {
        const list = JSON.parse(String(values[direct.length + g])) as unknown[];
        group.forEach((column, i) => {
          row[column.name] = decodeStored(column.kind, list[i]);
        });
      });
      return row;
    },
  };
}

/** The SQL value of a hint's value for the column, or undefined when SQL could not match it exactly. */
function hintValue(field: StoredColumn, value: string | number | boolean): string | number | undefined {
  switch (field.type) {
    case "STRING":
      return typeof value === "string" ? value : undefined;
    case "INTEGER":
      return typeof value === "number" && Number.isSafeInteger(value) ? value : undefined;
    case "FLOAT":
      return typeof value === "number" && Number.isFinite(value) ? value : undefined;
    case "BOOLEAN":
      return typeof value === "boolean" ? (value ? 1 : 0) : undefined;
    // Text comparison of ISO instants would miss equal instants spelt otherwise.
    case "TIMESTAMP":
      return undefined;
  }
}

interface Condition {
  column: StoredColumn;
  values: (string | number)[];
}

/**
 * The hints SQL can apply without changing which rows the engine keeps: top-level, non-repeated
 * fields whose values all have the field's type (a hint is only ever a hint).
 */
function usableHints(columns: Columns, hints: readonly ScanHint[]): Condition[] {
  const out: Condition[] = [];
  for (const hint of hints) {
    const column = columns.byName.get(hint.column.toLowerCase());
    if (!column || column.mode === "REPEATED") continue;
    if (hint.values.length === 0 || hint.values.length > MAX_HINT_VALUES) continue;
    const values = hint.values.map((v) => hintValue(column, v));
    if (values.some((v) => v === undefined)) continue;
    out.push({ column, values: values as (string | number)[] });
  }
  return out;
}

/** `col = ?` or, for several values, `col IN (SELECT value FROM json_each(?))`: one parameter. */
function conditionSql(condition: Condition): { sql: string; param: string | number } {
  const column = qualified(condition.column);
  if (condition.values.length === 1) return { sql: `${column} = ?`, param: condition.values[0]! };
  return { sql: `${column} IN (SELECT value FROM json_each(?))`, param: JSON.stringify(condition.values) };
}

function parseCursor(after: string | null): number {
  if (after === null) return 0;
  if (!/^\d{1,15}$/.test(after)) throw new Error(`not a snapshot scan cursor: ${after}`);
  return Number(after);
}

export function createSnapshotRowSource(db: D1Database): RowSource {
  /** The last row_id per table, read once per source (tables do not change under a scan). */
  const lastRows = new Map<string, Promise<number>>();
  const lastRow = (table: string) => {
    let last = lastRows.get(table);
    if (!last) {
      last = db
        .prepare(`SELECT max(row_id) AS last FROM ${table}`)
        .first<{ last: number | null }>()
        .then((row) => row?.last ?? 0);
      last.catch(() => lastRows.delete(table));
      lastRows.set(table, last);
    }
    return last;
  };

  return {
    async scan(request: ScanRequest): Promise<ScanBatch> {
      const { series, day } = request.table;
      if (!isSnapshotSeries(series) || !TABLE_DAY.test(day))
        throw new Error(`not a snapshot table: ${request.table.name}`);
      const columns = columnsOf(series);
      const selected = [
        ...new Set(request.columns.flatMap((name) => columns.byName.get(name.toLowerCase()) ?? [])),
      ];
      const after = parseCursor(request.after);
      const size = Math.min(MAX_WINDOW_ROWS, Math.max(1, Math.floor(request.batchRows)));
      const at = endOfDay(day);

      const conditions = usableHints(columns, request.hints);
      const key = SNAPSHOT_DEFINITIONS[series].key;
      const indexed = conditions.find((c) => c.column.name === key);
      const where = ["r0.valid_from <= ?", "(r0.valid_to IS NULL OR r0.valid_to > ?)"];
      const params: (string | number)[] = [at, at];
      for (const condition of conditions) {
        const { sql, param } = conditionSql(condition);
        where.push(sql);
        params.push(param);
      }
      // The series' later tables (past D1's 100 columns) only when the scan reads them.
      const parts = [...new Set([...selected, ...conditions.map((c) => c.column)].map((c) => c.part))]
        .filter((part) => part > 0)
        .sort((a, b) => a - b);
      const joins = parts.map(
        (part) => `LEFT JOIN ${columns.tables[part]} AS r${part} ON r${part}.row_id = r0.row_id`,
      );
      const project = projection(selected);
      const select = (access: string) =>
        `SELECT ${["r0.row_id", ...project.sql].join(", ")} FROM ${columns.tables[0]} AS r0 ${access} ${joins.join(" ")}`;

      let raw: unknown[][];
      let next: string | null;
      if (indexed) {
        // The key's index gives its versions: the cost is the hint's, not the table's.
        raw = await db
          .prepare(
            `${select(`INDEXED BY ${keyIndex(series)}`)} WHERE r0.row_id > ? AND ${where.join(" AND ")} ORDER BY r0.row_id LIMIT ?`,
          )
          .bind(after, ...params, size)
          .raw();
        next = raw.length === size ? String(raw.at(-1)?.[0]) : null;
      } else {
        const table = columns.tables[0]!;
        const last = await lastRow(table);
        if (after >= last) return { rows: [], next: null };
        const end = Math.min(after + size, last);
        raw = await db
          .prepare(
            `${select("NOT INDEXED")} WHERE r0.row_id > ? AND r0.row_id <= ? AND ${where.join(" AND ")} ORDER BY r0.row_id`,
          )
          .bind(after, end, ...params)
          .raw();
        next = end >= last ? null : String(end);
      }
      const rows = raw.map((values) => project.row(values.slice(1)));
      return { rows, next };
    },
  };
}
