import { snapshotStatements, type SnapshotSources } from "./build";
import type { WebsiteSource } from "./definitions";

/**
 * The part of a D1 binding used here, so the seed script can pass Miniflare's D1 in Node and
 * the worker and tests their binding.
 */
export interface SqlDatabase<S> {
  prepare(sql: string): S;
  batch(statements: S[]): Promise<unknown>;
}
/** Rows per read of the main database. */
const READ_PAGE_ROWS = 5_000;

type Readable = { all<T = Record<string, unknown>>(): Promise<{ results: T[] }> };

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
            country_code, updated_at FROM websites ORDER BY domain`,
  );
  const protocols = await read("SELECT domain, protocol FROM website_protocols ORDER BY domain, protocol");
  const tags = await read("SELECT domain, tag FROM website_tags ORDER BY domain, tag");
  const grouped = (rows: Record<string, unknown>[], key: string): Map<string, string[]> => {
    const map = new Map<string, string[]>();
    for (const row of rows) {
      const domain = String(row.domain).toLowerCase();
      map.set(domain, [...(map.get(domain) ?? []), String(row[key])]);
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
      }),
    ),
  };
}

/** Statements per D1 batch: a batch is one transaction, kept small enough to be quick. */
const BATCH_SIZE = 50;

/**
 * (Re)creates the snapshot tables in the SNAPSHOTS database from the main database. Used by
 * tests and by anything that runs inside the worker; the seed script writes the same
 * statements to a file instead.
 */
export async function publishSnapshots<M extends Readable, S>(
  mainDb: SqlDatabase<M>,
  snapshotsDb: SqlDatabase<S>,
  days?: string[],
): Promise<number> {
  const sources = await readSnapshotSources(mainDb);
  return executeStatements(snapshotsDb, snapshotStatements(sources, days));
}

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
