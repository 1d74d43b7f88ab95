import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import { notImplementedResponse, untranslatedRoute } from "../upstream/platform-gaps";

/**
 * With a Platform-only upstream (UPSTREAM_API=platform), a legacy route that has no Platform
 * equivalent (SQL jobs, exports, raw data, ...) answers its 501 here, before its route charges
 * the tenant: a tenant whose quota is spent still learns why the route cannot work.
 */
export function untranslatedRoutes(): MiddlewareHandler<AppEnv> {
  return async function untranslatedRoutes(c, next) {
    if (c.get("services").config.upstreamApi !== "platform") return next();
    const path = c.req.path.replace(/\/{2,}/g, "/").replace(/^\/api(?=\/)/, "");
    if (untranslatedRoute(path) === null) return next();
    c.get("usage").operation = "untranslated";
    return notImplementedResponse(path);
  };
}
