import { unknownTierProblem } from "../../config";
import {
  describeIssues,
  platformTokenIssueBodySchema,
  tenantCreateBodySchema,
  tenantPatchBodySchema,
  tenantRotateBodySchema,
  type TenantWithSecret,
} from "@scangate/core";
import type { Handler, Hono } from "hono";
import type { AppEnv } from "../../app-env";
import type { TenantRow } from "../../db/schema";
import { PlatformTokenOncePage, SecretOncePage } from "../../pages/shown-once";
import { noSuchTenant, renderConsole, renderTenantAdmin } from "./admin-pages";
import { ADMIN_AREA, viewerOrRedirect } from "./sessions";
import {
  CONSOLE_ACTOR,
  createTenant,
  issuePlatformToken,
  revokePlatformTokens,
  rotateSecret,
  updateTenant,
} from "../../tenants/actions";
import { type PageContext, pageHandler, readForm, renderPage } from "../../pages/page-response";
import { requireCsrf, requireSameOrigin, type SignedIn } from "../../sessions/session-guard";

/** A number field: blank is "not given", anything else must parse (zod says what is wrong). */
function numberField(form: URLSearchParams, name: string): number | undefined {
  const value = (form.get(name) ?? "").trim();
  return value === "" ? undefined : Number(value);
}

function textField(form: URLSearchParams, name: string): string | undefined {
  const value = form.get(name);
  return value === null ? undefined : value.trim();
}

function unknownTier(c: PageContext, tier: string | undefined): string | undefined {
  return tier === undefined ? undefined : unknownTierProblem(c.get("services").config.rateTiers, tier);
}

/** The tenant's page again, saying why an action was not done (400): nothing was changed. */
function notDone(c: PageContext, admin: SignedIn, tenantId: string, why: string): Promise<Response> {
  return renderTenantAdmin(c, admin, tenantId, { actionError: why }, 400);
}

/** The page that shows a tenant's new secret, the only time it is ever shown. */
function secretOnce(
  c: PageContext,
  admin: SignedIn,
  tenant: TenantWithSecret,
  event: "created" | "rotated",
  status: 200 | 201,
): Promise<Response> {
  const page = (
    <SecretOncePage tenant={tenant} event={event} csrf={admin.csrf} origin={new URL(c.req.url).origin} />
  );
  return renderPage(c, page, status);
}

interface AdminForm {
  admin: SignedIn;
  form: URLSearchParams;
}

/** Every console action: same origin, a signed-in admin, and this session's CSRF token. */
function adminAction(handler: (c: PageContext, posted: AdminForm) => Promise<Response>): Handler<AppEnv> {
  return pageHandler("admin", async (c) => {
    requireSameOrigin(c);
    const admin = await viewerOrRedirect(c, ADMIN_AREA);
    if (admin instanceof Response) return admin;
    const form = await readForm(c);
    await requireCsrf(ADMIN_AREA.kind, admin, form);
    return handler(c, { admin, form });
  });
}

/**
 * An action on the tenant of the path. With `unconfirmed` (the words that start its refusal), it
 * is done only when the form's confirm box is ticked.
 */
function tenantAction(
  unconfirmed: string | null,
  handler: (c: PageContext, posted: AdminForm & { tenant: TenantRow }) => Promise<Response>,
): Handler<AppEnv> {
  return adminAction(async (c, posted) => {
    const tenant = await c.get("services").tenants.get(c.req.param("id") ?? "");
    if (!tenant) throw noSuchTenant();
    if (unconfirmed !== null && posted.form.get("confirm") !== "yes") {
      return notDone(c, posted.admin, tenant.id, `${unconfirmed}: tick the box to confirm.`);
    }
    return handler(c, { ...posted, tenant });
  });
}

/**
 * The console's forms: create a tenant, change its allowance/period/tier, rotate its secret,
 * disable or enable it, issue, rotate or revoke its Platform token. Bad input re-renders the form
 * with the reason (400) and changes nothing.
 */
export function registerAdminActions(app: Hono<AppEnv>): void {
  app.post(
    "/admin/console/tenants",
    adminAction(async (c, { admin, form }) => {
      const values = Object.fromEntries(
        ["name", "email", "allowance", "period", "tier"].map((k) => [k, form.get(k) ?? ""]),
      );
      const parsed = tenantCreateBodySchema.safeParse({
        name: textField(form, "name") ?? "",
        email: textField(form, "email") ?? "",
        allowance: numberField(form, "allowance"),
        period: textField(form, "period") || undefined,
        tier: textField(form, "tier") || undefined,
      });
      const error = parsed.success ? unknownTier(c, parsed.data.tier) : describeIssues(parsed.error);
      if (!parsed.success || error) return renderConsole(c, admin, { values, error }, 400);
      const tenant = await createTenant(c.get("services"), parsed.data, CONSOLE_ACTOR);
      return secretOnce(c, admin, tenant, "created", 201);
    }),
  );

  app.post(
    "/admin/console/tenants/:id/quota",
    tenantAction(null, async (c, { admin, form, tenant: before }) => {
      const values = Object.fromEntries(["allowance", "period", "tier"].map((k) => [k, form.get(k) ?? ""]));
      const parsed = tenantPatchBodySchema.safeParse({
        allowance: numberField(form, "allowance"),
        period: textField(form, "period") || undefined,
        tier: textField(form, "tier") || undefined,
        ...(form.get("reset_used") === "1" ? { used: 0 } : {}),
      });
      const error = parsed.success ? unknownTier(c, parsed.data.tier) : describeIssues(parsed.error);
      if (!parsed.success || error)
        return renderTenantAdmin(c, admin, before.id, { settings: { values, error: error ?? "" } }, 400);
      if (!(await updateTenant(c.get("services"), before, parsed.data, CONSOLE_ACTOR))) throw noSuchTenant();
      return c.redirect(`/admin/console/tenants/${before.id}?done=updated`, 303);
    }),
  );

  app.post(
    "/admin/console/tenants/:id/rotate",
    tenantAction("Not rotated", async (c, { admin, form, tenant: before }) => {
      const parsed = tenantRotateBodySchema.safeParse({ grace_seconds: numberField(form, "grace_seconds") });
      if (!parsed.success) {
        return notDone(c, admin, before.id, `Not rotated: ${describeIssues(parsed.error)}`);
      }
      const tenant = await rotateSecret(c.get("services"), before, parsed.data.grace_seconds, CONSOLE_ACTOR);
      if (!tenant) throw noSuchTenant();
      return secretOnce(c, admin, tenant, "rotated", 200);
    }),
  );

  app.post(
    "/admin/console/tenants/:id/platform-token",
    tenantAction("No token issued", async (c, { admin, form, tenant }) => {
      const parsed = platformTokenIssueBodySchema.safeParse({
        grace_seconds: numberField(form, "grace_seconds"),
      });
      if (!parsed.success) {
        return notDone(c, admin, tenant.id, `No token issued: ${describeIssues(parsed.error)}`);
      }
      const issued = await issuePlatformToken(
        c.get("services"),
        tenant,
        parsed.data.grace_seconds,
        CONSOLE_ACTOR,
      );
      const page = (
        <PlatformTokenOncePage
          tenantName={tenant.name}
          issued={issued}
          csrf={admin.csrf}
          origin={new URL(c.req.url).origin}
        />
      );
      return renderPage(c, page, 201);
    }),
  );

  app.post(
    "/admin/console/tenants/:id/platform-token/revoke",
    tenantAction("Not revoked", async (c, { tenant }) => {
      await revokePlatformTokens(c.get("services"), tenant, CONSOLE_ACTOR);
      return c.redirect(`/admin/console/tenants/${tenant.id}?done=token_revoked`, 303);
    }),
  );

  for (const [action, disabled] of [
    ["disable", true],
    ["enable", false],
  ] as const) {
    app.post(
      `/admin/console/tenants/:id/${action}`,
      tenantAction(disabled ? "Not disabled" : null, async (c, { tenant: before }) => {
        if (
          before.disabled !== disabled &&
          !(await updateTenant(c.get("services"), before, { disabled }, CONSOLE_ACTOR))
        ) {
          throw noSuchTenant();
        }
        return c.redirect(
          `/admin/console/tenants/${before.id}?done=${disabled ? "disabled" : "enabled"}`,
          303,
        );
      }),
    );
  }
}
