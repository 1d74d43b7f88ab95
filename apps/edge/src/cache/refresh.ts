import type { Clock } from "@scangate/core/http";
import type { Relayed } from "../upstream/relay";
import { isFresh } from "./freshness";
import { type CachedDocument, type DocumentCache, type DocumentKey, documentKeyOf } from "./interface";
import type { SingleFlight } from "./single-flight";

/** How one cached route fetches and stores its document. */
export interface CachedFetchSpec {
  readonly key: DocumentKey;
  /** Upstream path below the API base. */
  readonly path: string;
  /** Freshness in seconds; null: never expires (a host at a past point in time). */
  readonly ttlSeconds: number | null;
  /** The body to keep for a 404 (an "unknown" entry), or null to cache only successes. */
  readonly negativeBody: string | null;
  /**
   * The row to keep for an answer, when the route keeps something other than a 200's bytes and
   * `negativeBody` for a 404 (a Platform asset without its envelope, the upstream's own 404
   * problem); null keeps nothing.
   */
  readonly toRow?: (relayed: Relayed) => { body: string; negative: boolean } | null;
}

/** What filling the cache from the upstream needs, for a document or a bulk lookup. */
export interface CacheFetchDeps {
  readonly cache: DocumentCache;
  readonly clock: Clock;
  /** Concurrent fetches of one document share one upstream call. */
  readonly flights: SingleFlight<unknown>;
  readonly negativeTtlSeconds: number;
  /** Keeps work going after the response (the request's waitUntil): the cache's D1 writes. */
  defer(work: Promise<void>): void;
}

export interface DocumentFetchDeps extends CacheFetchDeps {
  /** One upstream GET of `path` (below the API base), bounded by the upstream deadline. */
  fetchUpstream(path: string): Promise<Relayed>;
}

export interface Refreshed {
  readonly relayed: Relayed;
  readonly stored: boolean;
}

/** The row kept for `body` fetched at `now`: fresh for `ttlSeconds` (null: never expires). */
export function cachedRow(
  body: string,
  negative: boolean,
  now: number,
  ttlSeconds: number | null,
): CachedDocument {
  return { body, negative, fetchedAt: now, expiresAt: ttlSeconds === null ? null : now + ttlSeconds * 1000 };
}

/**
 * Stores rows visible to this isolate's readers at once, written to D1 off the response path.
 * A failed store is logged, not fatal: false.
 */
export async function storeSoon(
  deps: Pick<CacheFetchDeps, "cache" | "defer">,
  rows: Array<{ key: DocumentKey; doc: CachedDocument }>,
): Promise<boolean> {
  try {
    await deps.cache.putSoon(rows, (write) => deps.defer(write));
    return true;
  } catch (error) {
    console.error("document cache store failed", error instanceof Error ? error.message : error);
    return false;
  }
}

/** The row a route without `toRow` keeps: a 200's bytes, or `negativeBody` for a 404. */
function plainRow(spec: CachedFetchSpec, relayed: Relayed): { body: string; negative: boolean } | null {
  if (relayed.status === 200) {
    return { body: relayed.text ?? new TextDecoder().decode(relayed.body), negative: false };
  }
  return relayed.status === 404 && spec.negativeBody !== null
    ? { body: spec.negativeBody, negative: true }
    : null;
}

/** Asks the upstream for one document and stores a 200 (or a 404 as a negative row). */
export async function fetchAndStore(deps: DocumentFetchDeps, spec: CachedFetchSpec): Promise<Refreshed> {
  const relayed = await deps.fetchUpstream(spec.path);
  const row = spec.toRow ? spec.toRow(relayed) : plainRow(spec, relayed);
  if (!row) return { relayed, stored: false };
  const ttl = row.negative ? deps.negativeTtlSeconds : spec.ttlSeconds;
  const doc = cachedRow(row.body, row.negative, deps.clock.now(), ttl);
  return { relayed, stored: await storeSoon(deps, [{ key: spec.key, doc }]) };
}

/**
 * What a shared fetch gives: the upstream's answer, a fresh row that was stored meanwhile, or
 * (`refused`) nothing, because the request that led it could not go upstream (its quota was
 * spent); a request that joined such a flight tries again on its own account.
 */
export type SharedFetch =
  | ({ readonly found: null } & Refreshed)
  | { readonly found: CachedDocument }
  | { readonly refused: unknown };

export interface SharedFetchOptions {
  /**
   * The request found no usable row: before calling the upstream, look at what this isolate
   * holds in memory, where a fetch of the same document that ended between the request's read
   * and its joining has put its row (no D1 read: that would put a statement on every miss).
   */
  readonly recheck?: boolean;
  /**
   * Run by the leader only, before its upstream call (charging the leader's quota). When it
   * throws, the flight ends `refused` with the error, and no upstream call is made.
   */
  readonly beforeFetch?: () => Promise<void>;
}

/**
 * Runs `fetchAndStore` for `spec`, joined with any fetch of the same document under way: a
 * request that joins does no work of its own, D1 included.
 */
export function sharedFetch(
  deps: DocumentFetchDeps,
  spec: CachedFetchSpec,
  options: SharedFetchOptions = {},
) {
  return deps.flights.run(documentKeyOf(spec.key), async (): Promise<SharedFetch> => {
    if (options.beforeFetch) {
      try {
        await options.beforeFetch();
      } catch (error) {
        return { refused: error };
      }
    }
    if (options.recheck) {
      const doc = deps.cache.peek(spec.key);
      if (doc && isFresh(doc, deps.clock.now())) return { found: doc };
    }
    return { found: null, ...(await fetchAndStore(deps, spec)) };
  }) as Promise<{ value: SharedFetch; leader: boolean }>;
}
