import type { Hono } from "hono";
import type { AppEnv } from "../../app-env";
import { AdminConsolePage, type CreateFormState } from "../../pages/admin-console";
import { AdminTenantPage, DONE_MESSAGES, type TenantAdminProps } from "../../pages/admin-tenant";
import type { TierOption } from "../../pages/components/tenant-form-fields";
import { fleetReport, tenantSortSchema } from "../../reports/fleet-report";
import { noticeNamed, type PageContext, PageError, pageHandler, renderPage } from "../../pages/page-response";
import type { SignedIn } from "../../sessions/session-guard";
import { ADMIN_AREA, registerSignIn, viewerOrRedirect } from "./sessions";
import { describeTier, tenantReport } from "../../reports/tenant-report";

function tierOptions(c: PageContext): TierOption[] {
  const config = c.get("services").config;
  return Object.keys(config.rateTiers).map((name) => ({ name, description: describeTier(config, name) }));
}

export async function renderConsole(
  c: PageContext,
  admin: SignedIn,
  create: CreateFormState,
  status: 200 | 400 = 200,
) {
  const services = c.get("services");
  const sort = tenantSortSchema.parse({ sort: c.req.query("sort"), dir: c.req.query("dir") });
  const [report, audit] = await Promise.all([
    fleetReport(services, c.env, sort),
    services.audit.list({ limit: 8 }),
  ]);
  return renderPage(
    c,
    <AdminConsolePage
      report={report}
      csrf={admin.csrf}
      tiers={tierOptions(c)}
      create={create}
      audit={audit}
    />,
    status,
  );
}

export const noSuchTenant = () =>
  new PageError("not_found", "No such tenant", "There is no tenant with this id. It may have been deleted.");

/** The admin's page of one tenant; a tenant id that does not exist is a 404 page. */
export async function renderTenantAdmin(
  c: PageContext,
  admin: SignedIn,
  id: string,
  extra: Pick<TenantAdminProps, "done" | "settings" | "actionError"> = {},
  status: 200 | 400 = 200,
) {
  const services = c.get("services");
  const tenant = await services.tenants.get(id);
  if (!tenant) throw noSuchTenant();
  const [report, audit, platformToken] = await Promise.all([
    tenantReport(services, c.env, tenant),
    services.audit.list({ tenantId: id, limit: 10 }),
    services.platformTokens.status(id),
  ]);
  return renderPage(
    c,
    <AdminTenantPage
      report={report}
      csrf={admin.csrf}
      tiers={tierOptions(c)}
      audit={audit}
      platformToken={platformToken}
      {...extra}
    />,
    status,
  );
}

function defaultCreateValues(c: PageContext): Record<string, string> {
  const defaults = c.get("services").config.tenantDefaults;
  return { allowance: String(defaults.allowance), period: defaults.period, tier: defaults.tier };
}

/**
 * The admin console's pages: sign in with the admin token (a form, then a signed session
 * cookie scoped to /admin, unrelated to the tenant one), the overview, one tenant, sign out.
 */
export function registerAdminPages(app: Hono<AppEnv>): void {
  registerSignIn(app, ADMIN_AREA);

  app.get(
    "/admin",
    pageHandler("admin", async (c) => {
      const admin = await viewerOrRedirect(c, ADMIN_AREA);
      if (admin instanceof Response) return admin;
      return renderConsole(c, admin, { values: defaultCreateValues(c) });
    }),
  );

  app.get(
    "/admin/console/tenants/:id",
    pageHandler("admin", async (c) => {
      const admin = await viewerOrRedirect(c, ADMIN_AREA);
      if (admin instanceof Response) return admin;
      const done = noticeNamed(DONE_MESSAGES, c.req.query("done"));
      return renderTenantAdmin(c, admin, c.req.param("id") ?? "", { done });
    }),
  );
}
