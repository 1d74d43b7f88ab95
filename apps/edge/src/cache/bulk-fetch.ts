import type { ApiError } from "@scangate/core";
import type { Clock } from "@scangate/core/http";
import { type Relayed, upstreamFailure } from "../upstream/relay";
import { splitBulkAnswer } from "./bulk-merge";
import type { CachedDocument, DocumentCache, DocumentKey } from "./interface";
import { awaitFlight, type SingleFlight } from "./single-flight";

/** What a bulk fetch needs: the cache, the time, its TTLs, and one upstream bulk POST. */
export interface BulkFetchDeps {
  readonly cache: DocumentCache;
  readonly clock: Clock;
  /** Concurrent calls for one certificate share one upstream call. */
  readonly flights: SingleFlight<unknown>;
  readonly certificateTtlSeconds: number;
  readonly negativeTtlSeconds: number;
  /** One upstream POST /v1/bulk/certificates of `body`, bounded by the upstream deadline. */
  postBulk(body: Uint8Array): Promise<Relayed>;
  /** Keeps work going after the response (the request's waitUntil): the cache's D1 writes. */
  defer(work: Promise<void>): void;
}

/** One upstream bulk call's outcome: entry texts by fingerprint, or why there are none. */
export type BulkFetch =
  | { ok: true; entries: Map<string, string> }
  | { ok: false; relayed: Relayed }
  | { ok: false; error: ApiError };

export function bulkFlightKey(fingerprint: string): string {
  return `bulk\u0000${fingerprint}`;
}

/**
 * Asks the upstream for `fingerprints` (lower case) in ONE bulk call and stores every entry:
 * known certificates for the certificates TTL, unknown ones as negative rows for the short TTL;
 * visible to this isolate's readers at once, written to D1 off the response path (as views are).
 */
export async function fetchBulk(deps: BulkFetchDeps, fingerprints: readonly string[]): Promise<BulkFetch> {
  let relayed: Relayed;
  try {
    relayed = await deps.postBulk(new TextEncoder().encode(JSON.stringify({ fingerprints })));
  } catch (error) {
    return { ok: false, error: upstreamFailure(error) };
  }
  const answer = relayed.json;
  if (relayed.status !== 200 || typeof answer !== "object" || answer === null || Array.isArray(answer)) {
    return { ok: false, relayed };
  }
  const split = splitBulkAnswer(fingerprints, answer as Record<string, unknown>);
  const now = deps.clock.now();
  const { certificateTtlSeconds, negativeTtlSeconds } = deps;
  const rows: Array<{ key: DocumentKey; doc: CachedDocument }> = [];
  for (const [fp, entry] of split) {
    if (!entry.present) continue;
    rows.push({
      key: { index: "certificates", id: fp, atTime: "" },
      doc: {
        body: entry.text,
        negative: entry.unknown,
        fetchedAt: now,
        expiresAt: now + (entry.unknown ? negativeTtlSeconds : certificateTtlSeconds) * 1000,
      },
    });
  }
  try {
    await deps.cache.putSoon(rows, (write) => deps.defer(write));
  } catch (error) {
    console.error("document cache store failed", error instanceof Error ? error.message : error);
  }
  return { ok: true, entries: new Map([...split].map(([fp, entry]) => [fp, entry.text])) };
}

/**
 * Fetches `fingerprints`, joining bulk calls already under way for some of them and making
 * one new upstream call for the rest. `called` says whether this request made that call.
 */
export async function sharedBulkFetch(
  deps: BulkFetchDeps,
  fingerprints: readonly string[],
): Promise<{ results: Map<string, BulkFetch>; called: boolean }> {
  const results = new Map<string, BulkFetch>();
  const joined = new Map<string, Promise<BulkFetch>>();
  const own: string[] = [];
  for (const fp of fingerprints) {
    const flight = deps.flights.joining(bulkFlightKey(fp)) as Promise<BulkFetch> | undefined;
    if (flight) joined.set(fp, flight);
    else own.push(fp);
  }
  if (own.length > 0) {
    const ownResult = await deps.flights.runMany(
      own.map(bulkFlightKey),
      () => fetchBulk(deps, own),
      (result) => result as unknown,
    );
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
    return { results, called: true };
  }
  return { results, called: own.length > 0 };
}
