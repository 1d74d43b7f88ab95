import type { Context, Hono } from "hono";
import type { AppEnv } from "../../app-env";
import type { Area } from "../../pages/layout";
import { noticeNamed, pageHandler, readForm, renderPage, seeOther } from "../../pages/page-response";
import { SignInPage } from "../../pages/sign-in";
import { endSession, type SessionKind } from "../../sessions/session-cookie";
import {
  ADMIN_SESSION,
  currentAdmin,
  currentTenant,
  dropStaleSession,
  hadSessionCookie,
  requireCsrf,
  requireSameOrigin,
  type SignedIn,
  TENANT_SESSION,
  type TenantViewer,
} from "../../sessions/session-guard";

type PageContext = Context<AppEnv>;

/** What tells the two signed-in areas apart: their session, their home page and what their sign-in form says. */
export interface SessionArea<V extends SignedIn> {
  area: Area;
  kind: SessionKind;
  home: "/dashboard" | "/admin";
  current: (c: PageContext) => Promise<V | null>;
  /** What `?notice=` may say on the sign-in form. */
  notices: Record<string, string>;
}

export const TENANT_AREA: SessionArea<TenantViewer> = {
  area: "tenant",
  kind: TENANT_SESSION,
  home: "/dashboard",
  current: currentTenant,
  notices: {
    signed_out: "You have signed out.",
    ended: "Your session has ended. Sign in again to continue.",
  },
};

export const ADMIN_AREA: SessionArea<SignedIn> = {
  area: "admin",
  kind: ADMIN_SESSION,
  home: "/admin",
  current: currentAdmin,
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
  const ended = hadSessionCookie(c, area.kind);
  dropStaleSession(c, area.kind);
  return seeOther(c, ended ? `${area.home}/login?notice=ended` : `${area.home}/login`);
}

/** An area's sign-in form (home instead, when already signed in) and its sign-out. */
export function registerSignInFormAndSignOut<V extends SignedIn>(
  app: Hono<AppEnv>,
  area: SessionArea<V>,
): void {
  app.get(
    `${area.home}/login`,
    pageHandler(area.area, async (c) => {
      if (await area.current(c)) return seeOther(c, area.home);
      dropStaleSession(c, area.kind);
      const notice = noticeNamed(area.notices, c.req.query("notice"));
      return renderPage(c, <SignInPage area={area.area} notice={notice} />);
    }),
  );

  app.post(
    `${area.home}/logout`,
    pageHandler(area.area, async (c) => {
      requireSameOrigin(c);
      const viewer = await area.current(c);
      if (viewer) {
        await requireCsrf(area.kind, viewer, await readForm(c));
        await c.get("services").endedSessions.end(viewer.session.sid, viewer.session.exp);
      }
      endSession(c, area.kind);
      return seeOther(c, `${area.home}/login?notice=signed_out`);
    }),
  );
}
