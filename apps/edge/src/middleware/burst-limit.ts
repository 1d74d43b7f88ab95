import { ApiError } from "@scangate/core";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";

/** The burst limit of the tenant's tier: 429 `rate_limit_exceeded` with Retry-After. */
export function burstLimit(): MiddlewareHandler<AppEnv> {
  return async function burstLimit(c, next) {
    const tenant = c.get("tenant");
    const decision = await c.get("services").rateLimiter.check(tenant.id, tenant.tier);
    if (!decision.allowed) {
      c.header("Retry-After", String(decision.retryAfterSeconds));
      throw new ApiError("rate_limited");
    }
    await next();
  };
}
