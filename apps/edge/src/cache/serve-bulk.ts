import type { ApiError } from "@scangate/core";
import type { Relayed } from "../upstream/relay";
import { type BulkFetch, type BulkFetchDeps, fetchBulk, sharedBulkFetch } from "./bulk-fetch";
import { ageSeconds, type Freshness, freshness, type FreshnessPolicy } from "./freshness";
import type { CachedDocument } from "./interface";

/** Why a bulk request went upstream (the Cache-Status `fwd` parameter). */
export type BulkForwarded = "uri-miss" | "stale" | "request" | "partial";

/**
 * How one bulk request was served, with the entry text of every certificate it answers and
 * the age of the oldest cached one:
 * - `fresh`: every certificate from the cache (`revalidate`: those to refresh in the background);
 * - `collapsed`: the missing ones came from other requests' upstream calls;
 * - `miss`: this request's own upstream call fetched the missing ones;
 * - `stale`: the upstream failed and rows past their TTL answered for it (stale-if-error);
 * - `failed`: the upstream failed and nothing could answer instead.
 */
export type BulkOutcome = BulkFresh | BulkFetched;

interface Entries {
  readonly entries: Map<string, string>;
  readonly age: number;
}
export type BulkFresh = Entries & { readonly kind: "fresh"; readonly revalidate: string[] };
export type BulkFetched =
  | (Entries & { readonly kind: "collapsed" })
  | (Entries & {
      readonly kind: "miss" | "stale";
      readonly fwd: BulkForwarded;
      readonly calledUpstream: boolean;
    })
  | {
      readonly kind: "failed";
      readonly failure: { relayed: Relayed } | { error: ApiError };
      readonly calledUpstream: boolean;
    };

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

/** Reads the cache for `wanted` (unique, lower-case fingerprints). */
export async function lookupBulk(
  deps: BulkFetchDeps,
  policy: FreshnessPolicy,
  wanted: readonly string[],
  revalidationAsked: boolean,
): Promise<BulkLookup> {
  const rows = await deps.cache.getMany("certificates", wanted);
  const now = deps.clock.now();
  const states = new Map<string, { doc: CachedDocument; state: Freshness }>();
  for (const [fp, doc] of rows) states.set(fp, { doc, state: freshness(doc, now, policy) });
  const servable = (fp: string) => {
    const s = states.get(fp);
    return !revalidationAsked && s !== undefined && (s.state === "fresh" || s.state === "revalidate");
  };
  const entries = new Map<string, string>();
  let age = 0;
  for (const fp of wanted.filter(servable)) {
    const s = states.get(fp) as { doc: CachedDocument };
    entries.set(fp, s.doc.body);
    age = Math.max(age, ageSeconds(s.doc, now));
  }
  return {
    wanted,
    states,
    entries,
    age,
    toFetch: wanted.filter((fp) => !servable(fp)),
    toRevalidate: wanted.filter((fp) => servable(fp) && states.get(fp)?.state === "revalidate"),
    revalidationAsked,
  };
}

/** The outcome when the cache answered every certificate. */
export function bulkFromCache(lookup: BulkLookup): BulkFresh {
  return { kind: "fresh", entries: lookup.entries, age: lookup.age, revalidate: lookup.toRevalidate };
}

/** Refreshes rows served within stale-while-revalidate. */
export async function revalidateBulk(deps: BulkFetchDeps, fingerprints: readonly string[]): Promise<void> {
  await fetchBulk(deps, fingerprints);
}

/**
 * Asks the upstream for the certificates the cache lacks (joining calls under way for some),
 * falling back to rows past their TTL for those the upstream failed to answer.
 */
export async function fetchMissingBulk(deps: BulkFetchDeps, lookup: BulkLookup): Promise<BulkFetched> {
  const { results, called } = await sharedBulkFetch(deps, lookup.toFetch);
  const entries = new Map(lookup.entries);
  let age = lookup.age;
  const now = deps.clock.now();
  let failure: Exclude<BulkFetch, { ok: true }> | null = null;
  let staleUsed = false;
  for (const fp of lookup.toFetch) {
    const result = results.get(fp);
    if (result?.ok) {
      entries.set(fp, result.entries.get(fp) ?? "");
      continue;
    }
    const fallback = lookup.states.get(fp);
    if (fallback && fallback.state !== "expired") {
      entries.set(fp, fallback.doc.body);
      age = Math.max(age, ageSeconds(fallback.doc, now));
      staleUsed = true;
    } else if (result) {
      failure = result;
    }
  }
  if (failure) return { kind: "failed", failure, calledUpstream: called };
  const fwd: BulkForwarded = lookup.revalidationAsked
    ? "request"
    : lookup.toFetch.length < lookup.wanted.length
      ? "partial"
      : lookup.states.size > 0
        ? "stale"
        : "uri-miss";
  if (staleUsed) return { kind: "stale", entries, age, fwd, calledUpstream: called };
  if (!called) return { kind: "collapsed", entries, age };
  return { kind: "miss", entries, age, fwd, calledUpstream: called };
}
