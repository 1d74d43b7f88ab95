import { ApiError } from "@scangate/core";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import type { TokenAuthOutcome } from "../auth/tenant-auth";
import { clientAddress } from "../sessions/signin-throttle";
import { authScheme, deferFor, withAccount, refuseCheaply } from "./tenant-auth";

const BEARER = /^Bearer +(\S+) *$/i;

const REFUSALS: Record<Exclude<TokenAuthOutcome, { ok: true }>["reason"], string> = {
  unknown_token: "The bearer token is not valid: unknown, revoked, or replaced by a newer one.",
  grace_ended: "This token was replaced by a newer one and its grace period has ended.",
  disabled: "This tenant is disabled; ask the endpoint's administrator.",
};

const BASIC_ON_PLATFORM =
  "The Platform API (/v3) takes Authorization: Bearer <your scangate Platform token>; " +
  "HTTP Basic credentials (API ID and secret) are for the /api routes.";

/**
 * Bearer-token auth of tenants on the Platform API (/v3), as the official Platform SDKs send
 * it. Every refusal is a 401 problem+json with a `WWW-Authenticate: Bearer` challenge; Basic
 * credentials are refused with a message that says where they belong. The token is checked like
 * a Basic credential: held in memory at most 5 s (auth/tenant-auth.ts), and a refused one costs
 * its caller, not the other tenants (auth/failed-authentications.ts).
 */
export function platformAuth(): MiddlewareHandler<AppEnv> {
  return async function platformAuth(c, next) {
    const services = c.get("services");
    const header = c.req.header("Authorization");
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    const refusal = (detail?: string) => {
      c.header("WWW-Authenticate", 'Bearer realm="scangate"');
      return new ApiError("unauthorized", detail);
    };
    if (token === undefined) {
      throw refusal(authScheme(header) === "basic" ? BASIC_ON_PLATFORM : undefined);
    }
    const defer = deferFor(c);
    const known = services.auth.tokens.known(token, defer);
    refuseCheaply(c, token, known !== null, () => refusal(REFUSALS.unknown_token));
    // A token this isolate checked lately is not checked again.
    const outcome: TokenAuthOutcome = known
      ? { ok: true, tenant: known }
      : await services.auth.tokens.authenticate(token, defer);
    if (!outcome.ok) {
      if (outcome.reason !== "disabled") await services.auth.failures.failed(token, clientAddress(c.req.raw));
      throw refusal(REFUSALS[outcome.reason]);
    }
    await withAccount(c, outcome.tenant, next);
  };
}
