import { ApiError } from "@scangate/core";
import { secretsEqual } from "@scangate/core/http";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import { BEARER } from "./platform-auth";

/** The admin API takes `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. */
export function adminAuth(): MiddlewareHandler<AppEnv> {
  return async function adminAuth(c, next) {
    const presented = BEARER.exec(c.req.header("authorization") ?? "")?.[1];
    const expected = c.get("services").config.adminToken;
    if (!presented || !(await secretsEqual(presented, expected))) {
      c.header("WWW-Authenticate", 'Bearer realm="scangate-admin"');
      throw new ApiError("unauthorized", "The admin API needs Authorization: Bearer <ADMIN_TOKEN>.");
    }
    await next();
  };
}
