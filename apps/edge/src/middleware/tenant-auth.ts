import { ApiError } from "@scangate/core";
import { type BasicCredentials, parseBasicAuth } from "@scangate/core/http";
import type { Context, MiddlewareHandler, Next } from "hono";
import type { AppEnv } from "../app-env";
import type { AuthOutcome, AuthRefusal } from "../auth/tenant-auth";
import { BoundedMemo } from "../http/bounded-memo";
import type { TenantRow } from "../db/schema";
import { termsOf } from "../ledger/balances";
import type { LedgerClient } from "../ledger/ledgers";
import { type Defer, unmetered } from "../db/statement-meter";
import { ledgerUnavailable, RequestAccount, Refusal } from "../pipeline/account";
import { clientAddress } from "../sessions/signin-throttle";
import type { QuotaState } from "../tenants/periods";

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
 * A request's background work: started outside the request's own D1 statement and ledger call
 * count (it is not on the request's path) and kept alive past the response by its `waitUntil`.
 */
export function deferFor(c: Context<AppEnv>): Defer {
  const ctx = c.executionCtx;
  return (work) => ctx.waitUntil(unmetered(work));
}

/**
 * Runs the rest of an authenticated tenant request (`next`) inside its account
 * (pipeline/account.ts), which closes with the answer, whatever it is (`finish`: RateLimit
 * headers, Cache-Control, the usage event, written in the background). The tenant's last-seen
 * time is written at most once a minute, in the background. Its quota is the one this isolate
 * last heard from the tenant's ledger (read again in the background once seconds old), so a
 * request the ledger has no part in (a free cache hit) never waits on it, nor makes a stub of
 * it; the first request of a tenant in an isolate reads it.
 */
export async function withAccount(c: Context<AppEnv>, tenant: TenantRow, next: Next): Promise<void> {
  const services = c.get("services");
  const { clock, quotas } = services;
  const defer = deferFor(c);
  const now = clock.now();
  if (tenant.lastSeenAt === null || now - tenant.lastSeenAt >= LAST_SEEN_RESOLUTION_MS) {
    tenant.lastSeenAt = now;
    defer(() => services.tenants.touch(tenant.id, now));
  }
  let stub: LedgerClient | undefined;
  const ledger = () => (stub ??= services.ledgers(tenant.id));
  const remember = (quota: QuotaState) => quotas.remember(tenant.id, quota, clock.now());
  const read = async () => {
    const { quota } = await ledger().read({ terms: termsOf(tenant), now });
    remember(quota);
    return quota;
  };
  const known = quotas.get(tenant.id);
  // A failed read in the background leaves the known quota as it is; the next request tries again.
  if (known && now - known.at >= quotas.refreshMs) defer(() => read().catch(() => undefined));
  const quota =
    known?.quota ??
    (await read().catch((error: unknown) => {
      throw ledgerUnavailable(error);
    }));
  const account = new RequestAccount(tenant, quota, {
    ledger,
    charge: (request) =>
      services.charges.charge(tenant.id, ledger, request, (work) => c.executionCtx.waitUntil(work)),
    clock,
    holdMs: HOLD_DEADLINES * services.config.upstreamTimeoutMs,
    hitsCharged: services.config.cache.hitsCharged,
    remember,
    record: (event) => services.usage.record(event),
  });
  c.set("account", account);
  await next();
  const flush = account.finish(c.res);
  if (flush) c.executionCtx.waitUntil(flush);
}

/**
 * A hold's request is taken for dead after this many upstream deadlines: a live request has had
 * its answer, or its 504, long before (its cache work included).
 */
const HOLD_DEADLINES = 2;

/** A tenant credential as its authenticator checks it (auth/tenant-auth.ts). */
interface CredentialCheck<Reason extends string> {
  /** The tenant, when this isolate checked the credential lately and found it good (no D1). */
  known(defer: Defer): TenantRow | null;
  authenticate(defer: Defer): Promise<AuthOutcome<Reason>>;
}

/**
 * Authenticates a tenant request, then runs the rest of it in the tenant's account. A credential
 * this isolate checked lately is not checked again. One refused lately, or one not known good
 * from an address past its failure limit, is refused before anything is read. A refusal costs
 * its caller (`credential`, remembered a few seconds, and its address), except a disabled
 * tenant's: only someone holding the credential learns that, which is no guess.
 */
export async function authenticate<Reason extends string>(
  c: Context<AppEnv>,
  next: Next,
  credential: string | undefined,
  check: CredentialCheck<Reason>,
  refusal: (reason?: Reason) => ApiError,
): Promise<void> {
  const { failures } = c.get("services").auth;
  const defer = deferFor(c);
  const known = check.known(defer);
  if (credential !== undefined && failures.recentlyRefused(credential)) throw refusal();
  if (!known) {
    const decision = failures.addressRefusal(clientAddress(c.req.raw));
    if (!decision.allowed) {
      throw new Refusal("rate_limited", "Too many failed authentications from this address; retry later.", {
        "Retry-After": String(decision.retryAfterSeconds),
      });
    }
  }
  const outcome = known ? { ok: true as const, tenant: known } : await check.authenticate(defer);
  if (!outcome.ok) {
    if (outcome.reason !== "disabled") await failures.failed(credential, clientAddress(c.req.raw));
    throw refusal(outcome.reason);
  }
  await withAccount(c, outcome.tenant, next);
}

const BEARER_ON_LEGACY =
  "Bearer tokens are for the Platform API (/v3); /api routes take HTTP Basic with your API ID and secret.";

/**
 * HTTP Basic auth of tenants (API id as user name, secret as password), what every Censys
 * client sends. v1 refuses with 403 (the spec's `unathorized` body), v2 with 401 and a
 * `WWW-Authenticate` challenge; both bodies come from core's error table. A refused credential
 * costs the caller (auth/failed-authentications.ts), not the other tenants.
 */
export function tenantAuth(): MiddlewareHandler<AppEnv> {
  return async function tenantAuth(c, next) {
    const { auth } = c.get("services");
    const header = c.req.header("Authorization");
    const credentials = basicCredentialsOf(c.req.raw);
    const refusal = (reason?: AuthRefusal) => {
      c.header("WWW-Authenticate", 'Basic realm="scangate"');
      return new ApiError(
        "unauthorized",
        reason === "disabled"
          ? "This API ID is disabled; ask the endpoint's administrator."
          : authScheme(header) === "bearer"
            ? BEARER_ON_LEGACY
            : undefined,
      );
    };
    if (!credentials) throw refusal();
    const { username, password } = credentials;
    const check = {
      known: (defer: Defer) => auth.known(username, password, defer),
      authenticate: (defer: Defer) => auth.authenticate(username, password, defer),
    };
    await authenticate(c, next, header, check, refusal);
  };
}
