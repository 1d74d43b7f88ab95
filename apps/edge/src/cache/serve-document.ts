import type { ApiError } from "@scangate/core";
import { isSuccess, type Relayed, upstreamFailure } from "../upstream/relay";
import type { CacheForwarded } from "./cache-status";
import { type Freshness, freshness, type FreshnessPolicy } from "./freshness";
import { type CachedDocument, documentKeyOf } from "./interface";
import {
  type CachedFetchSpec,
  type DocumentFetchDeps,
  fetchAndStore,
  type SharedFetch,
  type SharedFetchOptions,
  sharedFetch,
} from "./refresh";

/** Why a document request went upstream (a bulk one may also be `partial`). */
export type Forwarded = Exclude<CacheForwarded, "partial">;

/**
 * How one document request was served:
 * - `fresh`: a cached row within its TTL, or within stale-while-revalidate (`revalidate`: the
 *   caller should refresh it in the background);
 * - `negative`: a cached "unknown document" row;
 * - `collapsed`: another request's upstream call answered this one (its stored row, or its answer);
 * - `miss`: this request's own upstream call, whatever its status;
 * - `stale`: the upstream failed and a row past its TTL answered instead (stale-if-error).
 */
export type DocumentOutcome =
  | { readonly kind: "fresh"; readonly doc: CachedDocument; readonly revalidate: boolean }
  | { readonly kind: "negative"; readonly doc: CachedDocument; readonly revalidate: boolean }
  | { readonly kind: "collapsed"; readonly doc: CachedDocument }
  | { readonly kind: "collapsed"; readonly relayed: Relayed }
  | {
      readonly kind: "miss";
      readonly relayed: Relayed;
      readonly stored: boolean;
      readonly fwd: Forwarded;
    }
  | {
      readonly kind: "stale";
      readonly doc: CachedDocument;
      readonly fwd: Forwarded;
      readonly fwdStatus: number;
    };

/** What reading the cache found: an answer, or the need to ask the upstream. */
export type DocumentLookup =
  | Extract<DocumentOutcome, { kind: "fresh" | "negative" }>
  | {
      readonly kind: "upstream";
      readonly fwd: Forwarded;
      /** A row too old to serve by itself, still better than an upstream failure. */
      readonly fallback: CachedDocument | null;
    };

/**
 * Reads the cache for `spec`. `revalidationAsked`: the caller sent `Cache-Control: no-cache`,
 * so no cached row answers by itself. A row this isolate holds in memory answers first; with
 * none, a fetch of the document already under way here is joined without reading D1 (its answer
 * is newer than any row D1 has); otherwise D1 is read (concurrent reads share one).
 */
export async function lookupDocument(
  deps: DocumentFetchDeps,
  policy: FreshnessPolicy,
  spec: CachedFetchSpec,
  revalidationAsked: boolean,
): Promise<DocumentLookup> {
  const held = deps.cache.peek(spec.key);
  if (!held && !revalidationAsked && deps.flights.joining(documentKeyOf(spec.key))) {
    return { kind: "upstream", fwd: "uri-miss", fallback: null };
  }
  const cached = held ?? (await deps.cache.get(spec.key, (work) => deps.defer(work)));
  const state: Freshness = cached ? freshness(cached, deps.clock.now(), policy) : "expired";
  if (cached && !revalidationAsked && (state === "fresh" || state === "revalidate")) {
    return { kind: cached.negative ? "negative" : "fresh", doc: cached, revalidate: state === "revalidate" };
  }
  return {
    kind: "upstream",
    fwd: revalidationAsked ? "request" : cached ? "stale" : "uri-miss",
    fallback: cached && state !== "expired" ? cached : null,
  };
}

/** How many refused flights a request joins before it asks the upstream outside any flight. */
const MAX_REFUSED_JOINS = 8;

type Answered = { readonly value: Exclude<SharedFetch, { refused: unknown }>; readonly leader: boolean };

/**
 * One shared upstream fetch of `spec`. A flight whose leader could not pay ends `refused`: its
 * leader throws its own reason, and a request that joined it tries again, leading the next
 * flight unless another request already does (after MAX_REFUSED_JOINS it pays and asks alone).
 */
async function answeredFetch(
  deps: DocumentFetchDeps,
  spec: CachedFetchSpec,
  options: SharedFetchOptions,
): Promise<Answered> {
  for (let joins = 0; joins < MAX_REFUSED_JOINS; joins++) {
    const { value, leader } = await sharedFetch(deps, spec, options);
    if (!("refused" in value)) return { value, leader };
    if (leader) throw value.refused;
  }
  await options.beforeFetch?.();
  return { value: { found: null, ...(await fetchAndStore(deps, spec)) }, leader: true };
}

/**
 * Asks the upstream for `spec` (one call for all concurrent misses of the document) after a
 * lookup said to. `beforeFetch` runs only if this request leads the call, before it (the
 * leader's charge; what it throws is thrown); a request that joins another's call does no work
 * of its own, D1 included. An upstream that cannot be reached, or that fails, is answered by the
 * lookup's fallback row when there is one; without one, an unreachable upstream throws its
 * ApiError (502/504) and a failing answer is the `miss` outcome with that status.
 */
export async function fetchDocument(
  deps: DocumentFetchDeps,
  spec: CachedFetchSpec,
  lookup: Extract<DocumentLookup, { kind: "upstream" }>,
  beforeFetch?: () => Promise<void>,
): Promise<{ outcome: DocumentOutcome; calledUpstream: boolean }> {
  const { fwd, fallback } = lookup;
  let refused: { error: unknown } | undefined;
  const options: SharedFetchOptions = {
    recheck: fwd !== "request",
    beforeFetch:
      beforeFetch &&
      (() =>
        beforeFetch().catch((error: unknown) => {
          refused = { error };
          throw error;
        })),
  };
  let shared: Answered;
  try {
    shared = await answeredFetch(deps, spec, options);
  } catch (error) {
    // This request's own refusal (its charge) is its answer; only an upstream failure may be hidden.
    if (refused && error === refused.error) throw error;
    const failure: ApiError = upstreamFailure(error);
    if (fallback) {
      // Counted as no upstream call: none answered.
      return {
        outcome: { kind: "stale", doc: fallback, fwd, fwdStatus: failure.status("v1") },
        calledUpstream: false,
      };
    }
    throw failure;
  }
  const { value, leader } = shared;
  // Another request's upstream call stored it after this one read the cache.
  if (value.found) return { outcome: { kind: "collapsed", doc: value.found }, calledUpstream: false };
  const status = value.relayed.status;
  // A stale copy hides an upstream failure (5xx, 429), not the upstream's own refusal.
  if (fallback && (status >= 500 || status === 429)) {
    return { outcome: { kind: "stale", doc: fallback, fwd, fwdStatus: status }, calledUpstream: leader };
  }
  if (isSuccess(status) && !leader) {
    return { outcome: { kind: "collapsed", relayed: value.relayed }, calledUpstream: false };
  }
  return {
    outcome: { kind: "miss", relayed: value.relayed, stored: value.stored, fwd },
    calledUpstream: leader,
  };
}
