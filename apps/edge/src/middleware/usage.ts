import type { MiddlewareHandler } from "hono";
import type { AppEnv, RequestUsage } from "../app-env";
import type { TenantRow } from "../db/schema";
import { quotaHeaders } from "../quota/headers";
import type { EdgeServices } from "../services";
import type { QuotaState } from "../tenants/periods";

/**
 * What every authenticated API answer gets: the quota's RateLimit headers, Cache-Control, and
 * its usage event, recorded in the background (batched; the flush goes to `waitUntil`).
 */
export function finishTenantAnswer(
  services: EdgeServices,
  response: Response,
  request: { tenant: TenantRow; quota: QuotaState; usage: RequestUsage },
  waitUntil: (work: Promise<void>) => void,
): void {
  const { tenant, usage } = request;
  const now = services.clock.now();
  for (const [name, value] of Object.entries(quotaHeaders(request.quota, tenant.period, now))) {
    response.headers.set(name, value);
  }
  // Answers carry one tenant's quota: no shared cache in front of the edge may keep them.
  response.headers.set("Cache-Control", "private, no-store");
  const flush = services.usage.record({
    tenantId: tenant.id,
    operation: usage.operation ?? "unknown",
    at: now,
    cacheHit: usage.cacheHit,
    upstreamCalls: usage.upstreamCalls,
    error: response.status >= 400,
    quotaSpent: usage.quotaSpent,
    quotaSaved: usage.quotaSaved,
  });
  if (flush) waitUntil(flush);
}

/** After an authenticated API request: `finishTenantAnswer` on whatever answer it got. */
export function usageAndQuotaHeaders(): MiddlewareHandler<AppEnv> {
  return async function usageAndQuotaHeaders(c, next) {
    const usage = { operation: null, cacheHit: false, upstreamCalls: 0, quotaSpent: 0, quotaSaved: 0 };
    c.set("usage", usage);
    await next();
    finishTenantAnswer(
      c.get("services"),
      c.res,
      { tenant: c.get("tenant"), quota: c.get("quota"), usage },
      (work) => c.executionCtx.waitUntil(work),
    );
  };
}
