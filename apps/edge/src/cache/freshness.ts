import type { CachedDocument } from "./interface";

export interface FreshnessPolicy {
  readonly staleWhileRevalidateMs: number;
  readonly staleIfErrorMs: number;
}

/** The stale windows of the edge's cache settings, in milliseconds. */
export function freshnessPolicy(cache: {
  staleWhileRevalidateSeconds: number;
  staleIfErrorSeconds: number;
}): FreshnessPolicy {
  return {
    staleWhileRevalidateMs: cache.staleWhileRevalidateSeconds * 1000,
    staleIfErrorMs: cache.staleIfErrorSeconds * 1000,
  };
}

/**
 * What a cached row is good for at `now`:
 * - `fresh`: serve it;
 * - `revalidate`: past its TTL but within stale-while-revalidate: serve it, refresh in the background;
 * - `if_error`: too old to serve by itself, but still better than an upstream failure;
 * - `expired`: useless.
 */
export type Freshness = "fresh" | "revalidate" | "if_error" | "expired";

export function freshness(doc: CachedDocument, now: number, policy: FreshnessPolicy): Freshness {
  if (doc.expiresAt === null || now < doc.expiresAt) return "fresh";
  const staleFor = now - doc.expiresAt;
  if (staleFor < policy.staleWhileRevalidateMs) return "revalidate";
  if (staleFor < policy.staleIfErrorMs) return "if_error";
  return "expired";
}

/** Whole seconds since the row was fetched (the `Age` header). */
export function ageSeconds(doc: CachedDocument, now: number): number {
  return Math.max(0, Math.floor((now - doc.fetchedAt) / 1000));
}

/** Seconds of freshness left; negative once stale (the Cache-Status `ttl` parameter). */
export function ttlSeconds(doc: CachedDocument, now: number): number | null {
  return doc.expiresAt === null ? null : Math.floor((doc.expiresAt - now) / 1000);
}

/** Whether a row is within its TTL now (no stale window counts): one a fetch just stored. */
export function isFresh(doc: CachedDocument, now: number): boolean {
  return freshness(doc, now, { staleWhileRevalidateMs: 0, staleIfErrorMs: 0 }) === "fresh";
}
