import type { Context, Hono } from "hono";
import type { AppEnv } from "../../app-env";
import { SignInPage } from "../../pages/sign-in";
import { TenantDashboardPage } from "../../pages/tenant-dashboard";
import { credentialFingerprint, openSession } from "../../sessions/session-cookie";
import { clientAddress } from "../../sessions/signin-throttle";
import { pageHandler, readForm, renderPage, seeOther } from "../../pages/page-response";
import { requireSameOrigin, sessionRoot, TENANT_SESSION } from "../../sessions/session-guard";
import { registerSignInFormAndSignOut, TENANT_AREA, viewerOrRedirect } from "./sessions";
import { tenantReport } from "../../reports/tenant-report";

type PageContext = Context<AppEnv>;

/** API ids are UUIDs; anything much longer is not one (and must not become a throttle key). */
const MAX_API_ID_LENGTH = 200;

function signInPage(
  c: PageContext,
  status: 200 | 400 | 401 | 403 | 429,
  props: { error?: string; apiId?: string },
) {
  return renderPage(
    c,
    <SignInPage area="tenant" error={props.error} apiId={props.apiId} notice={undefined} />,
    status,
  );
}

/**
 * The tenant dashboard: sign in with API id and secret (a form, then a signed session cookie
 * scoped to /dashboard), the dashboard itself, and sign out.
 */
export function registerTenantPages(app: Hono<AppEnv>): void {
  registerSignInFormAndSignOut(app, TENANT_AREA);

  app.post(
    "/dashboard/login",
    pageHandler("tenant", async (c) => {
      requireSameOrigin(c);
      const form = await readForm(c);
      const apiId = (form.get("api_id") ?? "").trim();
      const secret = form.get("secret") ?? "";
      if (apiId === "" || secret === "")
        return signInPage(c, 400, { error: "Enter your API ID and secret.", apiId });
      if (apiId.length > MAX_API_ID_LENGTH)
        return signInPage(c, 401, { error: "The API ID or secret is not correct." });

      const services = c.get("services");
      // Before the credentials are looked at: every attempt counts (sessions/signin-throttle.ts).
      const throttle = await services.signIn.admitTenant(apiId, clientAddress(c.req.raw));
      if (!throttle.allowed) {
        c.header("Retry-After", String(throttle.retryAfterSeconds));
        return signInPage(c, 429, {
          error: "Too many sign-in attempts from this address. Wait a minute, then try again.",
          apiId,
        });
      }

      const outcome = await services.auth.authenticate(apiId, secret);
      if (!outcome.ok) {
        // As on the API: only someone holding the secret learns that the tenant is disabled.
        return outcome.reason === "disabled"
          ? signInPage(c, 403, { error: "This API ID is disabled. Ask the endpoint's administrator.", apiId })
          : signInPage(c, 401, { error: "The API ID or secret is not correct.", apiId });
      }
      const root = sessionRoot(c);
      const tenant = outcome.tenant;
      await openSession(
        c,
        TENANT_SESSION,
        root,
        { sub: tenant.id, fp: await credentialFingerprint(root, TENANT_SESSION, tenant.secretHash) },
        services.clock.now(),
      );
      return seeOther(c, "/dashboard");
    }),
  );

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
