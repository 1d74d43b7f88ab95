import type { ApiError } from "@scangate/core";
import { type CacheOutcome, cacheStatus, wantsRevalidation } from "../cache/cache-status";
import { ageSeconds, freshness, freshnessPolicy, ttlSeconds } from "../cache/freshness";
import type { CachedDocument } from "../cache/interface";
import { type CachedFetchSpec, sharedFetch } from "../cache/refresh";
import { isSuccess, relayedResponse, upstreamFailure } from "../upstream/relay";
import { type ApiContext, chargeRequest, refundRequest } from "./exchange";

export interface CachedRoute extends CachedFetchSpec {
  /** The answer for a negative row (an unknown document). */
  readonly negativeResponse: (c: ApiContext) => Response;
}

function withCacheHeaders(response: Response, outcome: CacheOutcome, age: number): Response {
  response.headers.set("Cache-Status", cacheStatus(outcome));
  response.headers.set("Age", String(age));
  return response;
}

function fromCache(c: ApiContext, route: CachedRoute, doc: CachedDocument): Response {
  return doc.negative
    ? route.negativeResponse(c)
    : new Response(doc.body, { status: 200, headers: { "content-type": "application/json" } });
}

/** Whether an upstream answer is a failure that a stale copy should hide (stale-if-error). */
function isUpstreamFailure(status: number): boolean {
  return status >= 500 || status === 429;
}

/**
 * A document route behind the shared cache: fresh rows are served free; stale rows within
 * stale-while-revalidate are served and refreshed in the background; otherwise the upstream is
 * asked (one call for all concurrent misses of the document), and an older row still answers
 * when the upstream fails. `Cache-Control: no-cache` from the caller skips the cached copy.
 */
export async function serveCachedDocument(c: ApiContext, route: CachedRoute): Promise<Response> {
  const services = c.get("services");
  const { cache: cacheConfig } = services.config;
  const policy = freshnessPolicy(cacheConfig);
  const usage = c.get("usage");
  const revalidationAsked = wantsRevalidation(c.req.raw.headers);
  const cached = await services.cache.get(route.key);
  const now = services.clock.now();
  const state = cached ? freshness(cached, now, policy) : "expired";

  if (cached && !revalidationAsked && (state === "fresh" || state === "revalidate")) {
    if (cacheConfig.hitsCharged) await chargeRequest(c);
    usage.cacheHit = true;
    if (state === "revalidate") {
      usage.upstreamCalls += 1;
      c.executionCtx.waitUntil(
        sharedFetch(services, route).then(
          () => undefined,
          (error: unknown) => console.error("background revalidation failed", upstreamFailure(error).message),
        ),
      );
    }
    const detail = state === "revalidate" ? { detail: "stale-while-revalidate" as const } : {};
    return withCacheHeaders(
      fromCache(c, route, cached),
      { hit: true, ttl: ttlSeconds(cached, now), ...detail },
      ageSeconds(cached, now),
    );
  }

  const fwd = revalidationAsked ? "request" : cached ? "stale" : "uri-miss";
  const staleFallback = cached && state !== "expired" ? cached : null;
  const serveStale = (fwdStatus: number) => {
    usage.cacheHit = true;
    const doc = staleFallback as CachedDocument;
    const at = services.clock.now();
    return withCacheHeaders(
      fromCache(c, route, doc),
      { hit: false, fwd, stored: false, fwdStatus, detail: "stale-if-error" },
      ageSeconds(doc, at),
    );
  };

  const charge = await chargeRequest(c);
  let outcome;
  try {
    outcome = await sharedFetch(services, route, !revalidationAsked);
  } catch (error) {
    await refundRequest(c, charge);
    const failure: ApiError = upstreamFailure(error);
    if (staleFallback) return serveStale(failure.status("v1"));
    throw failure;
  }
  const { value, leader } = outcome;
  if (value.found) {
    // Another request's upstream call stored it after this one read the cache: a hit after all.
    if (!cacheConfig.hitsCharged) await refundRequest(c, charge);
    usage.cacheHit = true;
    const at = services.clock.now();
    const collapsed: CacheOutcome = { hit: true, ttl: ttlSeconds(value.found, at), detail: "collapsed" };
    return withCacheHeaders(fromCache(c, route, value.found), collapsed, ageSeconds(value.found, at));
  }
  if (leader) usage.upstreamCalls += 1;
  const status = value.relayed.status;
  if (!isSuccess(status)) {
    await refundRequest(c, charge);
    if (staleFallback && isUpstreamFailure(status)) return serveStale(status);
  } else if (!leader && !cacheConfig.hitsCharged) {
    // Another request's upstream call answered this one: that is a cache hit, and hits are free.
    await refundRequest(c, charge);
    usage.cacheHit = true;
    return withCacheHeaders(
      relayedResponse(value.relayed),
      { hit: true, ttl: route.ttlSeconds, detail: "collapsed" },
      0,
    );
  }
  return withCacheHeaders(relayedResponse(value.relayed), { hit: false, fwd, stored: value.stored }, 0);
}
