import type { Hono } from "hono";
import type { AppEnv } from "../../app-env";
import { TenantDashboardPage } from "../../pages/tenant-dashboard";
import { pageHandler, renderPage } from "../../pages/page-response";
import { registerSignIn, TENANT_AREA, viewerOrRedirect } from "./sessions";
import { tenantReport } from "../../reports/tenant-report";

/** The tenant dashboard: sign in with API id and secret, the dashboard itself, and sign out. */
export function registerTenantPages(app: Hono<AppEnv>): void {
  registerSignIn(app, TENANT_AREA);

  app.get(
    "/dashboard",
    pageHandler("tenant", async (c) => {
      const viewer = await viewerOrRedirect(c, TENANT_AREA);
      if (viewer instanceof Response) return viewer;
      const report = await tenantReport(c.get("services"), c.env, viewer.tenant);
      return renderPage(
        c,
        <TenantDashboardPage report={report} csrf={viewer.csrf} origin={new URL(c.req.url).origin} />,
      );
    }),
  );
}
