import { ApiError } from "@scangate/core";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import type { TokenRefusal } from "../auth/tenant-auth";
import type { Defer } from "../db/statement-meter";
import { authenticate, authScheme } from "./tenant-auth";

/** An Authorization value of the Bearer scheme, and its token. */
export const BEARER = /^Bearer +(\S+) *$/i;

const REFUSALS: Record<TokenRefusal, string> = {
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
    const { tokens } = c.get("services").auth;
    const header = c.req.header("Authorization");
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    const refusal = (detail?: string) => {
      c.header("WWW-Authenticate", 'Bearer realm="scangate"');
      return new ApiError("unauthorized", detail);
    };
    if (token === undefined) throw refusal(authScheme(header) === "basic" ? BASIC_ON_PLATFORM : undefined);
    const check = {
      known: (defer: Defer) => tokens.known(token, defer),
      authenticate: (defer: Defer) => tokens.authenticate(token, defer),
    };
    await authenticate(c, next, token, check, (reason: TokenRefusal = "unknown_token") =>
      refusal(REFUSALS[reason]),
    );
  };
}
