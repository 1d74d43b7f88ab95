import { documentIdSchema, normalizeDocumentId, type V1Index } from "@scangate/core";

/**
 * Readers of the stored documents (the JSON the dataset keeps beside the search columns).
 * Ids that cannot name a document of the index (a malformed IP, a non-hex fingerprint) read as
 * missing without touching the database: the public service answers those with a 404 too.
 */

const V1_DOCUMENT_SQL: Record<V1Index, string> = {
  ipv4: "select v1_doc as doc from hosts where ip = ?",
  websites: "select doc from websites where domain = ?",
  certificates: "select doc from certificates where sha256 = ?",
};

function parseDocument(text: string | undefined | null): unknown {
  return text == null ? null : (JSON.parse(text) as unknown);
}

export async function readV1Document(db: D1Database, index: V1Index, id: string): Promise<unknown> {
  if (!documentIdSchema(index).safeParse(id).success) return null;
  const row = await db
    .prepare(V1_DOCUMENT_SQL[index])
    .bind(normalizeDocumentId(index, id))
    .first<{ doc: string }>();
  return parseDocument(row?.doc);
}

/** Certificates by SHA-256 fingerprint (any case); the map is keyed by lowercase fingerprint. */
export async function readCertificates(
  db: D1Database,
  fingerprints: readonly string[],
): Promise<Map<string, unknown>> {
  const wanted = [...new Set(fingerprints.map((fp) => fp.toLowerCase()))];
  const found = new Map<string, unknown>();
  for (const { key, doc } of await rowsWhereIn<KeyedDoc>(
    db,
    "lower(sha256) as key, doc from certificates where sha256",
    wanted,
  ))
    found.set(key, parseDocument(doc));
  return found;
}

interface KeyedDoc {
  key: string;
  doc: string;
}

/** D1 binds at most this many parameters in one statement. */
const MAX_BOUND = 100;

/**
 * `select <selectWhere> in (...)` for every value, in one batch of statements of at most
 * MAX_BOUND values each (a page of hosts may present more certificates than one may bind).
 * `leading` are bound before the values, for the `?` that `selectWhere` itself holds.
 */
async function rowsWhereIn<Row>(
  db: D1Database,
  selectWhere: string,
  values: readonly string[],
  leading: readonly (string | number)[] = [],
): Promise<Row[]> {
  if (values.length === 0) return [];
  const chunkSize = MAX_BOUND - leading.length;
  const statements = [];
  for (let start = 0; start < values.length; start += chunkSize) {
    const chunk = values.slice(start, start + chunkSize);
    statements.push(
      db.prepare(`select ${selectWhere} in (${chunk.map(() => "?").join(", ")})`).bind(...leading, ...chunk),
    );
  }
  const results = await db.batch<Row>(statements);
  return results.flatMap((result) => result.results);
}

/** The current v2 host document. */
export async function readHost(db: D1Database, ip: string): Promise<unknown> {
  const row = await db.prepare("select doc from hosts where ip = ?").bind(ip).first<{ doc: string }>();
  return parseDocument(row?.doc);
}

/** The current v2 host documents of `ips`, found ones only. */
export async function readHosts(db: D1Database, ips: readonly string[]): Promise<Map<string, unknown>> {
  const found = new Map<string, unknown>();
  for (const { key, doc } of await rowsWhereIn<KeyedDoc>(db, "ip as key, doc from hosts where ip", [
    ...new Set(ips),
  ]))
    found.set(key, parseDocument(doc));
  return found;
}

/** The websites (v1 documents) of `domains` (lowercase) with the address each resolves to, found ones only. */
export async function readWebsites(
  db: D1Database,
  domains: readonly string[],
): Promise<Map<string, { doc: unknown; ip: string | null }>> {
  const found = new Map<string, { doc: unknown; ip: string | null }>();
  for (const { key, doc, ip } of await rowsWhereIn<KeyedDoc & { ip: string | null }>(
    db,
    "lower(domain) as key, doc, ip from websites where domain",
    [...new Set(domains)],
  ))
    found.set(key, { doc: parseDocument(doc), ip });
  return found;
}

/**
 * The v2 host document as it was known at `atMs`. From the current document's update time on,
 * that is the current document (what the view without at_time shows); before it, the history
 * row with valid_from <= T < valid_to. Null when the host was not yet seen at T.
 */
export async function readHostAt(db: D1Database, ip: string, atMs: number): Promise<unknown> {
  const [current, history] = await db.batch<{ doc: string }>([
    db.prepare("select doc from hosts where ip = ? and last_updated_at <= ?").bind(ip, atMs),
    db
      .prepare(
        "select doc from host_history where ip = ? and valid_from <= ? and (valid_to is null or valid_to > ?) order by valid_from desc limit 1",
      )
      .bind(ip, atMs, atMs),
  ]);
  return parseDocument(current?.results[0]?.doc ?? history?.results[0]?.doc);
}

/** `readHostAt` for several hosts in one batch (found ones only). */
export async function readHostsAt(
  db: D1Database,
  ips: readonly string[],
  atMs: number,
): Promise<Map<string, unknown>> {
  const wanted = [...new Set(ips)];
  const [current, history] = await Promise.all([
    rowsWhereIn<KeyedDoc>(db, "ip as key, doc from hosts where last_updated_at <= ? and ip", wanted, [atMs]),
    rowsWhereIn<KeyedDoc & { valid_from: number }>(
      db,
      "ip as key, doc, valid_from from host_history where valid_from <= ? and (valid_to is null or valid_to > ?) and ip",
      wanted,
      [atMs, atMs],
    ),
  ]);
  const found = new Map<string, unknown>();
  // Of a host's history rows holding T, the latest; the current document wins over them.
  history.sort((a, b) => a.valid_from - b.valid_from);
  for (const { key, doc } of history) found.set(key, parseDocument(doc));
  for (const { key, doc } of current) found.set(key, parseDocument(doc));
  return found;
}
