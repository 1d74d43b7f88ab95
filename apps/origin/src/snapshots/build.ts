import { SNAPSHOT_FIELDS, type SnapshotField, type SnapshotSeries, type WebsiteSource } from "./definitions";

/**
 * Builds the daily snapshot tables from the dataset as SQL text: `DROP TABLE IF EXISTS`,
 * `CREATE TABLE` and multi-row `INSERT`s per table. Pure (no database here), so the seed
 * script can write the statements to a file for `wrangler d1 execute`, and the worker and
 * tests can run them through a D1 binding (see publish.ts).
 *
 * Day D's tables hold the dataset as it was at the end of D (23:59:59.999 UTC): the host
 * versions valid then, the certificates added by then, and every website (websites have no
 * history, so each day lists their current record).
 */

export interface HostHistorySource {
  ip: string;
  /** Epoch ms, inclusive. */
  validFrom: number;
  /** Epoch ms, exclusive; null for the current version. */
  validTo: number | null;
  /** v2 host document JSON. */
  doc: string;
}

export interface CertificateSource {
  /** Epoch ms. */
  addedAt: number;
  /** v1 certificate document JSON. */
  doc: string;
}

export interface SnapshotSources {
  hostHistory: readonly HostHistorySource[];
  certificates: readonly CertificateSource[];
  websites: readonly WebsiteSource[];
}

/** D1 refuses statements over 100 kB; INSERTs are cut well below that. */
export const MAX_STATEMENT_BYTES = 90_000;

const DAY_MS = 86_400_000;

/** `YYYYMMDD` of an epoch-ms instant (UTC). */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10).replaceAll("-", "");
}

/** Epoch ms of the last millisecond of day `YYYYMMDD` (UTC). */
export function endOfDay(day: string): number {
  const start = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(4, 6)) - 1, Number(day.slice(6, 8)));
  return start + DAY_MS - 1;
}

/** Every day from the first host version's day to the newest one's, oldest first. */
export function historyDays(history: readonly HostHistorySource[]): string[] {
  if (history.length === 0) return [];
  let first = Infinity;
  let last = -Infinity;
  for (const row of history) {
    first = Math.min(first, row.validFrom);
    last = Math.max(last, row.validFrom);
  }
  const days: string[] = [];
  for (let day = Math.floor(first / DAY_MS) * DAY_MS; day <= last; day += DAY_MS) days.push(dayOf(day));
  return days;
}

// ---- values ----------------------------------------------------------------------------------

function toTimestamp(value: unknown): string | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** A scalar converted to the column's type, or null when it has none. */
function scalar(value: unknown, type: SnapshotField<unknown>["type"]): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  switch (type) {
    case "STRING":
      if (typeof value === "string") return value;
      if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
        return String(value);
      return JSON.stringify(value) ?? null;
    case "INTEGER": {
      const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      return typeof n === "number" && Number.isSafeInteger(n) ? n : null;
    }
    case "FLOAT":
      return typeof value === "number" && Number.isFinite(value) ? value : null;
    case "BOOLEAN":
      return typeof value === "boolean" ? value : null;
    case "TIMESTAMP":
      return toTimestamp(value);
  }
}

/** The stored value of a column: BOOLEAN as 0/1, REPEATED as a JSON array without nulls. */
export function columnValue(field: SnapshotField<unknown>, raw: unknown): string | number | null {
  if (field.mode === "REPEATED") {
    const items = Array.isArray(raw) ? raw : raw === null || raw === undefined ? [] : [raw];
    return JSON.stringify(items.map((item) => scalar(item, field.type)).filter((item) => item !== null));
  }
  const value = scalar(raw, field.type);
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

function sqlLiteral(value: string | number | null): string {
  if (value === null) return "NULL";
  if (typeof value === "number") return String(value);
  return `'${value.replaceAll("'", "''")}'`;
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

const SQL_TYPES = {
  STRING: "TEXT",
  INTEGER: "INTEGER",
  FLOAT: "REAL",
  BOOLEAN: "INTEGER",
  TIMESTAMP: "TEXT",
} as const;

// ---- statements ------------------------------------------------------------------------------

function createTable(table: string, fields: readonly SnapshotField<never>[]): string[] {
  const columns = fields.map((f) => {
    const type = f.mode === "REPEATED" ? "TEXT" : SQL_TYPES[f.type];
    return `${quoteIdentifier(f.name)} ${type}${f.mode === "REQUIRED" ? " NOT NULL" : ""}`;
  });
  return [
    `DROP TABLE IF EXISTS ${quoteIdentifier(table)}`,
    `CREATE TABLE ${quoteIdentifier(table)} (${columns.join(", ")})`,
  ];
}

function* inserts<S>(
  table: string,
  fields: readonly SnapshotField<S>[],
  sources: Iterable<S>,
): Generator<string> {
  const head = `INSERT INTO ${quoteIdentifier(table)} VALUES `;
  let tuples: string[] = [];
  let bytes = head.length;
  for (const source of sources) {
    const tuple = `(${fields.map((f) => sqlLiteral(columnValue(f as SnapshotField<unknown>, f.read(source)))).join(", ")})`;
    if (tuples.length > 0 && bytes + tuple.length + 1 > MAX_STATEMENT_BYTES) {
      yield head + tuples.join(",");
      tuples = [];
      bytes = head.length;
    }
    tuples.push(tuple);
    bytes += tuple.length + 1;
  }
  if (tuples.length > 0) yield head + tuples.join(",");
}

function* table<S>(series: SnapshotSeries, day: string, sources: Iterable<S>): Generator<string> {
  const fields = SNAPSHOT_FIELDS[series] as unknown as readonly SnapshotField<S>[];
  const name = `${series}.${day}`;
  yield* createTable(name, fields);
  yield* inserts(name, fields, sources);
}

function* parsedDocs(docs: Iterable<string>): Generator<Record<string, unknown>> {
  for (const doc of docs) yield JSON.parse(doc) as Record<string, unknown>;
}

/** The host document versions valid at `at`, in ip order. */
function hostsAt(history: readonly HostHistorySource[], at: number): string[] {
  return history
    .filter((row) => row.validFrom <= at && (row.validTo === null || row.validTo > at))
    .sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0))
    .map((row) => row.doc);
}

/**
 * Every statement that (re)creates the snapshot tables of `days` (default: every day of the
 * host history), table by table. A generator, so a large dataset streams to a file.
 */
export function* snapshotStatements(
  sources: SnapshotSources,
  days = historyDays(sources.hostHistory),
): Generator<string> {
  for (const day of days) {
    const at = endOfDay(day);
    yield* table("ipv4", day, parsedDocs(hostsAt(sources.hostHistory, at)));
    const certificates = sources.certificates.filter((c) => c.addedAt <= at).map((c) => c.doc);
    yield* table("certificates", day, parsedDocs(certificates));
    yield* table("websites", day, sources.websites);
  }
}
