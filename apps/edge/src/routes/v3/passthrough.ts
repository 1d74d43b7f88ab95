import { ApiError } from "@scangate/core";
import { requestTarget } from "@scangate/core/http";
import { type ApiContext, chargeRequest, readRequestBody, refundRequest } from "../../api/exchange";
import type { Charge } from "../../quota/ledger";
import { CreditHolds } from "../../quota/holds";
import { type PlatformRelayed, relayPlatform } from "../../upstream/platform";

import { isVariableCost, maximumCredits, platformOperation, settledCredits } from "./credits";
import { definePlatformRoute } from "./define";

/** Headers of a Platform answer the caller gets (bodies are read whole, so no length or encoding). */
function relayedHeaders(contentType: string | null, retryAfter: string | null): Headers {
  const headers = new Headers({ "content-type": contentType ?? "application/json" });
  if (retryAfter !== null) headers.set("retry-after", retryAfter);
  return headers;
}

/** What a refund made through a hold changes in this request's quota headers and usage. */
function noteRefund(c: ApiContext, refunded: Charge): void {
  const quota = { ...c.get("quota"), used: Math.max(0, c.get("quota").used - refunded.cost) };
  c.set("quota", quota);
  c.get("services").auth.rememberQuota(c.get("tenant").apiId, quota);
  c.get("usage").quotaSpent -= refunded.cost;
}

/**
 * Settles a call's charge to what it spent, giving back the rest: through its hold when it has
 * one (nothing more when the hold already expired and was released), else as a plain refund.
 */
export async function settle(
  c: ApiContext,
  holds: CreditHolds,
  hold: string | null,
  charge: Charge | null,
  spent: number,
): Promise<void> {
  if (!charge) return;
  const rest = { ...charge, cost: charge.cost - spent };
  if (!hold) {
    if (rest.cost > 0) await refundRequest(c, rest);
    return;
  }
  try {
    // The hold's row is the claim: settling deletes it, then gives the rest back (if any).
    if ((await holds.settle(hold, charge, Math.min(spent, charge.cost))) && rest.cost > 0)
      noteRefund(c, rest);
  } catch (error) {
    console.error(
      "credit hold settlement failed; it is released at expiry",
      error instanceof Error ? error.message : error,
    );
  }
}

/**
 * Every /v3 request (GET and POST), forwarded to the Platform upstream with a pool token and its
 * organization: the caller's token and organization id never leave the edge. The answer keeps
 * its status, bytes and content type (problem+json errors included).
 *
 * Credits (routes/v3/credits.ts): the call's maximum is charged to the tenant's ledger before it
 * is forwarded (a call that would overspend is a 422 and never reaches the upstream); a failed
 * call (timeout, 4xx, 5xx) is refunded whole, and a bulk settles to the assets it answered with,
 * the rest of its hold given back.
 */
export const platformForwardRoute = definePlatformRoute({
  methods: ["GET", "POST"],
  path: "/v3/*",
  operation: "v3_forward",
  cost: 0,
  summary: "Forward a Platform API request to the upstream with the pool's token and organization",
  handler: async (c) => {
    const { platform, config } = c.get("services");
    if (!platform) {
      throw new ApiError(
        "unavailable",
        "this endpoint has no Platform upstream configured (PLATFORM_CREDENTIALS); tell its operator",
      );
    }
    const body = await readRequestBody(c);
    const { pathname, search } = requestTarget(c.req.url);
    const operation = platformOperation(c.req.method, pathname);
    c.get("usage").operation = operation ?? "v3_forward";
    const held = maximumCredits(operation, body);
    c.set("cost", held);
    // A call whose cost is known only from its answer records its hold, released if never settled.
    const variable = isVariableCost(operation);
    const charge = await chargeRequest(c, { held: variable });
    const holds = new CreditHolds(c.get("services").db, c.get("services").quota);
    const hold = charge && variable ? await holds.open(charge, c.get("services").clock.now()) : null;
    c.get("usage").upstreamCalls += 1;
    let relayed: PlatformRelayed;
    try {
      relayed = await relayPlatform(
        platform,
        {
          method: c.req.method,
          target: pathname.replace(/\/{2,}/g, "/") + search,
          body,
          contentType: body ? (c.req.header("content-type") ?? "application/json") : undefined,
          accept: c.req.header("accept"),
        },
        config.upstreamTimeoutMs,
      );
    } catch (error) {
      await settle(c, holds, hold, charge, 0);
      throw error;
    }
    const failed = relayed.status < 200 || relayed.status >= 300;
    await settle(c, holds, hold, charge, failed ? 0 : settledCredits(operation, held, relayed.body));
    const bodiless = relayed.status === 204 || relayed.status === 205 || relayed.status === 304;
    return new Response(bodiless ? null : relayed.body, {
      status: relayed.status,
      headers: relayedHeaders(relayed.contentType, relayed.retryAfter),
    });
  },
});
