import type { Hono } from "hono";
import { secretsEqual as tokensEqual } from "@scangate/core/http";
import type { AppEnv } from "../../app-env";
import { type Area, AREAS } from "../../pages/layout";
import { noticeNamed, type PageContext, pageHandler, readForm, renderPage } from "../../pages/page-response";
import { SignInPage } from "../../pages/sign-in";
import {
  ADMIN_SESSION,
  credentialFingerprint,
  endSession,
  openSession,
  type SessionKind,
  TENANT_SESSION,
} from "../../sessions/session-cookie";
import {
  currentAdmin,
  currentTenant,
  dropStaleSession,
  requireCsrf,
  requireSameOrigin,
  sessionRoot,
  type SignedIn,
  type TenantViewer,
} from "../../sessions/session-guard";
import { clientAddress } from "../../sessions/signin-throttle";

/** Who a sign-in form's credentials name, and the credential their session is bound to. */
interface SigningIn {
  sub: string;
  credential: string;
}

/** What tells the two signed-in areas apart: their session and their sign-in form (their home page is AREAS'). */
export interface SessionArea<V extends SignedIn> {
  area: Area;
  kind: SessionKind;
  current: (c: PageContext) => Promise<V | null>;
  /** Checks a posted sign-in form: who signs in, or the form again saying why not. */
  signIn: (c: PageContext, form: URLSearchParams) => Promise<SigningIn | Response>;
  /** What `?notice=` may say on the sign-in form. */
  notices: Record<string, string>;
}

/** API ids are UUIDs; anything much longer is not one (and must not become a throttle key). */
const MAX_API_ID_LENGTH = 200;

/** The sign-in form again, saying why it did not sign in (with the API ID typed, never the secret). */
function refused(c: PageContext, area: Area, status: 400 | 401 | 403 | 429, error: string, apiId?: string) {
  return renderPage(c, <SignInPage area={area} error={error} apiId={apiId} />, status);
}

function throttled(c: PageContext, area: Area, retryAfterSeconds: number, apiId?: string) {
  c.header("Retry-After", String(retryAfterSeconds));
  const error = "Too many sign-in attempts from this address. Wait a minute, then try again.";
  return refused(c, area, 429, error, apiId);
}

export const TENANT_AREA: SessionArea<TenantViewer> = {
  area: "tenant",
  kind: TENANT_SESSION,
  current: currentTenant,
  async signIn(c, form) {
    const apiId = (form.get("api_id") ?? "").trim();
    const secret = form.get("secret") ?? "";
    if (apiId === "" || secret === "")
      return refused(c, "tenant", 400, "Enter your API ID and secret.", apiId);
    if (apiId.length > MAX_API_ID_LENGTH)
      return refused(c, "tenant", 401, "The API ID or secret is not correct.");
    const services = c.get("services");
    // Before the credentials are looked at: every attempt counts (sessions/signin-throttle.ts).
    const throttle = await services.signIn.admitTenant(apiId, clientAddress(c.req.raw));
    if (!throttle.allowed) return throttled(c, "tenant", throttle.retryAfterSeconds, apiId);
    const outcome = await services.auth.authenticate(apiId, secret);
    if (!outcome.ok) {
      // As on the API: only someone holding the secret learns that the tenant is disabled.
      return outcome.reason === "disabled"
        ? refused(c, "tenant", 403, "This API ID is disabled. Ask the endpoint's administrator.", apiId)
        : refused(c, "tenant", 401, "The API ID or secret is not correct.", apiId);
    }
    return { sub: outcome.tenant.id, credential: outcome.tenant.secretHash };
  },
  notices: {
    signed_out: "You have signed out.",
    ended: "Your session has ended. Sign in again to continue.",
  },
};

export const ADMIN_AREA: SessionArea<SignedIn> = {
  area: "admin",
  kind: ADMIN_SESSION,
  current: currentAdmin,
  async signIn(c, form) {
    const token = form.get("token") ?? "";
    if (token === "") return refused(c, "admin", 400, "Enter the admin token.");
    const services = c.get("services");
    // The console's own bucket per address, and only a delay on the console as a whole: a hard
    // limit on the one admin account would let anyone lock it out (sessions/signin-throttle.ts).
    const throttle = await services.signIn.admitAdmin(clientAddress(c.req.raw));
    if (!throttle.allowed) return throttled(c, "admin", throttle.retryAfterSeconds);
    const adminToken = services.config.adminToken;
    if (!(await tokensEqual(token, adminToken))) {
      return refused(c, "admin", 401, "That admin token is not correct.");
    }
    return { sub: "admin", credential: adminToken };
  },
  notices: {
    signed_out: "You have signed out of the admin console.",
    ended: "Your admin session has ended. Sign in again to continue.",
  },
};

/** The signed-in viewer, or a redirect to the sign-in form (saying so when a session has ended). */
export async function viewerOrRedirect<V extends SignedIn>(
  c: PageContext,
  area: SessionArea<V>,
): Promise<V | Response> {
  const viewer = await area.current(c);
  if (viewer) return viewer;
  const ended = dropStaleSession(c, area.kind);
  const { home } = AREAS[area.area];
  return c.redirect(ended ? `${home}/login?notice=ended` : `${home}/login`, 303);
}

/**
 * An area's sign-in form (home instead, when already signed in), its sign-in (a form, then a
 * signed session cookie scoped to the area's path) and its sign-out.
 */
export function registerSignIn<V extends SignedIn>(app: Hono<AppEnv>, area: SessionArea<V>): void {
  const { home } = AREAS[area.area];
  app.get(
    `${home}/login`,
    pageHandler(area.area, async (c) => {
      if (await area.current(c)) return c.redirect(home, 303);
      dropStaleSession(c, area.kind);
      const notice = noticeNamed(area.notices, c.req.query("notice"));
      return renderPage(c, <SignInPage area={area.area} notice={notice} />);
    }),
  );

  app.post(
    `${home}/login`,
    pageHandler(area.area, async (c) => {
      requireSameOrigin(c);
      const signingIn = await area.signIn(c, await readForm(c));
      if (signingIn instanceof Response) return signingIn;
      const root = sessionRoot(c);
      const fp = await credentialFingerprint(root, area.kind, signingIn.credential);
      await openSession(c, area.kind, root, { sub: signingIn.sub, fp }, c.get("services").clock.now());
      return c.redirect(home, 303);
    }),
  );

  app.post(
    `${home}/logout`,
    pageHandler(area.area, async (c) => {
      requireSameOrigin(c);
      const viewer = await area.current(c);
      if (viewer) {
        await requireCsrf(area.kind, viewer, await readForm(c));
        await c.get("services").endedSessions.end(viewer.session.sid, viewer.session.exp);
      }
      endSession(c, area.kind);
      return c.redirect(`${home}/login?notice=signed_out`, 303);
    }),
  );
}
