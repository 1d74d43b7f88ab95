import type { MiddlewareHandler } from "hono";
import { quotaPeriod } from "../services/quota";
import type { AppEnv } from "./context";
import { ApiErrorWithHeaders } from "./errors";

/**
 * Charges the calling account `cost` units (the route's, see routing.ts) before the route runs,
 * and gives the charge back when the route answers an error, so bad input and unknown documents
 * cost nothing.
 */
export function chargeQuota(cost: number): MiddlewareHandler<AppEnv> {
  return async function chargeQuota(c, next) {
    const { quota, clock } = c.var.services;
    const account = c.var.account;
    const now = new Date(clock.now());
    const charge = await quota.charge(account, cost, now);
    if (!charge.ok) {
      const seconds = Math.max(1, Math.ceil((charge.resetsAt.getTime() - now.getTime()) / 1000));
      const { start, resetsAt } = quotaPeriod(now);
      const window = Math.round((resetsAt.getTime() - start.getTime()) / 1000);
      throw new ApiErrorWithHeaders("quota_exceeded", {
        "Retry-After": String(seconds),
        // IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers).
        "RateLimit-Policy": `"quota";q=${account.allowance};w=${window}`,
        RateLimit: `"quota";r=0;t=${seconds}`,
      });
    }
    c.set("usage", charge.usage);
    await next();
    if (c.res.status >= 400) await quota.refund(account, charge);
  };
}
