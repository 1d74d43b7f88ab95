/**
 * Rows to SQL text: batched multi-row INSERTs, each statement kept under D1's statement size
 * limit (100 KB), so a dataset loads with `wrangler d1 execute --file` or statement by statement
 * through the D1 binding.
 */

export type SqlValue = string | number | null;
export type Row = Record<string, SqlValue>;

/** The tables the generator fills, in load order. */
export const DATASET_TABLES = [
  "certificates",
  "certificate_names",
  "certificate_tags",
  "certificates_fts",
  "hosts",
  "host_protocols",
  "host_services",
  "host_history",
  "hosts_fts",
  "websites",
  "website_protocols",
  "website_tags",
  "websites_fts",
  "http_bodies",
  "field_catalog",
  "field_values",
  "field_words",
  "dataset_meta",
] as const;
export type DatasetTable = (typeof DATASET_TABLES)[number];

export const MAX_STATEMENT_BYTES = 90_000;
/** D1 runs out of memory on a VALUES list of thousands of short rows (the leaf tables' rows). */
export const MAX_STATEMENT_ROWS = 1_000;

export function sqlLiteral(value: SqlValue): string {
  if (value === null) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`cannot write ${value} as SQL`);
    return String(value);
  }
  const quoted = `'${value.replace(/'/g, "''")}'`;
  // SQL text cannot hold a NUL (it ends the statement): a banner's NUL is spliced in with char(0).
  return value.includes("\u0000") ? `(${quoted.replaceAll("\u0000", "' || char(0) || '")})` : quoted;
}

/**
 * Accumulates rows per table and emits INSERT statements of at most MAX_STATEMENT_BYTES each.
 * Tables are buffered separately (a host's rows touch six tables); `flush` emits what is left
 * in DATASET_TABLES order, so `dataset_meta`, written last, marks a complete load.
 */
export class InsertBatcher {
  private readonly buffers = new Map<DatasetTable, { columns: string[]; values: string[]; size: number }>();

  /** `into` names the table the statements write (a loader's staging table), `table` by default. */
  constructor(
    private readonly emit: (statement: string) => void,
    private readonly into: (table: DatasetTable) => string = (table) => table,
  ) {}

  add(table: DatasetTable, row: Row): void {
    const columns = Object.keys(row);
    let buffer = this.buffers.get(table);
    if (buffer && buffer.columns.join(",") !== columns.join(",")) {
      this.flushTable(table);
      buffer = undefined;
    }
    if (!buffer) {
      buffer = { columns, values: [], size: 0 };
      this.buffers.set(table, buffer);
    }
    const tuple = `(${columns.map((c) => sqlLiteral(row[c] ?? null)).join(",")})`;
    if (
      buffer.values.length >= MAX_STATEMENT_ROWS ||
      (buffer.values.length > 0 && buffer.size + tuple.length + 1 > MAX_STATEMENT_BYTES)
    )
      this.flushTable(table);
    buffer.values.push(tuple);
    buffer.size += tuple.length + 1;
  }

  private flushTable(table: DatasetTable): void {
    const buffer = this.buffers.get(table);
    if (!buffer || buffer.values.length === 0) return;
    this.emit(
      `INSERT INTO ${this.into(table)} (${buffer.columns.join(",")}) VALUES ${buffer.values.join(",")};`,
    );
    buffer.values = [];
    buffer.size = 0;
  }

  flush(): void {
    for (const table of DATASET_TABLES) this.flushTable(table);
  }
}

/** Empties every dataset table (for a forced reseed), FTS tables included. */
export function clearDatasetStatements(): string[] {
  return [...DATASET_TABLES].reverse().map((table) => `DELETE FROM ${table};`);
}
