import { ApiError } from "@scangate/core";
import { requestTarget } from "@scangate/core/http";
import { holdCharge, settle } from "../../api/asset-billing";
import { chargeRequest, readRequestBody } from "../../api/exchange";
import { type PlatformRelayed, relayPlatform } from "../../upstream/platform";

import { isVariableCost, maximumCredits, platformOperation, settledCredits } from "./credits";
import { definePlatformRoute } from "./define";

/** Headers of a Platform answer the caller gets (bodies are read whole, so no length or encoding). */
function relayedHeaders(contentType: string | null, retryAfter: string | null): Headers {
  const headers = new Headers({ "content-type": contentType ?? "application/json" });
  if (retryAfter !== null) headers.set("retry-after", retryAfter);
  return headers;
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
    const charged = isVariableCost(operation)
      ? await holdCharge(c)
      : { charge: await chargeRequest(c), hold: null };
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
      await settle(c, charged, 0);
      throw error;
    }
    const failed = relayed.status < 200 || relayed.status >= 300;
    await settle(c, charged, failed ? 0 : settledCredits(operation, held, relayed.body));
    const bodiless = relayed.status === 204 || relayed.status === 205 || relayed.status === 304;
    return new Response(bodiless ? null : relayed.body, {
      status: relayed.status,
      headers: relayedHeaders(relayed.contentType, relayed.retryAfter),
    });
  },
});
