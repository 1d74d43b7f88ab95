/**
 * Which hosts a DNS name or a certificate was ever seen on, over the whole host history
 * (`v3_history_index`). The search tables hold only each host's current document, so "which
 * hosts did example.com resolve to last month" needs an index of its own: the by-name DNS
 * routes and the certificate observations read it to find their hosts, then compute the exact
 * ranges from those hosts' histories (v3-dns.ts), with the same functions the by-IP routes
 * use. The index only has to hold every real pair; an extra pair (an address written where a
 * name goes, a certificate's common name that is no domain) is dropped by that exact pass.
 *
 * Names come from what `hostNames` (host-names.ts) reads: the names of every certificate a
 * service presents (the certificate index and the TLS leaf summary), the host of each HTTP
 * request URI and `Location` header, and the host's own `dns` names. A test checks the index
 * holds every name `hostNames` gives any version of any host of the test dataset.
 *
 * It is built in bounded steps over host_history rowids, each one D1 batch, so other requests
 * run between steps; the state row says how far it got, so a step lost with its request is
 * redone, and a reseed (a new `dataset_meta.dataset`) starts it again and drops the old rows.
 * The scheduled handler builds it in the background; a request that needs it first finishes
 * the build within a budget, or answers 503 with Retry-After.
 */

/** host_history rows per step. */
const STEP_ROWS = 2000;
/** Stale rows deleted per statement while a new dataset's index is built. */
const DELETE_ROWS = 20_000;

export type HistoryIndexKind = "name" | "cert";

export interface HistoryIndexProgress {
  complete: boolean;
  /** Share of host_history indexed, 0..1. */
  done: number;
}

const DATASET = "(SELECT value FROM dataset_meta WHERE key = 'dataset')";

/** The host of a URL held in `u` (an SQL expression), lowercased: scheme, port and path cut. */
function urlHost(u: string): string {
  const rest = `substr(${u}, instr(${u}, '://') + 3)`;
  const authority = `(CASE WHEN instr(${rest}, '/') > 0 THEN substr(${rest}, 1, instr(${rest}, '/') - 1) ELSE ${rest} END)`;
  return `lower(CASE WHEN instr(${authority}, ':') > 0 THEN substr(${authority}, 1, instr(${authority}, ':') - 1) ELSE ${authority} END)`;
}

const RANGE = "h.rowid > ?2 AND h.rowid <= ?3";
const INSERT = "INSERT OR IGNORE INTO v3_history_index (dataset, kind, key, ip)";

/** The statements of one step: every (name, host) and (certificate, host) of its rows. */
const STEP_SQL = [
  `${INSERT} SELECT ?1, 'cert', lower(s.value ->> '$.certificate'), h.ip
   FROM host_history h, json_each(h.doc, '$.services') s
   WHERE ${RANGE} AND s.value ->> '$.certificate' IS NOT NULL`,
  `${INSERT} SELECT ?1, 'name', lower(n.name), h.ip
   FROM host_history h, json_each(h.doc, '$.services') s JOIN certificate_names n ON n.sha256 = s.value ->> '$.certificate'
   WHERE ${RANGE}`,
  `${INSERT} SELECT ?1, 'name', lower(l.value), h.ip
   FROM host_history h, json_each(h.doc, '$.services') s, json_each(s.value, '$.tls.certificates.leaf_data.names') l
   WHERE ${RANGE} AND l.type = 'text'`,
  `${INSERT} SELECT ?1, 'name', ${urlHost("(s.value ->> '$.http.request.uri')")}, h.ip
   FROM host_history h, json_each(h.doc, '$.services') s
   WHERE ${RANGE} AND s.value ->> '$.http.request.uri' LIKE '%://%'`,
  `${INSERT} SELECT ?1, 'name', ${urlHost("l.value")}, h.ip
   FROM host_history h, json_each(h.doc, '$.services') s, json_each(s.value, '$.http.response.headers.Location') l
   WHERE ${RANGE} AND l.value LIKE '%://%'`,
  `${INSERT} SELECT ?1, 'name', lower(d.value), h.ip
   FROM host_history h, json_each(h.doc, '$.dns.names') d
   WHERE ${RANGE} AND d.type = 'text'`,
  `${INSERT} SELECT ?1, 'name', lower(d.value), h.ip
   FROM host_history h, json_each(h.doc, '$.dns.reverse_dns.names') d
   WHERE ${RANGE} AND d.type = 'text'`,
];

interface State {
  dataset: string | null;
  doneTo: number;
  complete: boolean;
  maxRowid: number;
}

async function readState(db: D1Database): Promise<State> {
  const row = await db
    .prepare(
      `SELECT ${DATASET} AS dataset,
        (SELECT done_to FROM v3_history_index_state WHERE dataset = ${DATASET}) AS done_to,
        (SELECT complete FROM v3_history_index_state WHERE dataset = ${DATASET}) AS complete,
        (SELECT coalesce(max(rowid), 0) FROM host_history) AS max_rowid`,
    )
    .first<{ dataset: string | null; done_to: number | null; complete: number | null; max_rowid: number }>();
  return {
    dataset: row?.dataset ?? null,
    doneTo: row?.done_to ?? 0,
    complete: row?.complete === 1,
    maxRowid: row?.max_rowid ?? 0,
  };
}

/** One step: stale rows first (a batch of them), then the next rows of host_history. */
async function step(db: D1Database, state: State & { dataset: string }): Promise<State> {
  const stale = await db
    .prepare(
      `DELETE FROM v3_history_index WHERE rowid IN (SELECT rowid FROM v3_history_index WHERE dataset <> ? LIMIT ${DELETE_ROWS})`,
    )
    .bind(state.dataset)
    .run();
  if ((stale.meta.changes ?? 0) > 0) return state;
  const to = Math.min(state.maxRowid, state.doneTo + STEP_ROWS);
  const complete = to >= state.maxRowid;
  await db.batch([
    ...STEP_SQL.map((sql) => db.prepare(sql).bind(state.dataset, state.doneTo, to)),
    db
      .prepare(
        `INSERT INTO v3_history_index_state (dataset, done_to, complete) VALUES (?, ?, ?)
         ON CONFLICT (dataset) DO UPDATE SET done_to = excluded.done_to, complete = excluded.complete
         WHERE excluded.done_to > v3_history_index_state.done_to OR excluded.complete > v3_history_index_state.complete`,
      )
      .bind(state.dataset, to, complete ? 1 : 0),
    db.prepare("DELETE FROM v3_history_index_state WHERE dataset <> ?").bind(state.dataset),
  ]);
  return { ...state, doneTo: to, complete };
}

/**
 * Builds the index of the held dataset for up to `budgetMs` (at least one step), from where it
 * stopped. An empty database (no dataset) has nothing to index: complete.
 */
export async function buildHistoryIndex(
  db: D1Database,
  budgetMs: number,
  now: () => number = Date.now,
): Promise<HistoryIndexProgress> {
  const started = now();
  let state = await readState(db);
  if (state.dataset === null) return { complete: true, done: 1 };
  while (!state.complete) {
    state = await step(db, state as State & { dataset: string });
    if (now() - started >= budgetMs) break;
  }
  return {
    complete: state.complete,
    done: state.maxRowid === 0 ? 1 : Math.min(1, state.doneTo / state.maxRowid),
  };
}

/** The hosts (IPs, sorted) the index holds for a name or certificate of the held dataset. */
export async function indexedHosts(db: D1Database, kind: HistoryIndexKind, key: string): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT ip FROM v3_history_index WHERE dataset = ${DATASET} AND kind = ? AND key = ? ORDER BY ip`,
    )
    .bind(kind, key.toLowerCase())
    .all<{ ip: string }>();
  return results.map((row) => row.ip);
}
