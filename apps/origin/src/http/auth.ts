import { ApiError } from "@scangate/core";
import { parseBasicAuth } from "@scangate/core/http";
import type { MiddlewareHandler } from "hono";
import { authenticateAccount } from "../services/accounts";
import type { AppEnv } from "./context";

/**
 * HTTP Basic against the origin's own accounts (API ID as user name, secret as password).
 * The error handler renders the failure per version: v1 403 `unathorized`, v2 401 with
 * `WWW-Authenticate`.
 */
export function requireAccount(): MiddlewareHandler<AppEnv> {
  return async function requireAccount(c, next) {
    const credentials = parseBasicAuth(c.req.raw);
    const account = credentials
      ? await authenticateAccount(c.var.services.accounts, credentials.username, credentials.password)
      : null;
    if (!account) throw new ApiError("unauthorized");
    c.set("account", account);
    await next();
  };
}
