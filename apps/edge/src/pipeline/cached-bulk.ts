import type { KeptBulkRequest } from "../cache/bulk-answers";
import { type BulkCodec, type BulkFetchDeps, fetchBulk } from "../cache/bulk-fetch";
import { cacheStatus, wantsRevalidation } from "../cache/cache-status";
import { freshnessPolicy } from "../cache/freshness";
import {
  type BulkLookup,
  bulkCacheOutcome,
  type BulkOutcome,
  bulkFromCache,
  fetchMissingBulk,
  lookupBulk,
} from "../cache/serve-bulk";
import { relayedResponse } from "../upstream/relay";
import type { ApiContext } from "./define-route";

// A bulk lookup through the shared cache (the legacy certificates bulk and the Platform's asset
// lists): the cache read, and the bulk priced per asset, as the Platform bills: the ids the cache
// lacks are held at their most before the one upstream call, and settled to the assets the
// answer held.

/**
 * Reads the cache for a bulk of `keys` (rows of `codec`, the missing ones asked for with
 * `postBulk`), revalidating in the background the stale rows the caller asked to have revalidated.
 */
export async function lookupCachedBulk(
  c: ApiContext,
  keys: readonly string[],
  codec: BulkCodec,
  postBulk: BulkFetchDeps["postBulk"],
): Promise<{ deps: BulkFetchDeps; lookup: BulkLookup }> {
  const services = c.get("services");
  const deps: BulkFetchDeps = {
    codec,
    cache: services.cache,
    clock: services.clock,
    flights: services.flights,
    negativeTtlSeconds: services.config.cache.negativeTtlSeconds,
    defer: (work) => c.executionCtx.waitUntil(work),
    postBulk,
  };
  const lookup = await lookupBulk(
    deps,
    freshnessPolicy(services.config.cache),
    keys,
    wantsRevalidation(c.req.raw.headers),
  );
  if (lookup.toRevalidate.length > 0) {
    c.get("account").upstreamCall();
    // Refreshes the rows served within stale-while-revalidate.
    c.executionCtx.waitUntil(fetchBulk(deps, lookup.toRevalidate));
  }
  return { deps, lookup };
}

/** Assets the cache answered by itself: known ones only (an unknown id costs nothing). */
function cachedAssets(lookup: BulkLookup): number {
  let known = 0;
  for (const key of lookup.entries.keys()) if (lookup.states.get(key)?.doc.negative === false) known += 1;
  return known;
}

/**
 * Serves a bulk lookup priced per asset. The most the missing ids can cost is held first, so a
 * call that would overspend never reaches the upstream; it settles to the assets the upstream
 * answered for this request (`unattributed()`: answered assets the codec could not match to an
 * id asked, paid all the same). What the cache or other requests' calls answered is answered
 * without a call. A failed fetch gives the whole hold back.
 */
export async function serveBulkPerAsset(
  c: ApiContext,
  deps: BulkFetchDeps,
  lookup: BulkLookup,
  unattributed: () => number = () => 0,
): Promise<BulkOutcome> {
  const account = c.get("account");
  const cached = cachedAssets(lookup);
  if (lookup.toFetch.length === 0) {
    account.hit();
    await account.answeredWithoutCall(cached);
    return bulkFromCache(lookup);
  }
  const hold = await account.hold(lookup.toFetch.length);
  let outcome: Awaited<ReturnType<typeof fetchMissingBulk>>;
  try {
    outcome = await fetchMissingBulk(deps, lookup);
  } catch (error) {
    await account.settle(hold, 0);
    throw error;
  }
  if (outcome.kind !== "collapsed" && outcome.calledUpstream) account.upstreamCall();
  if (outcome.kind === "failed") {
    await account.settle(hold, 0);
    return outcome;
  }
  await account.settle(hold, outcome.known.own + unattributed());
  await account.answeredWithoutCall(cached + outcome.known.joined);
  if (outcome.kind === "collapsed") account.hit();
  return outcome;
}

/**
 * The answer for a bulk outcome: the body `merge` makes of its entries (each entry's bytes as the
 * memory tier keeps them), with Cache-Status and Age. One the cache gave whole is kept for the
 * same request (`kept.key`) again. A failed outcome is the upstream's own answer (or its error,
 * thrown).
 */
export function bulkResponse(
  c: ApiContext,
  codec: BulkCodec,
  kept: { readonly key: string; readonly request: KeptBulkRequest },
  outcome: BulkOutcome,
  answer: {
    readonly contentType: string;
    merge(entries: ReadonlyMap<string, string>, bytesOf: (id: string, entry: string) => Uint8Array): Blob;
  },
): Response {
  if (outcome.kind === "failed") {
    if ("error" in outcome.failure) throw outcome.failure.error;
    return relayedResponse(outcome.failure.relayed);
  }
  const { cache, bulkAnswers } = c.get("services");
  const { index, atTime } = codec;
  const assemble = () =>
    answer.merge(outcome.entries, (id, entry) => cache.bodyBytes({ index, id, atTime }, entry));
  const body =
    outcome.kind === "fresh"
      ? bulkAnswers.body(kept.key, kept.request, outcome.entries, assemble)
      : assemble();
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": answer.contentType,
      "Cache-Status": cacheStatus(bulkCacheOutcome(outcome)),
      Age: String(outcome.age),
    },
  });
}
