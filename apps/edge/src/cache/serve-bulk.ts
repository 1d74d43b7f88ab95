import type { ApiError } from "@scangate/core";
import type { Relayed } from "../upstream/relay";
import { type BulkFetch, type BulkFetchDeps, sharedBulkFetch } from "./bulk-fetch";
import type { CacheForwarded, CacheOutcome } from "./cache-status";
import { ageSeconds, type Freshness, freshness, type FreshnessPolicy } from "./freshness";
import type { CachedDocument } from "./interface";

/**
 * How one bulk request was served, with the entry text of every certificate it answers and
 * the age of the oldest cached one:
 * - `fresh`: every certificate from the cache (`revalidate`: those to refresh in the background);
 * - `collapsed`: the missing ones came from other requests' upstream calls;
 * - `miss`: this request's own upstream call fetched the missing ones;
 * - `stale`: the upstream failed and rows past their TTL answered for it (stale-if-error);
 * - `failed`: the upstream failed and nothing could answer instead.
 */
export type BulkOutcome =
  | (Entries & { readonly kind: "fresh"; readonly revalidate: string[] })
  | (Entries & Fetched & { readonly kind: "collapsed" })
  | (Entries &
      Fetched & {
        readonly kind: "miss" | "stale";
        readonly fwd: CacheForwarded;
        readonly calledUpstream: boolean;
      })
  | {
      readonly kind: "failed";
      readonly failure: { relayed: Relayed } | { error: ApiError };
      readonly calledUpstream: boolean;
    };

interface Entries {
  readonly entries: Map<string, string>;
  readonly age: number;
}
/** Ids the upstream knew, fetched by this request's own call and by calls it joined. */
interface Fetched {
  readonly known: { readonly own: number; readonly joined: number };
}

/** What reading the cache found for a bulk request. */
export interface BulkLookup {
  readonly wanted: readonly string[];
  readonly states: ReadonlyMap<string, { doc: CachedDocument; state: Freshness }>;
  readonly entries: Map<string, string>;
  readonly age: number;
  readonly toFetch: string[];
  readonly toRevalidate: string[];
  readonly revalidationAsked: boolean;
}

/** Reads the cache for `wanted` (unique cache keys: lower-case fingerprints for the legacy bulk). */
export async function lookupBulk(
  deps: BulkFetchDeps,
  policy: FreshnessPolicy,
  wanted: readonly string[],
  revalidationAsked: boolean,
): Promise<BulkLookup> {
  const { codec } = deps;
  const rows = await deps.cache.getMany(codec.index, wanted, codec.atTime);
  const now = deps.clock.now();
  const states = new Map<string, { doc: CachedDocument; state: Freshness }>();
  for (const [fp, doc] of rows) states.set(fp, { doc, state: freshness(doc, now, policy) });
  const entries = new Map<string, string>();
  const toFetch: string[] = [];
  const toRevalidate: string[] = [];
  let age = 0;
  for (const fp of wanted) {
    const s = states.get(fp);
    if (revalidationAsked || s === undefined || (s.state !== "fresh" && s.state !== "revalidate")) {
      toFetch.push(fp);
      continue;
    }
    entries.set(fp, codec.entryOf(s.doc));
    age = Math.max(age, ageSeconds(s.doc, now));
    if (s.state === "revalidate") toRevalidate.push(fp);
  }
  return { wanted, states, entries, age, toFetch, toRevalidate, revalidationAsked };
}

/** The outcome when the cache answered every certificate. */
export function bulkFromCache(lookup: BulkLookup): Extract<BulkOutcome, { kind: "fresh" }> {
  return { kind: "fresh", entries: lookup.entries, age: lookup.age, revalidate: lookup.toRevalidate };
}

/**
 * Asks the upstream for the certificates the cache lacks (joining calls under way for some),
 * falling back to rows past their TTL for those the upstream failed to answer.
 */
export async function fetchMissingBulk(
  deps: BulkFetchDeps,
  lookup: BulkLookup,
): Promise<Exclude<BulkOutcome, { kind: "fresh" }>> {
  const { results, called, own } = await sharedBulkFetch(deps, lookup.toFetch, !lookup.revalidationAsked);
  const known = { own: 0, joined: 0 };
  const entries = new Map(lookup.entries);
  let age = lookup.age;
  const now = deps.clock.now();
  let failure: Exclude<BulkFetch, { ok: true }> | null = null;
  let staleUsed = false;
  for (const fp of lookup.toFetch) {
    const result = results.get(fp);
    if (result?.ok) {
      entries.set(fp, result.entries.get(fp) ?? "");
      if (result.known.has(fp)) known[own.has(fp) ? "own" : "joined"] += 1;
      continue;
    }
    const fallback = lookup.states.get(fp);
    if (fallback && fallback.state !== "expired") {
      entries.set(fp, deps.codec.entryOf(fallback.doc));
      age = Math.max(age, ageSeconds(fallback.doc, now));
      staleUsed = true;
    } else if (result) {
      failure = result;
    }
  }
  if (failure) return { kind: "failed", failure, calledUpstream: called };
  const fwd: CacheForwarded = lookup.revalidationAsked
    ? "request"
    : lookup.toFetch.length < lookup.wanted.length
      ? "partial"
      : lookup.states.size > 0
        ? "stale"
        : "uri-miss";
  if (staleUsed) return { kind: "stale", entries, age, known, fwd, calledUpstream: called };
  if (!called) return { kind: "collapsed", entries, age, known };
  return { kind: "miss", entries, age, known, fwd, calledUpstream: called };
}

/** The Cache-Status of a bulk answer that has entries. */
export function bulkCacheOutcome(outcome: Exclude<BulkOutcome, { kind: "failed" }>): CacheOutcome {
  switch (outcome.kind) {
    case "fresh":
      return {
        hit: true,
        ttl: null,
        ...(outcome.revalidate.length > 0 ? { detail: "stale-while-revalidate" as const } : {}),
      };
    case "collapsed":
      return { hit: true, ttl: null, detail: "collapsed" };
    case "stale":
      return { hit: false, fwd: outcome.fwd, stored: false, detail: "stale-if-error" };
    case "miss":
      return { hit: false, fwd: outcome.fwd, stored: true };
  }
}
