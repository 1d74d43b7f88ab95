import { ApiError } from "@scangate/core";
import { type BasicCredentials, parseBasicAuth } from "@scangate/core/http";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import type { Defer } from "../auth/tenant-auth";
import { BoundedMemo } from "../http/bounded-memo";
import type { TenantRow } from "../db/schema";
import { unmetered } from "../db/statement-meter";
import type { EdgeServices } from "../services";
import { effectiveQuota, type QuotaState } from "../tenants/periods";

/** Don't write last_seen_at on every request: once a minute per tenant is plenty. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** How many distinct Authorization values the isolate remembers the parse of. */
const PARSED_HEADERS_MAX = 256;

const parsed = new BoundedMemo<BasicCredentials | null>(PARSED_HEADERS_MAX);

/**
 * The Basic credentials of a request's Authorization value, decoded once per value while it is
 * remembered: a team's clients send the same few values on every request. Only the decoding is
 * kept; the authenticator still checks the secret (and a disabled or deleted tenant) on every
 * request.
 */
export function basicCredentialsOf(request: Request): BasicCredentials | null {
  const header = request.headers.get("Authorization");
  if (header === null) return null;
  const known = parsed.get(header);
  return known !== undefined ? known : parsed.remember(header, parseBasicAuth(request));
}

/** The scheme of an Authorization value, lower-cased ("basic", "bearer", ...). */
export function authScheme(header: string | undefined): string | undefined {
  return header?.trim().split(/\s+/, 1)[0]?.toLowerCase();
}

/**
 * A request's background work: started outside the request's own D1 statement count (it is not
 * on the request's path) and kept alive past the response by its `waitUntil`.
 */
export function deferTo(ctx: ExecutionContext): Defer {
  return (work) => ctx.waitUntil(unmetered(work));
}

export function deferFor(c: Context<AppEnv>): Defer {
  return deferTo(c.executionCtx);
}

/**
 * Admits an authenticated tenant's request: its last-seen time is written at most once a minute
 * (in the background), and its quota now is what the request starts from.
 */
export function admit(services: EdgeServices, tenant: TenantRow, defer: Defer): QuotaState {
  const now = services.clock.now();
  if (tenant.lastSeenAt === null || now - tenant.lastSeenAt >= LAST_SEEN_RESOLUTION_MS) {
    tenant.lastSeenAt = now;
    defer(() => services.tenants.touch(tenant.id, now));
  }
  return effectiveQuota(tenant, now);
}

/** Lets an authenticated tenant's request on (`admit`): the tenant and its quota go on the request. */
export function admitTenant(c: Context<AppEnv>, tenant: TenantRow): void {
  c.set("tenant", tenant);
  c.set("quota", admit(c.get("services"), tenant, deferFor(c)));
}

const BEARER_ON_LEGACY =
  "Bearer tokens are for the Platform API (/v3); /api routes take HTTP Basic with your API ID and secret.";

/**
 * HTTP Basic auth of tenants (API id as user name, secret as password), what every Censys
 * client sends. v1 refuses with 403 (the spec's `unathorized` body), v2 with 401 and a
 * `WWW-Authenticate` challenge; both bodies come from core's error table.
 */
export function tenantAuth(): MiddlewareHandler<AppEnv> {
  return async function tenantAuth(c, next) {
    const services = c.get("services");
    const credentials = basicCredentialsOf(c.req.raw);
    const outcome = credentials
      ? await services.auth.authenticate(credentials.username, credentials.password, deferFor(c))
      : ({ ok: false, reason: "missing" } as const);
    if (!outcome.ok) {
      c.header("WWW-Authenticate", 'Basic realm="scangate"');
      throw new ApiError(
        "unauthorized",
        outcome.reason === "disabled"
          ? "This API ID is disabled; ask the endpoint's administrator."
          : authScheme(c.req.header("Authorization")) === "bearer"
            ? BEARER_ON_LEGACY
            : undefined,
      );
    }
    admitTenant(c, outcome.tenant);
    await next();
  };
}
