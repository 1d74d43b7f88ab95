import type { Hono } from "hono";
import type { AppEnv } from "../../app-env";
import { ASSET_PATHS, CLIENT_SCRIPT, ICON_SVG, STYLESHEET } from "../../pages/assets";
import { registerAdminActions } from "./admin-actions";
import { registerAdminPages } from "./admin-pages";
import { errorPage } from "../../pages/page-response";
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

  app.get(ASSET_PATHS.stylesheet, (c) =>
    c.body(STYLESHEET, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": IMMUTABLE }),
  );
  app.get(ASSET_PATHS.script, (c) =>
    c.body(CLIENT_SCRIPT, 200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": IMMUTABLE,
    }),
  );
  app.get(ASSET_PATHS.icon, (c) =>
    c.body(ICON_SVG, 200, { "Content-Type": "image/svg+xml", "Cache-Control": IMMUTABLE }),
  );

  registerTenantPages(app);
  registerAdminPages(app);
  registerAdminActions(app);

  // Unknown pages answer as pages (and an unknown /admin/console path never reaches the bearer check).
  app.get("/dashboard/*", (c) =>
    errorPage(c, "tenant", "not_found", "Page not found", "There is no such page on the dashboard."),
  );
  app.all("/admin/console/*", (c) =>
    errorPage(c, "admin", "not_found", "Page not found", "There is no such page in the console."),
  );
}
