import { ApiError, type ApiVersion, isApiError } from "@scangate/core";
import { canonicalFetch, errorKindOfHttpStatus, requestIds, versionOfPath } from "@scangate/core/http";
import { type Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { AppEnv } from "./app-env";
import { errorResponse } from "./http/errors";
import { RememberedRoutes } from "./http/remembered-routes";
import { isPlatformPath, problemResponse } from "./http/problem";
import { adminAuth } from "./middleware/admin-auth";
import { burstLimit } from "./middleware/burst-limit";
import { platformAuth } from "./middleware/platform-auth";
import { tenantAuth } from "./middleware/tenant-auth";
import { tenantRequest } from "./middleware/tenant-request";
import { buildOpenApiDocument } from "./openapi/document";
import { Refusal } from "./pipeline/account";
import { tenantRoutes } from "./pipeline/catalog";
import { registerAdminRoutes, registerRoutes } from "./pipeline/define-route";
import { ServiceRegistry } from "./registry";
import { ADMIN_ROUTES } from "./routes/admin";
import { registerDashboardRoutes } from "./routes/dashboard/register";

/**
 * Builds the edge app: one pipeline, read top to bottom in the order a request meets it.
 *
 * Every request: its path in canonical form (core http/request-target.ts: the one spelling
 * routing, pricing, authorisation, cache keys and the upstream all read), a request id, the
 * 405 answer, config and services. Then, for a tenant request (/api: the Censys legacy API;
 * /v3: the Platform API):
 *   1. its version (error shape) and our length limits (URL, q, cursor);
 *   2. authentication (HTTP Basic on /api, a bearer token on /v3), which opens the request's
 *      account (pipeline/account.ts) with the tenant's quota; the account closes with the
 *      answer, whatever it is: RateLimit headers, usage;
 *   3. the tier's burst limit;
 *   4. the route, which names its operation and price to the account (pipeline/define-route.ts);
 *      a cached route may answer from memory there, a legacy route the Platform cannot answer
 *      answers its 501, and every upstream call is charged, held, settled or refunded by the
 *      account.
 * /admin takes the bearer admin token. Errors are rendered from core's one table, in the shape
 * of the path's API (problem+json on /v3).
 */
export function createApp(registry: ServiceRegistry = new ServiceRegistry()): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ router: new RememberedRoutes() });
  /** An error in the shape of the path's API: problem+json on /v3, v1 or v2 bodies elsewhere. */
  const errorFor = (c: Context<AppEnv>, error: ApiError, version = versionOfPath(c.req.path)) =>
    isPlatformPath(c.req.path) ? problemResponse(c, error) : errorResponse(c, error, version);
  app.use(requestIds());
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) => {
        c.header("Allow", methods.join(", "));
        return errorFor(c, new ApiError("method_not_allowed"));
      },
    }),
  );
  // Not async: the common case hands on `next`'s own promise, with no wrapper of its own.
  app.use(function services(c, next) {
    const resolved = registry.resolve(c.env);
    if (resolved.ok) {
      c.set("services", resolved.services);
      return next();
    }
    console.error(`edge config invalid: ${resolved.problems.join("; ")}`);
    const message = `edge misconfigured: ${resolved.problems.join("; ")}`;
    return Promise.resolve(errorFor(c, new ApiError("internal", message)));
  });

  app.get("/health", (c) => c.json({ status: "ok", service: "edge" }));
  // Public: the document describes routes, not data. Built on first request, then kept.
  let openApi: Record<string, unknown> | undefined;
  app.get("/openapi.json", (c) => {
    openApi ??= buildOpenApiDocument("/");
    return c.json(openApi);
  });
  // HTML dashboard and admin console: before the /api and /admin auth middleware, which they
  // answer ahead of (they use their own session cookies). Paths: routes/dashboard/register.ts.
  registerDashboardRoutes(app);

  for (const prefix of ["/api/*", "/v3/*"] as const) {
    app.use(prefix, tenantRequest());
    app.use(prefix, prefix === "/api/*" ? tenantAuth() : platformAuth());
    app.use(prefix, burstLimit(tenantRoutes()));
  }
  registerRoutes(app, tenantRoutes());

  app.use("/admin/*", adminAuth());
  registerAdminRoutes(app, ADMIN_ROUTES);

  app.notFound((c) => errorFor(c, new ApiError("not_found")));
  app.onError((error, c) => {
    // Unset when the error happened before the version middleware ran.
    const version: ApiVersion = c.get("version") ?? versionOfPath(c.req.path);
    if (error instanceof Refusal)
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
    if (isApiError(error)) return errorFor(c, error, version);
    if (error instanceof HTTPException)
      return errorFor(c, new ApiError(errorKindOfHttpStatus(error.status)), version);
    console.error(`unhandled error on ${c.req.method} ${c.req.path}: ${error.message}`);
    return errorFor(c, new ApiError("internal"), version);
  });
  // Outermost: every step above reads the request's one canonical path.
  app.fetch = canonicalFetch(app.fetch);
  return app;
}
