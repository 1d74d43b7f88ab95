import { canonicalFetch, requestIds } from "@scangate/core/http";
import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requireAccount } from "./http/auth";
import { requirePlatformAccount } from "./http/platform-auth";
import type { AppEnv } from "./http/context";
import { ApiErrorWithHeaders, handleError, handleNotFound, renderApiError } from "./http/errors";
import { limitBodySize, limitRequestTarget } from "./http/validation";
import { servicesFactory, type AppDeps } from "./infrastructure";
import { ORIGIN_ROUTES } from "./routes";
import { registerRoutes } from "./routing";

export type { AppEnv } from "./http/context";

/**
 * Builds the origin app. A request meets, in order: request id, 405 detection, the services
 * chosen from the bindings, then on /api: no-store caching, the URL and body size limits and HTTP Basic
 * auth (on /v3, the Platform's: bearer personal access token and organization); then its route
 * (routes/index.ts), charged its quota cost first when it has one (v3 routes: their credits,
 * after a successful answer). Errors of any layer are rendered by one handler from core's error
 * table, in the body shape of the path's API version (v3: problem+json).
 */
export function createApp(deps: AppDeps = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const services = servicesFactory(deps);

  app.onError(handleError);
  app.notFound(handleNotFound);

  app.use(requestIds());
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        renderApiError(c, new ApiErrorWithHeaders("method_not_allowed", { Allow: methods.join(", ") })),
    }),
  );
  app.use(async function provideServices(c, next) {
    c.set("services", await services(c.env));
    await next();
  });
  for (const prefix of ["/api/*", "/v3/*"]) {
    app.use(prefix, async function noStore(c, next) {
      await next();
      // Answers depend on the caller's credentials and quota: never stored by shared caches.
      c.header("Cache-Control", "no-store");
    });
  }
  app.use("/api/*", limitRequestTarget(), limitBodySize(), requireAccount());
  app.use("/v3/*", limitRequestTarget(), limitBodySize(), requirePlatformAccount());

  registerRoutes(app, ORIGIN_ROUTES);
  // Every step above reads the request's one canonical path (core http/request-target.ts).
  app.fetch = canonicalFetch(app.fetch);
  return app;
}
