import { lenientPath } from "@scangate/core/http";
import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import { requireAccount } from "./http/auth";
import type { AppEnv } from "./http/context";
import { ApiErrorWithHeaders, handleError, handleNotFound, renderApiError } from "./http/errors";
import { limitBodySize } from "./http/validation";
import { servicesFactory, type AppDeps } from "./infrastructure";
import { registerHealth } from "./routes/health";
import { registerAccount } from "./routes/v1/account";
import { registerBulk } from "./routes/v1/bulk";
import { registerReport } from "./routes/v1/report";
import { registerSearch } from "./routes/v1/search";
import { registerView } from "./routes/v1/view";
import { registerHosts } from "./routes/v2/hosts";
import { registerQueryJobs } from "./routes/v1/query";
import { registerQueryDefinitions } from "./routes/v1/query-definitions";
import { registerExportJobs } from "./routes/v1/export";
import { registerRawData } from "./routes/v1/data";

export type { AppEnv } from "./http/context";

/**
 * Builds the origin app. A request meets, in order: request id, 405 detection, the services
 * chosen from the bindings, then on /api: no-store caching, the body size limit and HTTP Basic
 * auth; then its route, which charges quota for its operation. Errors of any layer are rendered
 * by one handler from core's error table, in the body shape of the path's API version.
 */
export function createApp(deps: AppDeps = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ getPath: lenientPath });
  const services = servicesFactory(deps);

  app.onError(handleError);
  app.notFound(handleNotFound);

  app.use(requestId());
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
  app.use("/api/*", async function noStore(c, next) {
    await next();
    // Answers depend on the caller's credentials and quota: never stored by shared caches.
    c.header("Cache-Control", "no-store");
  });
  app.use("/api/*", limitBodySize(), requireAccount());

  registerHealth(app);
  // v1 (synchronous)
  registerSearch(app);
  registerView(app);
  registerReport(app);
  registerBulk(app);
  registerAccount(app);
  // v2 hosts
  registerHosts(app);
  // v1 (asynchronous jobs, query definitions, raw data)
  registerQueryJobs(app);
  registerQueryDefinitions(app);
  registerExportJobs(app);
  registerRawData(app);
  return app;
}
