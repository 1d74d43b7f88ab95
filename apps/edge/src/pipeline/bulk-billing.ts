import type { BulkFetchDeps } from "../cache/bulk-fetch";
import { type BulkLookup, type BulkOutcome, bulkFromCache, fetchMissingBulk } from "../cache/serve-bulk";
import type { ApiContext } from "./define-route";

// A bulk lookup priced per asset, as the Platform bills: the ids the cache lacks are held at
// their most before the one upstream call, and settled to the assets the answer held.

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
