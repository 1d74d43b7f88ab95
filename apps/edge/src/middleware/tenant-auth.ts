import { ApiError } from "@scangate/core";
import { parseBasicAuth } from "@scangate/core/http";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import { effectiveQuota } from "../tenants/periods";

/** Don't write last_seen_at on every request: once a minute per tenant is plenty. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/**
 * HTTP Basic auth of tenants (API id as user name, secret as password), what every Censys
 * client sends. v1 refuses with 403 (the spec's `unathorized` body), v2 with 401 and a
 * `WWW-Authenticate` challenge; both bodies come from core's error table.
 */
export function tenantAuth(): MiddlewareHandler<AppEnv> {
  return async function tenantAuth(c, next) {
    const services = c.get("services");
    const credentials = parseBasicAuth(c.req.raw);
    const outcome = credentials
      ? await services.auth.authenticate(credentials.username, credentials.password)
      : ({ ok: false, reason: "missing" } as const);
    if (!outcome.ok) {
      c.header("WWW-Authenticate", 'Basic realm="scangate"');
      throw new ApiError(
        "unauthorized",
        outcome.reason === "disabled"
          ? "This API ID is disabled; ask the endpoint's administrator."
          : undefined,
      );
    }
    const tenant = outcome.tenant;
    const now = services.clock.now();
    c.set("tenant", tenant);
    c.set("quota", effectiveQuota(tenant, now));
    if (tenant.lastSeenAt === null || now - tenant.lastSeenAt >= LAST_SEEN_RESOLUTION_MS) {
      tenant.lastSeenAt = now;
      c.executionCtx.waitUntil(services.tenants.touch(tenant.id, now));
    }
    await next();
  };
}
