import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import { quotaHeaders } from "../quota/headers";

/**
 * After an authenticated API request: the quota's RateLimit headers on whatever answer it
 * got, and its usage event, written in the background (batched).
 */
export function usageAndQuotaHeaders(): MiddlewareHandler<AppEnv> {
  return async function usageAndQuotaHeaders(c, next) {
    const usage = { operation: null, cacheHit: false, upstreamCalls: 0, quotaSpent: 0, quotaSaved: 0 };
    c.set("usage", usage);
    await next();
    const services = c.get("services");
    const tenant = c.get("tenant");
    const now = services.clock.now();
    for (const [name, value] of Object.entries(quotaHeaders(c.get("quota"), tenant.period, now))) {
      c.res.headers.set(name, value);
    }
    // Answers carry one tenant's quota: no shared cache in front of the edge may keep them.
    c.res.headers.set("Cache-Control", "private, no-store");
    const flush = services.usage.record({
      tenantId: tenant.id,
      operation: usage.operation ?? "unknown",
      at: now,
      cacheHit: usage.cacheHit,
      upstreamCalls: usage.upstreamCalls,
      error: c.res.status >= 400,
      quotaSpent: usage.quotaSpent,
      quotaSaved: usage.quotaSaved,
    });
    if (flush) c.executionCtx.waitUntil(flush);
  };
}
