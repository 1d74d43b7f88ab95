import type { BulkFetchDeps } from "../cache/bulk-fetch";
import { type BulkLookup, type BulkOutcome, bulkFromCache, fetchMissingBulk } from "../cache/serve-bulk";
import { CreditHolds } from "../quota/holds";
import type { Charge } from "../quota/ledger";
import { type ApiContext, chargeRequest, refundRequest } from "./exchange";

// Charges whose cost is known only from the answer, as the Platform bills: held at their most
// before the call, settled to what the answer cost after it. The Platform's own routes (/v3) and,
// on an edge whose upstream speaks only the Platform API, the legacy calls translated into them.

/** What a refund made through a hold changes in this request's quota headers and usage. */
function noteRefund(c: ApiContext, refunded: Charge): void {
  const quota = { ...c.get("quota"), used: Math.max(0, c.get("quota").used - refunded.cost) };
  c.set("quota", quota);
  c.get("services").auth.rememberQuota(c.get("tenant").apiId, quota);
  c.get("usage").quotaSpent -= refunded.cost;
}

/** A request's charge, and the credit hold that records it when its cost is known only later. */
export interface HeldCharge {
  readonly charge: Charge | null;
  readonly hold: { readonly holds: CreditHolds; readonly id: string } | null;
}

/**
 * Settles a call's charge to what it spent, giving back the rest: through its hold when it has
 * one (nothing more when the hold already expired and was released), else as a plain refund.
 */
export async function settle(c: ApiContext, { charge, hold }: HeldCharge, spent: number): Promise<void> {
  if (!charge) return;
  const rest = { ...charge, cost: charge.cost - spent };
  if (!hold) {
    if (rest.cost > 0) await refundRequest(c, rest);
    return;
  }
  try {
    // The hold's row is the claim: settling deletes it, then gives the rest back (if any).
    if ((await hold.holds.settle(hold.id, charge, Math.min(spent, charge.cost))) && rest.cost > 0)
      noteRefund(c, rest);
  } catch (error) {
    console.error(
      "credit hold settlement failed; it is released at expiry",
      error instanceof Error ? error.message : error,
    );
  }
}

/**
 * Charges the request's cost (set on it) as its most and records a credit hold for it, released
 * whole by maintenance if the request never settles (`settle` gives back what was not spent).
 */
export async function holdCharge(c: ApiContext): Promise<HeldCharge> {
  const services = c.get("services");
  const charge = await chargeRequest(c, { held: true });
  if (!charge) return { charge, hold: null };
  const holds = new CreditHolds(services.db, services.quota);
  return { charge, hold: { holds, id: await holds.open(charge, services.clock.now()) } };
}

/** Charges what the cache answered when hits are charged; otherwise counts it as saved. */
export async function chargeHits(c: ApiContext, credits: number): Promise<void> {
  if (credits === 0) return;
  if (!c.get("services").config.cache.hitsCharged) {
    c.get("usage").quotaSaved += credits;
    return;
  }
  c.set("cost", credits);
  await chargeRequest(c);
}

/** Assets the cache answered by itself: known ones only (an unknown id costs nothing). */
function cachedAssets(lookup: BulkLookup): number {
  let known = 0;
  for (const key of lookup.entries.keys()) if (lookup.states.get(key)?.doc.negative === false) known += 1;
  return known;
}

/**
 * Serves a bulk lookup billed per asset at `credits` each. The most the missing ids can cost is
 * held first, so a call that would overspend never reaches the upstream; it settles to the
 * assets the upstream answered for this request (`unattributed()`: answered assets the codec
 * could not match to an id asked, paid all the same). What the cache or other requests' calls
 * answered follows the hit rule. A failed fetch gives the whole hold back.
 */
export async function serveBulkPerAsset(
  c: ApiContext,
  deps: BulkFetchDeps,
  lookup: BulkLookup,
  credits: number,
  unattributed: () => number = () => 0,
): Promise<BulkOutcome> {
  const usage = c.get("usage");
  const cached = cachedAssets(lookup);
  if (lookup.toFetch.length === 0) {
    await chargeHits(c, cached * credits);
    usage.cacheHit = true;
    return bulkFromCache(lookup);
  }
  c.set("cost", lookup.toFetch.length * credits);
  const charged = await holdCharge(c);
  let outcome: Awaited<ReturnType<typeof fetchMissingBulk>>;
  try {
    outcome = await fetchMissingBulk(deps, lookup);
  } catch (error) {
    await settle(c, charged, 0);
    throw error;
  }
  if (outcome.kind !== "collapsed" && outcome.calledUpstream) usage.upstreamCalls += 1;
  if (outcome.kind === "failed") {
    await settle(c, charged, 0);
    return outcome;
  }
  await settle(c, charged, (outcome.known.own + unattributed()) * credits);
  await chargeHits(c, (cached + outcome.known.joined) * credits);
  if (outcome.kind === "collapsed") usage.cacheHit = true;
  return outcome;
}
