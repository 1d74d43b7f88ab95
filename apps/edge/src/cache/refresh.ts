import type { EdgeServices } from "../services";
import { type Relayed, relayJson } from "../upstream/relay";
import type { CachedDocument, DocumentKey } from "./interface";

/** How one cached route fetches and stores its document. */
export interface CachedFetchSpec {
  readonly key: DocumentKey;
  /** Upstream path below the API base. */
  readonly path: string;
  /** Freshness in seconds; null: never expires (a host at a past point in time). */
  readonly ttlSeconds: number | null;
  /** The body to keep for a 404 (an "unknown" entry), or null to cache only successes. */
  readonly negativeBody: string | null;
}

export interface Refreshed {
  readonly relayed: Relayed;
  readonly stored: boolean;
}

/** The key single-flight uses for a document. */
export function flightKey(key: DocumentKey): string {
  return `${key.index}\u0000${key.id}\u0000${key.atTime}`;
}

/**
 * Asks the upstream for one document and stores a 200 (or a 404 as a negative row). A failed
 * store is logged, not fatal: the caller still gets the upstream's answer.
 */
export async function fetchAndStore(services: EdgeServices, spec: CachedFetchSpec): Promise<Refreshed> {
  const relayed = await relayJson(services.upstream, { method: "GET", path: spec.path }, services.config.upstreamTimeoutMs);
  const now = services.clock.now();
  let doc: CachedDocument | null = null;
  if (relayed.status === 200) {
    doc = {
      body: new TextDecoder().decode(relayed.body),
      negative: false,
      fetchedAt: now,
      expiresAt: spec.ttlSeconds === null ? null : now + spec.ttlSeconds * 1000,
    };
  } else if (relayed.status === 404 && spec.negativeBody !== null) {
    doc = {
      body: spec.negativeBody,
      negative: true,
      fetchedAt: now,
      expiresAt: now + services.config.cache.negativeTtlSeconds * 1000,
    };
  }
  if (!doc) return { relayed, stored: false };
  try {
    await services.cache.put([{ key: spec.key, doc }]);
    return { relayed, stored: true };
  } catch (error) {
    console.error("document cache store failed", error instanceof Error ? error.message : error);
    return { relayed, stored: false };
  }
}

/** Runs `fetchAndStore` for `spec`, joined with any fetch of the same document under way. */
export function sharedFetch(services: EdgeServices, spec: CachedFetchSpec) {
  return services.flights.run(flightKey(spec.key), () => fetchAndStore(services, spec)) as Promise<{
    value: Refreshed;
    leader: boolean;
  }>;
}
