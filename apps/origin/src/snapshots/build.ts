import {
  recordElements,
  valueAt,
  type Json,
  type SeriesDefinition,
  type SeriesSources,
  type SnapshotSeries,
  type WebsiteSource,
} from "./definitions";
import {
  createIndexStatements,
  createTableStatements,
  DAYS_TABLE,
  LAYOUT_TABLES,
  META_TABLE,
  quoteIdentifier,
  seriesStorage,
  SNAPSHOT_LAYOUT,
  sourceList,
  sourceValue,
} from "./layout";
import { SNAPSHOT_DEFINITIONS } from "./series";

/**
 * Builds the snapshot tables (see layout.ts) from the dataset as SQL text: DROP and CREATE, then
 * multi-row INSERTs of the row versions, the indexes, the published days and last the layout
 * marker. Pure (no database here), and generators, so a large dataset streams to D1 (see
 * publish.ts) statement by statement, its host history a page at a time.
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
  /**
   * The dataset's seed day (`YYYYMMDD`, its latest snapshot day: dataset/clock.ts), when known.
   * The history's last change is usually the day before; the days run through this one.
   */
  seedDay?: string;
}

export interface SnapshotBuildOptions {
  /** The days to publish, `YYYYMMDD` (default: every day of the host history). */
  days?: readonly string[];
  /** The dataset the tables are built from, recorded in `snapshot_meta`. */
  dataset?: string;
  /** Progress lines (for stderr on long runs). */
  onProgress?: (message: string) => void;
}

/** D1 refuses statements over 100 kB; INSERTs are cut well below that. */
export const MAX_STATEMENT_BYTES = 90_000;

const DAY_MS = 86_400_000;

/** `YYYYMMDD` of an epoch-ms instant (UTC). */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10).replaceAll("-", "");
}

/** Epoch ms of the first millisecond of day `YYYYMMDD` (UTC). */
export function startOfDay(day: string): number {
  return Date.UTC(Number(day.slice(0, 4)), Number(day.slice(4, 6)) - 1, Number(day.slice(6, 8)));
}

/** Epoch ms of the last millisecond of day `YYYYMMDD` (UTC). */
export function endOfDay(day: string): number {
  return startOfDay(day) + DAY_MS - 1;
}

/**
 * Every day from the first host version's day to the newest one's (or the seed day, when that
 * is later), oldest first.
 */
export function historyDays(
  history: readonly Pick<HostHistorySource, "validFrom">[],
  seedDay?: string,
): string[] {
  if (history.length === 0) return [];
  let first = Infinity;
  let last = seedDay === undefined ? -Infinity : startOfDay(seedDay);
  for (const row of history) {
    first = Math.min(first, row.validFrom);
    last = Math.max(last, row.validFrom);
  }
  const days: string[] = [];
  for (let day = Math.floor(first / DAY_MS) * DAY_MS; day <= last; day += DAY_MS) days.push(dayOf(day));
  return days;
}

// ---- rows ------------------------------------------------------------------------------------

interface RowVersion<S> {
  validFrom: number;
  validTo: number | null;
  source: S;
}

/** The stored values of one row, in the order of layout.ts's columns. */
function storedValues<S>(definition: SeriesDefinition<S>, source: S): (string | number | null)[] {
  const values: (string | number | null)[] = definition.fields.map((field) => {
    const raw = field.read(source);
    if (field.mode === "REPEATED") return JSON.stringify(sourceList(raw, field.type));
    const value = sourceValue(raw, field.type);
    return typeof value === "boolean" ? (value ? 1 : 0) : value;
  });
  for (const elements of recordElements(definition, source)) values.push(JSON.stringify(elements));
  return values;
}

function sqlLiteral(value: string | number | null): string {
  if (value === null) return "NULL";
  if (typeof value === "number") return String(value);
  return `'${value.replaceAll("'", "''")}'`;
}

/** UTF-8 bytes of a string, counted without encoding it (surrogate pairs counted high). */
function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) bytes += code < 0x800 ? 1 : 2;
  }
  return bytes;
}

/** Multi-row INSERTs, each under MAX_STATEMENT_BYTES, into one table. */
class InsertBuffer {
  private readonly head: string;
  private readonly headBytes: number;
  private tuples: string[] = [];
  private bytes = 0;

  constructor(table: string, columns: readonly string[]) {
    this.head = `INSERT INTO ${table} (${columns.map(quoteIdentifier).join(", ")}) VALUES `;
    this.headBytes = utf8Bytes(this.head);
  }

  /** Adds a row; returns the statement it completed, if any. */
  add(values: readonly (string | number | null)[]): string | null {
    const tuple = `(${values.map(sqlLiteral).join(", ")})`;
    const size = utf8Bytes(tuple) + 1;
    if (this.headBytes + size > MAX_STATEMENT_BYTES)
      throw new Error(
        `a row of ${size} bytes does not fit in one D1 statement (${this.head.slice(0, 40)}...)`,
      );
    const full =
      this.tuples.length > 0 && this.headBytes + this.bytes + size > MAX_STATEMENT_BYTES
        ? this.flush()
        : null;
    this.tuples.push(tuple);
    this.bytes += size;
    return full;
  }

  flush(): string | null {
    if (this.tuples.length === 0) return null;
    const statement = this.head + this.tuples.join(",");
    this.tuples = [];
    this.bytes = 0;
    return statement;
  }
}

/**
 * Multi-row INSERTs of `items` into the tables of `series`, their row ids counted on from
 * `rowIds` (shared by the calls that build one series in parts).
 */
function* inserts<K extends SnapshotSeries, T>(
  series: K,
  items: readonly T[],
  version: (item: T) => RowVersion<SeriesSources[K]>,
  rowIds = { last: 0 },
  onProgress?: (message: string) => void,
): Generator<string> {
  const definition: SeriesDefinition<SeriesSources[K]> = SNAPSHOT_DEFINITIONS[series];
  const { tables, columns } = seriesStorage(series);
  const buffers = tables.map(
    (table, part) =>
      new InsertBuffer(table, [
        ...(part === 0 ? ["row_id", "valid_from", "valid_to"] : ["row_id"]),
        ...columns.filter((c) => c.part === part).map((c) => c.name),
      ]),
  );
  const step = Math.max(1, Math.ceil(items.length / 10));
  for (const [i, item] of items.entries()) {
    const row = version(item);
    const values = storedValues(definition, row.source);
    const rowId = ++rowIds.last;
    for (const [part, buffer] of buffers.entries()) {
      const own = values.filter((_, j) => columns[j]?.part === part);
      const statement = buffer.add(
        part === 0 ? [rowId, row.validFrom, row.validTo, ...own] : [rowId, ...own],
      );
      if (statement !== null) yield statement;
    }
    const done = i + 1;
    if (done % step === 0 || done === items.length)
      onProgress?.(`${series} rows: ${done}/${items.length} (${Math.round((done / items.length) * 100)}%)`);
  }
  for (const buffer of buffers) {
    const statement = buffer.flush();
    if (statement !== null) yield statement;
  }
}

/** Orders row versions by their key, then by `valid_from`. */
function byKey<T>(key: (item: T) => string, from: (item: T) => number = () => 0): (a: T, b: T) => number {
  return (a, b) => {
    const [x, y] = [key(a), key(b)];
    return x < y ? -1 : x > y ? 1 : from(a) - from(b);
  };
}

/** `parsed.names` of every certificate of the dataset, by SHA-256 fingerprint. */
function certificateNamesOf(
  certificates: readonly { doc: Json }[],
): (sha256: string) => readonly string[] | undefined {
  const names = new Map<string, readonly string[]>();
  for (const { doc } of certificates) {
    const sha256 = valueAt(doc, "parsed.fingerprint_sha256");
    const list = valueAt(doc, "parsed.names");
    if (typeof sha256 === "string" && Array.isArray(list))
      names.set(
        sha256,
        list.filter((name) => typeof name === "string"),
      );
  }
  return (sha256) => names.get(sha256);
}

/**
 * One build of the snapshot tables, in three parts run in order: `opening` (DROP and CREATE),
 * `hostRows` once for each part of the host history, and `closing` (certificates, websites,
 * indexes, the published days, last the layout marker). The host history is given in parts
 * because a large dataset's does not fit in memory (1,000,000 hosts: about 10 GB of documents).
 */
export interface SnapshotBuild {
  opening(): Generator<string>;
  /**
   * The host versions of `hosts` that some published day shows. Parts come in (ip, valid_from)
   * order, each after the one before.
   */
  hostRows(hosts: readonly HostHistorySource[]): Generator<string>;
  closing(): Generator<string>;
}

/**
 * The build of the snapshot tables for `options.days` (default: every day of the host history,
 * `allDays`). Host versions are kept when some published day shows them, certificates from
 * their `added_at`, websites (no history) from the first history day.
 */
export function snapshotBuild(
  sources: Omit<SnapshotSources, "hostHistory">,
  allDays: readonly string[],
  options: SnapshotBuildOptions = {},
): SnapshotBuild {
  const days = [...new Set(options.days ?? allDays)].sort();
  const ends = days.map(endOfDay);
  const lastEnd = ends.at(-1) ?? -Infinity;
  const shown = (from: number, to: number | null) =>
    ends.some((at) => from <= at && (to === null || to > at));
  const parsed = sources.certificates.map((c) => ({ addedAt: c.addedAt, doc: JSON.parse(c.doc) as Json }));
  const certificateNames = certificateNamesOf(parsed);
  const hostRowIds = { last: 0 };
  return {
    *opening() {
      for (const table of LAYOUT_TABLES) yield `DROP TABLE IF EXISTS ${table}`;
      yield* createTableStatements();
    },
    *hostRows(hosts) {
      yield* inserts(
        "ipv4",
        hosts.filter((h) => shown(h.validFrom, h.validTo)),
        (h) => ({
          validFrom: h.validFrom,
          validTo: h.validTo,
          source: { doc: JSON.parse(h.doc) as Json, certificateNames },
        }),
        hostRowIds,
      );
    },
    *closing() {
      const certificates = parsed
        .filter((c) => c.addedAt <= lastEnd)
        .sort(
          byKey(
            (c) => String(valueAt(c.doc, "parsed.fingerprint_sha256")),
            (c) => c.addedAt,
          ),
        );
      yield* inserts(
        "certificates",
        certificates,
        (c) => ({ validFrom: c.addedAt, validTo: null, source: { doc: c.doc } }),
        undefined,
        options.onProgress,
      );
      const websitesFrom = startOfDay(allDays[0] ?? days[0] ?? "19700101");
      const websites = days.length === 0 ? [] : [...sources.websites].sort(byKey((w) => w.domain));
      yield* inserts(
        "websites",
        websites,
        (site) => ({
          validFrom: websitesFrom,
          validTo: null,
          source: { site, doc: JSON.parse(site.doc) as Json },
        }),
        undefined,
        options.onProgress,
      );
      yield* createIndexStatements();
      if (days.length > 0)
        yield `INSERT INTO ${DAYS_TABLE} (day) VALUES ${days.map((day) => `(${sqlLiteral(day)})`).join(", ")}`;
      yield `INSERT INTO ${META_TABLE} (key, value) VALUES ('layout', ${sqlLiteral(SNAPSHOT_LAYOUT)}), ('dataset', ${sqlLiteral(options.dataset ?? "")})`;
    },
  };
}

/** Every statement of a build from sources held whole (`snapshotBuild`). */
export function* snapshotStatements(
  sources: SnapshotSources,
  options: SnapshotBuildOptions = {},
): Generator<string> {
  const build = snapshotBuild(sources, historyDays(sources.hostHistory, sources.seedDay), options);
  yield* build.opening();
  yield* build.hostRows(
    [...sources.hostHistory].sort(
      byKey(
        (h) => h.ip,
        (h) => h.validFrom,
      ),
    ),
  );
  yield* build.closing();
}
