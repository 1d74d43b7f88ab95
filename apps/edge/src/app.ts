import { ApiError, type ApiVersion, isApiError } from "@scangate/core";
import { errorKindOfHttpStatus, lenientPath, requestIds, versionOfPath } from "@scangate/core/http";
import { type Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { AppEnv } from "./app-env";
import type { Env } from "./env";
import { runMetered, StatementMeter } from "./db/statement-meter";
import { errorResponse, renderedError } from "./http/errors";
import { RememberedRoutes } from "./http/remembered-routes";
import { isPlatformPath, problemResponse } from "./http/problem";
import { registerAdminRoutes, registerApiRoutes } from "./api/define-route";
import { adminAuth } from "./middleware/admin-auth";
import { buildOpenApiDocument } from "./openapi/document";
import { burstLimit } from "./middleware/burst-limit";
import { platformAuth } from "./middleware/platform-auth";
import { requestLimits } from "./middleware/request-limits";
import { tenantAuth } from "./middleware/tenant-auth";
import { untranslatedRoutes } from "./middleware/untranslated";
import { usageAndQuotaHeaders } from "./middleware/usage";
import { ServiceRegistry } from "./registry";
import { ADMIN_ROUTES } from "./routes/admin";
import { API_ROUTES } from "./routes/api";
import { registerDashboardRoutes } from "./routes/dashboard/register";
import { PLATFORM_ROUTES } from "./routes/v3";
import { registerPlatformRoutes } from "./routes/v3/define";

export type { AppEnv } from "./app-env";

/**
 * Puts the cache-hit lane (api/hit-lane.ts) in front of the router: a request it answers never
 * reaches the middleware chain; anything else (or anything it could not finish) takes the full way.
 */
function answerHitsFirst(app: Hono<AppEnv>, registry: ServiceRegistry): void {
  const viaRouter = app.fetch;
  app.fetch = (request, env, ctx) => {
    const resolved = env && ctx ? registry.resolve(env as Env) : undefined;
    const hit = resolved?.ok && ctx ? resolved.services.hits.answer(request, resolved.services, ctx) : null;
    if (!hit) return viaRouter(request, env, ctx);
    return hit.then(
      (answer) => answer ?? viaRouter(request, env, ctx),
      () => viaRouter(request, env, ctx),
    );
  };
}

/**
 * Builds the edge app. A request meets, in order: request id; config and services; for /api,
 * its version (error shape), the length limits of ours (URL, q, cursor), tenant Basic auth, quota headers and usage (recorded after the
 * answer), the tier's burst limit, with a Platform-only upstream the 501 of a legacy route it
 * cannot translate, then its route; for /v3 (the Platform API) the same chain
 * with a tenant's bearer token instead of Basic auth, every error in problem+json; for /admin,
 * the bearer admin token. Ahead of all of it, the hit lane answers repeated free cache hits of
 * an /api path with the same steps (`answerHitsFirst`).
 */
export function createApp(registry: ServiceRegistry = new ServiceRegistry()): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ getPath: lenientPath, router: new RememberedRoutes() });
  /** An error in the shape of the path's API: problem+json on /v3, v1 or v2 bodies elsewhere. */
  const errorFor = (c: Context<AppEnv>, error: ApiError, version: ApiVersion) =>
    isPlatformPath(c.req.path) ? problemResponse(c, error) : errorResponse(c, error, version);
  app.use(requestIds());
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) => {
        c.header("Allow", methods.join(", "));
        return errorFor(c, new ApiError("method_not_allowed"), versionOfPath(c.req.path));
      },
    }),
  );
  app.use(async function services(c, next) {
    const resolved = registry.resolve(c.env);
    if (!resolved.ok) {
      console.error(`edge config invalid: ${resolved.problems.join("; ")}`);
      if (isPlatformPath(c.req.path)) {
        return problemResponse(
          c,
          new ApiError("internal", `edge misconfigured: ${resolved.problems.join("; ")}`),
        );
      }
      return renderedError(
        c,
        "internal",
        versionOfPath(c.req.path),
        `edge misconfigured: ${resolved.problems.join("; ")}`,
      );
    }
    c.set("services", resolved.services);
    await next();
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

  app.use("/api/*", async function apiVersion(c, next) {
    c.set("version", versionOfPath(c.req.path));
    await next();
  });
  app.use("/api/*", requestLimits());
  // Counted only for a request that asks (the header sent), and only where the config allows it.
  app.use("/api/*", async function d1Statements(c, next) {
    if (!c.get("services").config.statementsHeader || c.req.header("X-D1-Statements") === undefined)
      return next();
    const meter = new StatementMeter();
    await runMetered(meter, next);
    c.res.headers.set("X-D1-Statements", String(meter.statements));
  });
  app.use("/api/*", tenantAuth());
  app.use("/api/*", usageAndQuotaHeaders());
  app.use("/api/*", burstLimit(API_ROUTES));
  app.use("/api/*", untranslatedRoutes());
  registerApiRoutes(app, API_ROUTES);

  // The Platform API: the same chain with bearer tokens; errors in problem+json (errorFor).
  app.use("/v3/*", requestLimits());
  app.use("/v3/*", platformAuth());
  app.use("/v3/*", usageAndQuotaHeaders());
  app.use("/v3/*", burstLimit([]));
  registerPlatformRoutes(app, PLATFORM_ROUTES);

  app.use("/admin/*", adminAuth());
  registerAdminRoutes(app, ADMIN_ROUTES);

  answerHitsFirst(app, registry);

  app.notFound((c) => errorFor(c, new ApiError("not_found"), versionOfPath(c.req.path)));
  app.onError((error, c) => {
    // Unset when the error happened before the /api middleware ran.
    const version: ApiVersion = c.get("version") ?? versionOfPath(c.req.path);
    if (isApiError(error)) return errorFor(c, error, version);
    if (error instanceof HTTPException)
      return errorFor(c, new ApiError(errorKindOfHttpStatus(error.status)), version);
    console.error(`unhandled error on ${c.req.method} ${c.req.path}: ${error.message}`);
    return errorFor(c, new ApiError("internal"), version);
  });
  return app;
}
