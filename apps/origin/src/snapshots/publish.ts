import { summaryDay } from "../dataset/clock";
import { snapshotStatements, type SnapshotSources } from "./build";
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

/**
 * Reads what the snapshot tables are built from out of the main database: the host history,
 * the certificates with their added time, and the websites with their protocols and tags.
 */
export async function readSnapshotSources<S extends Readable>(
  db: SqlDatabase<S>,
  pageRows = READ_PAGE_ROWS,
): Promise<SnapshotSources> {
  // Page by page (each ORDER BY is on a unique key): at 100,000 hosts one answer holding the whole
  // host history passes V8's largest string where Miniflare hands D1 results to Node.
  const read = async (sql: string) => {
    const rows: Record<string, unknown>[] = [];
    for (let offset = 0; ; offset += pageRows) {
      const page = await db
        .prepare(`${sql} LIMIT ${pageRows} OFFSET ${offset}`)
        .all<Record<string, unknown>>();
      for (const row of page.results) rows.push(row);
      if (page.results.length < pageRows) return rows;
    }
  };
  const history = await read(
    "SELECT ip, valid_from, valid_to, doc FROM host_history ORDER BY ip, valid_from",
  );
  const certificates = await read("SELECT added_at, doc FROM certificates ORDER BY sha256");
  const websites = await read(
    `SELECT domain, alexa_rank, ip, http_status_code, http_title, http_server, certificate, asn,
            country_code, updated_at, doc FROM websites ORDER BY domain`,
  );
  const protocols = await read("SELECT domain, protocol FROM website_protocols ORDER BY domain, protocol");
  const tags = await read("SELECT domain, tag FROM website_tags ORDER BY domain, tag");
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
    hostHistory: history.map((row) => ({
      ip: String(row.ip),
      validFrom: Number(row.valid_from),
      validTo: num(row.valid_to),
      doc: String(row.doc),
    })),
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
}

/**
 * (Re)builds the SNAPSHOTS database from the main database: drops everything in it first (the
 * tables of an older layout, such as the per-day `ipv4.YYYYMMDD` tables, included), then runs
 * the statements of build.ts. Returns how many statements ran.
 */
export async function publishSnapshots<M extends Readable, S extends Readable>(
  mainDb: SqlDatabase<M>,
  snapshotsDb: SqlDatabase<S>,
  options: PublishOptions = {},
): Promise<number> {
  const sources = await readSnapshotSources(mainDb);
  const dataset = (await readDatasetFingerprint(mainDb)) ?? "";
  const { objects } = await readSnapshotState(snapshotsDb);
  const order = ["trigger", "view", "table"];
  const drops = objects
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([type, name]) => `DROP ${type.toUpperCase()} IF EXISTS "${name.replaceAll('"', '""')}"`);
  await executeStatements(snapshotsDb, drops);
  return executeStatements(
    snapshotsDb,
    snapshotStatements(sources, { dataset, days: options.days, onProgress: options.onProgress }),
  );
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
