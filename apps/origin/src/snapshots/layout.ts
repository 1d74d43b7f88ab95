import type { FieldMode, FieldType } from "@scangate/sql";
import { SNAPSHOT_SERIES, type SnapshotSeries } from "./definitions";
import { SNAPSHOT_DEFINITIONS } from "./series";

/**
 * How the snapshot series are stored in the SNAPSHOTS database, which holds nothing else:
 *
 * - `<series>_rows` (`ipv4_rows`, `certificates_rows`, `websites_rows`): row *versions*, each
 *   valid from `valid_from` (epoch ms, inclusive) to `valid_to` (exclusive; null: still valid).
 *   Day D's table (`ipv4.20261031`) is the versions valid at the end of D:
 *   `valid_from <= endOfDay(D) AND (valid_to IS NULL OR valid_to > endOfDay(D))`. Rows are
 *   inserted in (key, valid_from) order with `row_id` (the rowid) 1, 2, ..., so row order is
 *   the natural order.
 * - One column per top-level field, named by its dot path: STRING and TIMESTAMP (ISO 8601, UTC)
 *   as TEXT, INTEGER, FLOAT as REAL, BOOLEAN as 0/1. A REPEATED field is a JSON array (nulls
 *   left out); a repeated record is one JSON column holding its element objects keyed by the
 *   element's field names (`{"port":22,"software.product":["OpenSSH"],...}`; null values left
 *   out, REPEATED ones always an array), which is the engine's SourceRow shape as it stands.
 *   D1 allows 100 columns per table: a series with more fields continues in `<series>_rows_2`
 *   (same row_id), which a scan joins only when it reads those columns.
 * - `snapshot_days`: the published days. `snapshot_meta`: the layout (`layout`) and the dataset
 *   (`dataset`) the tables were built for; written last, so a half-built database has none.
 */

/** Bump when what a field reads changes without changing the DDL (the DDL is hashed in). */
const LAYOUT_REVISION = 2;

export const DAYS_TABLE = "snapshot_days";
export const META_TABLE = "snapshot_meta";

export function rowsTable(series: SnapshotSeries): string {
  return `${series}_rows`;
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** How a stored value turns into a SourceRow value. */
export type StoredKind = "value" | "boolean" | "json";

export interface StoredColumn {
  /** The column name: the field's full name, or the record's name. */
  name: string;
  type: FieldType;
  mode: FieldMode;
  kind: StoredKind;
  /** A record's column (an array of element objects). */
  record: boolean;
  /** Which of the series' tables holds it (0: `<series>_rows`). */
  part: number;
}

const SQL_TYPES = {
  STRING: "TEXT",
  INTEGER: "INTEGER",
  FLOAT: "REAL",
  BOOLEAN: "INTEGER",
  TIMESTAMP: "TEXT",
} as const;

/** D1 allows 100 columns per table. */
const MAX_TABLE_COLUMNS = 100;
/** Part 0 also holds row_id, valid_from and valid_to; the others row_id. */
const PART_CAPACITY = [MAX_TABLE_COLUMNS - 3, MAX_TABLE_COLUMNS - 1];

/**
 * A series' physical tables: `<series>_rows` holds row_id, the validity and the first columns;
 * a series with more fields than D1's 100 columns per table continues in `<series>_rows_2`, ...,
 * which hold the same row_ids (one row each).
 */
export interface SeriesStorage {
  tables: string[];
  columns: StoredColumn[];
}

function storageOf(series: SnapshotSeries): SeriesStorage {
  const definition = SNAPSHOT_DEFINITIONS[series];
  const columns: Omit<StoredColumn, "part">[] = [
    ...definition.fields.map(({ name, type, mode }) => ({
      name,
      type,
      mode,
      kind:
        mode === "REPEATED"
          ? ("json" as const)
          : type === "BOOLEAN"
            ? ("boolean" as const)
            : ("value" as const),
      record: false,
    })),
    ...definition.records.map(({ name }) => ({
      name,
      type: "STRING" as const,
      mode: "REPEATED" as const,
      kind: "json" as const,
      record: true,
    })),
  ];
  const stored: StoredColumn[] = [];
  let part = 0;
  let used = 0;
  for (const column of columns) {
    if (used === (PART_CAPACITY[part] ?? PART_CAPACITY[1]!)) {
      part += 1;
      used = 0;
    }
    stored.push({ ...column, part });
    used += 1;
  }
  const key = stored.find((c) => c.name === definition.key);
  if (key?.part !== 0) throw new Error(`the key of ${series} must be among its first columns`);
  const tables = Array.from({ length: part + 1 }, (_, i) => partTable(series, i));
  return { tables, columns: stored };
}

function partTable(series: SnapshotSeries, part: number): string {
  return part === 0 ? rowsTable(series) : `${rowsTable(series)}_${part + 1}`;
}

const STORAGE: Record<SnapshotSeries, SeriesStorage> = {
  ipv4: storageOf("ipv4"),
  certificates: storageOf("certificates"),
  websites: storageOf("websites"),
};

export function seriesStorage(series: SnapshotSeries): SeriesStorage {
  return STORAGE[series];
}

function columnDdl(column: StoredColumn): string {
  if (column.kind === "json") return `${quoteIdentifier(column.name)} TEXT NOT NULL`;
  const notNull = column.mode === "REQUIRED" ? " NOT NULL" : "";
  return `${quoteIdentifier(column.name)} ${SQL_TYPES[column.type]}${notNull}`;
}

/** CREATE TABLE statements of the whole layout. */
export function createTableStatements(): string[] {
  return [
    `CREATE TABLE ${META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE ${DAYS_TABLE} (day TEXT PRIMARY KEY)`,
    ...SNAPSHOT_SERIES.flatMap((series) => {
      const { tables, columns } = STORAGE[series];
      return tables.map((table, part) => {
        const own = columns.filter((c) => c.part === part).map(columnDdl);
        const head =
          part === 0
            ? ["row_id INTEGER PRIMARY KEY", "valid_from INTEGER NOT NULL", "valid_to INTEGER"]
            : ["row_id INTEGER PRIMARY KEY"];
        return `CREATE TABLE ${table} (${[...head, ...own].join(", ")})`;
      });
    }),
  ];
}

/** The index on a series' key. */
export function keyIndex(series: SnapshotSeries): string {
  return `${rowsTable(series)}_key`;
}

/** The index on each series' key (created after the rows are in). */
export function createIndexStatements(): string[] {
  return SNAPSHOT_SERIES.map(
    (series) =>
      `CREATE INDEX ${keyIndex(series)} ON ${rowsTable(series)} (${quoteIdentifier(SNAPSHOT_DEFINITIONS[series].key)})`,
  );
}

/** Every table of the layout, dropped before a build. */
export const LAYOUT_TABLES = [
  META_TABLE,
  DAYS_TABLE,
  ...SNAPSHOT_SERIES.flatMap((series) => STORAGE[series].tables),
];

/** FNV-1a, enough to tell one DDL from another. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

/**
 * What `snapshot_meta.layout` holds when the tables match this code: the revision and a hash of
 * the DDL, so any change of the fields makes the seed rebuild and the catalog ignore old tables.
 */
export const SNAPSHOT_LAYOUT = `rows-${LAYOUT_REVISION}:${hash(
  [...createTableStatements(), ...createIndexStatements()].join(";"),
)}`;

// ---- values --------------------------------------------------------------------------------

/** The value rules of a row (`@scangate/sql/series`), which the stored columns keep. */
export { sourceList, sourceValue } from "./definitions";

/** A stored value back in SourceRow form. */
export function decodeStored(kind: StoredKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case "value":
      return value;
    case "boolean":
      return value !== 0;
    case "json":
      return typeof value === "string" ? (JSON.parse(value) as unknown) : null;
  }
}
