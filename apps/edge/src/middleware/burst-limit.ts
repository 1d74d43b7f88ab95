import { ApiError } from "@scangate/core";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import type { ApiRoute } from "../pipeline/define-route";

/**
 * The burst limit: 429 `rate_limit_exceeded` with Retry-After. A request counts against the
 * tenant's tier, except on the routes whose definition names the account reads' own bucket
 * (`burst: "account_reads"`), which count against that one only. It runs before the router
 * picks a route, so it knows those routes by method and path; they have no path parameters.
 */
export function burstLimit(routes: readonly ApiRoute[]): MiddlewareHandler<AppEnv> {
  const accountReads = new Set<string>();
  for (const route of routes) {
    if (route.burst !== "account_reads") continue;
    if (route.path.includes(":"))
      throw new Error(`${route.path}: an account_reads route must be a fixed path`);
    accountReads.add(`${route.method} ${route.path}`);
    if (route.method === "GET") accountReads.add(`HEAD ${route.path}`);
  }
  return async function burstLimit(c, next) {
    const { tenant } = c.get("account");
    const services = c.get("services");
    const limiter = accountReads.has(`${c.req.method} ${c.req.path}`)
      ? services.accountReads
      : services.rateLimiter;
    const decision = await limiter.check(tenant.id, tenant.tier);
    if (!decision.allowed) {
      c.header("Retry-After", String(decision.retryAfterSeconds));
      throw new ApiError("rate_limited");
    }
    await next();
  };
}
