import { summaryDay } from "../dataset/clock";
import { historyDays, type HostHistorySource, snapshotBuild, type SnapshotSources } from "./build";
import type { WebsiteSource } from "./definitions";
import { DAYS_TABLE, META_TABLE } from "./layout";

/**
 * Publishing: reads what the snapshot tables are built from out of the main database and
 * (re)builds them in the SNAPSHOTS database. Works on the part of a D1 binding used here, so
 * the seed script can pass Miniflare's D1 in Node and the worker and tests their binding.
 */

type Readable = { all<T = Record<string, unknown>>(): Promise<{ results: T[] }> };

export interface SqlDatabase<S> {
  prepare(sql: string): S;
  batch(statements: S[]): Promise<unknown>;
}

/** Rows per read of the main database (measured: Miniflare hands large answers over slowly). */
const READ_PAGE_ROWS = 500;

function sqlValue(value: unknown): string {
  return typeof value === "number" ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
}

/**
 * The rows of `select` (no WHERE of its own) in order of `key` (columns that are unique
 * together), a page of `pageRows` at a time: each page is read from where the last one ended,
 * so reading them all takes time in proportion to the rows (pages by OFFSET walk every row
 * before theirs again, which at 1,000,000 hosts meant thousands of times the history).
 */
async function* pagesOf<S extends Readable>(
  db: SqlDatabase<S>,
  select: string,
  key: readonly string[],
  pageRows: number,
): AsyncGenerator<Record<string, unknown>[]> {
  const order = key.join(", ");
  let after = "";
  for (;;) {
    const page = await db
      .prepare(`${select} ${after} ORDER BY ${order} LIMIT ${pageRows}`)
      .all<Record<string, unknown>>();
    if (page.results.length > 0) yield page.results;
    const last = page.results.at(-1);
    if (!last || page.results.length < pageRows) return;
    after = `WHERE (${order}) > (${key.map((column) => sqlValue(last[column])).join(", ")})`;
  }
}

async function readAll<S extends Readable>(
  db: SqlDatabase<S>,
  select: string,
  key: readonly string[],
  pageRows: number,
): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for await (const page of pagesOf(db, select, key, pageRows)) for (const row of page) rows.push(row);
  return rows;
}

/** The host history in (ip, valid_from) order, a page at a time. */
async function* hostHistoryPages<S extends Readable>(
  db: SqlDatabase<S>,
  pageRows: number,
): AsyncGenerator<HostHistorySource[]> {
  const select = "SELECT ip, valid_from, valid_to, doc FROM host_history";
  for await (const page of pagesOf(db, select, ["ip", "valid_from"], pageRows))
    yield page.map((row) => ({
      ip: String(row.ip),
      validFrom: Number(row.valid_from),
      validTo: typeof row.valid_to === "number" ? row.valid_to : null,
      doc: String(row.doc),
    }));
}

/** What the snapshot tables are built from besides the host history: certificates, websites, the seed day. */
async function readOtherSources<S extends Readable>(
  db: SqlDatabase<S>,
  pageRows: number,
): Promise<Omit<SnapshotSources, "hostHistory">> {
  const certificates = await readAll(
    db,
    "SELECT sha256, added_at, doc FROM certificates",
    ["sha256"],
    pageRows,
  );
  const websites = await readAll(
    db,
    `SELECT domain, alexa_rank, ip, http_status_code, http_title, http_server, certificate, asn,
            country_code, updated_at, doc FROM websites`,
    ["domain"],
    pageRows,
  );
  const protocols = await readAll(
    db,
    "SELECT domain, protocol FROM website_protocols",
    ["domain", "protocol"],
    pageRows,
  );
  const tags = await readAll(db, "SELECT domain, tag FROM website_tags", ["domain", "tag"], pageRows);
  const summary = await db
    .prepare("SELECT value FROM dataset_meta WHERE key = 'summary'")
    .all<{ value: string }>();
  const seedDay = seedDayOf(summary.results[0]?.value);
  const grouped = (rows: Record<string, unknown>[], key: string): Map<string, string[]> => {
    const map = new Map<string, string[]>();
    for (const row of rows) {
      const domain = String(row.domain).toLowerCase();
      const list = map.get(domain);
      if (list) list.push(String(row[key]));
      else map.set(domain, [String(row[key])]);
    }
    return map;
  };
  const protocolsOf = grouped(protocols, "protocol");
  const tagsOf = grouped(tags, "tag");
  const num = (value: unknown): number | null => (typeof value === "number" ? value : null);
  const str = (value: unknown): string | null => (typeof value === "string" ? value : null);
  return {
    certificates: certificates.map((row) => ({ addedAt: Number(row.added_at), doc: String(row.doc) })),
    websites: websites.map(
      (row): WebsiteSource => ({
        domain: String(row.domain),
        alexaRank: num(row.alexa_rank),
        ip: str(row.ip),
        httpStatusCode: num(row.http_status_code),
        httpTitle: str(row.http_title),
        httpServer: str(row.http_server),
        certificate: str(row.certificate),
        asn: num(row.asn),
        countryCode: str(row.country_code),
        updatedAt: Number(row.updated_at),
        protocols: protocolsOf.get(String(row.domain).toLowerCase()) ?? [],
        tags: tagsOf.get(String(row.domain).toLowerCase()) ?? [],
        doc: String(row.doc),
      }),
    ),
    ...(seedDay ? { seedDay } : {}),
  };
}

/**
 * Reads what the snapshot tables are built from out of the main database, whole: the host
 * history, the certificates with their added time, and the websites with their protocols and
 * tags (page by page: at 100,000 hosts one answer holding the whole host history passes V8's
 * largest string where Miniflare hands D1 results to Node).
 */
export async function readSnapshotSources<S extends Readable>(
  db: SqlDatabase<S>,
  pageRows = READ_PAGE_ROWS,
): Promise<SnapshotSources> {
  const hostHistory: HostHistorySource[] = [];
  for await (const page of hostHistoryPages(db, pageRows)) hostHistory.push(...page);
  return { hostHistory, ...(await readOtherSources(db, pageRows)) };
}

/** The seed day of `dataset_meta.summary` as `YYYYMMDD`, if it records one. */
function seedDayOf(summary: string | undefined): string | undefined {
  return summaryDay(summary)?.replace(/-/g, "");
}

/** `dataset_meta.dataset` of the main database: which generated dataset it holds. */
export async function readDatasetFingerprint<S extends Readable>(db: SqlDatabase<S>): Promise<string | null> {
  const { results } = await db
    .prepare("SELECT value FROM dataset_meta WHERE key = 'dataset'")
    .all<{ value: string }>();
  return results[0]?.value ?? null;
}

/** What a SNAPSHOTS database holds now. */
export interface SnapshotState {
  /** `snapshot_meta.layout`: null when the tables are of an older layout, or half built. */
  layout: string | null;
  /** `snapshot_meta.dataset`. */
  dataset: string | null;
  /** The published days, oldest first. */
  days: string[];
  /** Every table, view and trigger (not SQLite's or D1's own), as `[type, name]`. */
  objects: [string, string][];
}

export async function readSnapshotState<S extends Readable>(db: SqlDatabase<S>): Promise<SnapshotState> {
  const { results } = await db
    .prepare(
      `SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger')
         AND substr(name, 1, 7) <> 'sqlite_' AND substr(name, 1, 4) <> '_cf_' ORDER BY name`,
    )
    .all<{ type: string; name: string }>();
  const objects = results.map(({ type, name }): [string, string] => [type, name]);
  const has = (table: string) => objects.some(([type, name]) => type === "table" && name === table);
  const meta = has(META_TABLE)
    ? (await db.prepare(`SELECT key, value FROM ${META_TABLE}`).all<{ key: string; value: string }>()).results
    : [];
  const days = has(DAYS_TABLE)
    ? (await db.prepare(`SELECT day FROM ${DAYS_TABLE} ORDER BY day`).all<{ day: string }>()).results
    : [];
  const metaValue = (key: string) => meta.find((row) => row.key === key)?.value ?? null;
  return {
    layout: metaValue("layout"),
    dataset: metaValue("dataset"),
    days: days.map((row) => row.day),
    objects,
  };
}

export interface PublishOptions {
  /** The days to publish, `YYYYMMDD` (default: every day of the host history). */
  days?: readonly string[];
  onProgress?: (message: string) => void;
  /** Rows per read of the main database (default READ_PAGE_ROWS). */
  pageRows?: number;
}

/**
 * (Re)builds the SNAPSHOTS database from the main database: drops everything in it first (the
 * tables of an older layout, such as the per-day `ipv4.YYYYMMDD` tables, included), then runs
 * the statements of build.ts, the host history read and built a page at a time (it does not
 * fit in memory at 1,000,000 hosts). Returns how many statements ran.
 */
export async function publishSnapshots<M extends Readable, S extends Readable>(
  mainDb: SqlDatabase<M>,
  snapshotsDb: SqlDatabase<S>,
  options: PublishOptions = {},
): Promise<number> {
  const pageRows = options.pageRows ?? READ_PAGE_ROWS;
  const others = await readOtherSources(mainDb, pageRows);
  const dataset = (await readDatasetFingerprint(mainDb)) ?? "";
  const { objects } = await readSnapshotState(snapshotsDb);
  const order = ["trigger", "view", "table"];
  const drops = objects
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([type, name]) => `DROP ${type.toUpperCase()} IF EXISTS "${name.replaceAll('"', '""')}"`);
  await executeStatements(snapshotsDb, drops);

  // The history's days run from its first version to its last (or the seed day).
  const span = await mainDb
    .prepare(
      "SELECT min(valid_from) AS first, max(valid_from) AS last, count(*) AS versions FROM host_history",
    )
    .all<{ first: number | null; last: number | null; versions: number }>();
  const { first, last, versions } = span.results[0] ?? { first: null, last: null, versions: 0 };
  const bounds = first === null || last === null ? [] : [{ validFrom: first }, { validFrom: last }];
  const build = snapshotBuild(others, historyDays(bounds, others.seedDay), {
    dataset,
    days: options.days,
    onProgress: options.onProgress,
  });
  let count = await executeStatements(snapshotsDb, build.opening());
  let read = 0;
  let reported = 0;
  for await (const page of hostHistoryPages(mainDb, pageRows)) {
    count += await executeStatements(snapshotsDb, build.hostRows(page));
    read += page.length;
    if (read - reported >= versions / 10 || read === versions) {
      reported = read;
      options.onProgress?.(
        `ipv4 rows: ${read}/${versions} host versions (${Math.round((read / versions) * 100)}%)`,
      );
    }
  }
  return count + (await executeStatements(snapshotsDb, build.closing()));
}

/** Statements per D1 batch: a batch is one transaction, kept small enough to be quick. */
const BATCH_SIZE = 50;

/** Runs statements in order, a batch (one transaction) at a time; returns how many ran. */
export async function executeStatements<S>(
  db: SqlDatabase<S>,
  statements: Iterable<string>,
): Promise<number> {
  let batch: S[] = [];
  let count = 0;
  for (const sql of statements) {
    batch.push(db.prepare(sql));
    count++;
    if (batch.length === BATCH_SIZE) {
      await db.batch(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await db.batch(batch);
  return count;
}
