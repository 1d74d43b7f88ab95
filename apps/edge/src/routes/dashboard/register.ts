import type { Hono } from "hono";
import type { AppEnv } from "../../app-env";
import { ASSET_PATHS, CLIENT_SCRIPT, ICON_SVG, STYLESHEET } from "../../pages/assets";
import { registerAdminActions } from "./admin-actions";
import { registerAdminPages } from "./admin-pages";
import { errorPage, PageError } from "../../pages/page-response";
import { pageSecurityHeaders } from "../../middleware/page-security";
import { registerTenantPages } from "./tenant-pages";

/** Every path the pages own. The JSON admin API (/admin/tenants, /admin/cache, ...) is not among them. */
const PAGE_PATHS = ["/dashboard/*", "/admin", "/admin/login", "/admin/logout", "/admin/console/*"];

const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * The people-facing pages: the tenant dashboard under /dashboard and the admin console at
 * /admin (+ /admin/login, /admin/logout, /admin/console/...). Registered before the /api
 * tenant auth and the /admin bearer-token middleware, which these routes answer ahead of:
 * they authenticate with their own session cookies instead.
 */
export function registerDashboardRoutes(app: Hono<AppEnv>): void {
  for (const path of PAGE_PATHS) app.use(path, pageSecurityHeaders());

  for (const [path, body, type] of [
    [ASSET_PATHS.stylesheet, STYLESHEET, "text/css; charset=utf-8"],
    [ASSET_PATHS.script, CLIENT_SCRIPT, "text/javascript; charset=utf-8"],
    [ASSET_PATHS.icon, ICON_SVG, "image/svg+xml"],
  ] as const) {
    app.get(path, (c) => c.body(body, 200, { "Content-Type": type, "Cache-Control": IMMUTABLE }));
  }

  registerTenantPages(app);
  registerAdminPages(app);
  registerAdminActions(app);

  // Unknown pages answer as pages (and an unknown /admin/console path never reaches the bearer check).
  const notFound = (where: string) =>
    new PageError("not_found", "Page not found", `There is no such page ${where}.`);
  app.get("/dashboard/*", (c) => errorPage(c, "tenant", notFound("on the dashboard")));
  app.all("/admin/console/*", (c) => errorPage(c, "admin", notFound("in the console")));
}
