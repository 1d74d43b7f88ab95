import type { ApiError } from "@scangate/core";
import { type Relayed, upstreamFailure } from "../upstream/relay";
import type { CachedDocument, DocumentIndex } from "./interface";
import { isFresh } from "./freshness";
import { cachedRow, type CacheFetchDeps, storeSoon } from "./refresh";
import { awaitFlight } from "./single-flight";

/** One id of an upstream bulk answer, as the cache keeps it and as the answer shows it. */
export interface BulkAnswerEntry {
  /** What the bulk answer shows for the id (spliced as text). */
  readonly text: string;
  /** The row kept for the id, when it differs from `text` (default: `text`). */
  readonly row?: string;
  /** The upstream does not know the id: a negative row. */
  readonly unknown: boolean;
  /** The upstream answered for the id; one it left out is not cached. */
  readonly present: boolean;
}

/**
 * What one API's bulk lookup is to the cache: which rows it reads (an index, a point in time),
 * how long they stay fresh, and how its upstream call is asked and read. The legacy
 * certificates bulk's is in bulk-merge.ts; the Platform's in routes/v3/cached-bulks.ts.
 */
export interface BulkCodec {
  readonly index: DocumentIndex;
  /** The `at_time` of every row read and written ("" for current documents). */
  readonly atTime: string;
  /** Freshness of a known document in seconds; null: never expires (a past point in time). */
  readonly ttlSeconds: number | null;
  /** The upstream request body asking for `ids` (cache keys). */
  requestBody(ids: readonly string[]): Uint8Array;
  /** The answer split by id, or null when it is no success the cache can read. */
  readAnswer(ids: readonly string[], relayed: Relayed): Map<string, BulkAnswerEntry> | null;
  /** What a cached row shows in a bulk answer. */
  entryOf(doc: CachedDocument): string;
}

export interface BulkFetchDeps extends CacheFetchDeps {
  readonly codec: BulkCodec;
  /** One upstream bulk POST of `body`, bounded by the upstream deadline. */
  postBulk(body: Uint8Array): Promise<Relayed>;
}

/** One upstream bulk call's outcome: entry texts by id (and the ids it knew), or why there are none. */
export type BulkFetch =
  | { ok: true; entries: Map<string, string>; known: ReadonlySet<string> }
  | { ok: false; relayed: Relayed }
  | { ok: false; error: ApiError };

export function bulkFlightKey(codec: Pick<BulkCodec, "index" | "atTime">, id: string): string {
  return `bulk\u0000${codec.index}\u0000${codec.atTime}\u0000${id}`;
}

/**
 * Asks the upstream for `ids` (cache keys) in ONE bulk call and stores every entry: known
 * documents for the codec's TTL, unknown ones as negative rows for the short TTL; visible to
 * this isolate's readers at once, written to D1 off the response path (as views are).
 */
export async function fetchBulk(deps: BulkFetchDeps, ids: readonly string[]): Promise<BulkFetch> {
  const { codec } = deps;
  let relayed: Relayed;
  try {
    relayed = await deps.postBulk(codec.requestBody(ids));
  } catch (error) {
    return { ok: false, error: upstreamFailure(error) };
  }
  const split = codec.readAnswer(ids, relayed);
  if (!split) return { ok: false, relayed };
  const now = deps.clock.now();
  const rows = [...split]
    .filter(([, entry]) => entry.present)
    .map(([id, entry]) => ({
      key: { index: codec.index, id, atTime: codec.atTime },
      doc: cachedRow(
        entry.row ?? entry.text,
        entry.unknown,
        now,
        entry.unknown ? deps.negativeTtlSeconds : codec.ttlSeconds,
      ),
    }));
  await storeSoon(deps, rows);
  const known = new Set([...split].filter(([, entry]) => !entry.unknown).map(([id]) => id));
  return { ok: true, entries: new Map([...split].map(([id, entry]) => [id, entry.text])), known };
}

/**
 * Fetches `ids`, joining bulk calls already under way for some of them and making one new
 * upstream call for the rest. `called` says whether this request made that call; `own` holds
 * the ids its own calls asked for (the others came from calls other requests made).
 *
 * `recheck`: the request found no usable row for `ids`. Before asking, it looks at what this
 * isolate holds in memory, where a call that ended between the request's read and now has put
 * its rows (as a single document's fetch does, cache/refresh.ts): such an id counts as joined.
 */
export async function sharedBulkFetch(
  deps: BulkFetchDeps,
  fingerprints: readonly string[],
  recheck = false,
): Promise<{ results: Map<string, BulkFetch>; called: boolean; own: ReadonlySet<string> }> {
  const { codec } = deps;
  const results = new Map<string, BulkFetch>();
  const joined = new Map<string, Promise<BulkFetch>>();
  const own: string[] = [];
  const now = deps.clock.now();
  for (const fp of fingerprints) {
    const flight = deps.flights.joining(bulkFlightKey(codec, fp)) as Promise<BulkFetch> | undefined;
    const stored =
      recheck && !flight ? deps.cache.peek({ index: codec.index, id: fp, atTime: codec.atTime }) : null;
    if (flight) joined.set(fp, flight);
    else if (stored && isFresh(stored, now)) {
      const known = new Set(stored.negative ? [] : [fp]);
      results.set(fp, { ok: true, entries: new Map([[fp, codec.entryOf(stored)]]), known });
    } else own.push(fp);
  }
  if (own.length > 0) {
    const ownResult = (await deps.flights.runMany(
      own.map((fp) => bulkFlightKey(deps.codec, fp)),
      () => fetchBulk(deps, own),
    )) as BulkFetch;
    for (const fp of own) results.set(fp, ownResult);
  }
  const waited = await awaitFlight(
    Promise.all([...joined].map(([fp, flight]) => flight.then((r) => [fp, r] as const))),
    deps.flights.joinWaitMs,
  );
  if (waited.ended) {
    for (const [fp, result] of waited.value) results.set(fp, result);
  } else {
    // The calls joined never ended: ask for those fingerprints ourselves.
    const late = [...joined.keys()];
    const lateResult = await fetchBulk(deps, late);
    for (const fp of late) results.set(fp, lateResult);
    return { results, called: true, own: new Set([...own, ...late]) };
  }
  return { results, called: own.length > 0, own: new Set(own) };
}
