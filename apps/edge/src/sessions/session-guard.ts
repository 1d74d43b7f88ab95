import type { TenantRow } from "../db/schema";
import { secretsEqual } from "@scangate/core/http";
import { mac, sessionRootSecret } from "./keys";
import {
  ADMIN_SESSION,
  credentialFingerprint,
  endSession,
  readSession,
  type SessionClaims,
  type SessionKind,
  TENANT_SESSION,
} from "./session-cookie";
import { type PageContext, PageError } from "../pages/page-response";

// CSRF tokens for the forms of a signed-in page: a MAC of the session id under the kind's CSRF
// key, so a token is worth nothing outside the session (and the kind) it was made for. The
// SameSite=Strict cookie and the same-origin check (`requireSameOrigin`) are two more layers.

const CSRF_FIELD = "csrf";

function csrfToken(root: string, kind: SessionKind, session: SessionClaims): Promise<string> {
  return mac(root, kind.csrfKey, session.sid);
}

export interface SignedIn {
  session: SessionClaims;
  /** The token the page's forms carry. */
  csrf: string;
  root: string;
}

export interface TenantViewer extends SignedIn {
  tenant: TenantRow;
}

/** The root of the session keys; a bad SESSION_SECRET is the operator's problem, said on the page. */
export function sessionRoot(c: PageContext): string {
  const root = sessionRootSecret(c.env, c.get("services").config.adminToken);
  if (!root.ok) {
    console.error(`dashboard config invalid: ${root.problem}`);
    throw new PageError("internal", "Sign-in is not configured", root.problem);
  }
  return root.secret;
}

/**
 * The signed-in tenant, read fresh from D1: a session ends when its cookie is missing, forged,
 * expired, made for another purpose, or when the tenant was deleted, disabled or given a new
 * secret since it signed in, or when it was signed out (a copied cookie opens nothing then).
 */
export async function currentTenant(c: PageContext): Promise<TenantViewer | null> {
  const root = sessionRoot(c);
  const services = c.get("services");
  const session = await readSession(c, TENANT_SESSION, root, services.clock.now());
  if (!session || (await services.endedSessions.isEnded(session.sid))) return null;
  const tenant = await services.tenants.get(session.sub);
  if (!tenant || tenant.disabled) return null;
  if (session.fp !== (await credentialFingerprint(root, TENANT_SESSION, tenant.secretHash))) return null;
  return { tenant, session, root, csrf: await csrfToken(root, TENANT_SESSION, session) };
}

/** The admin session; it ends when the admin token changes. */
export async function currentAdmin(c: PageContext): Promise<SignedIn | null> {
  const root = sessionRoot(c);
  const services = c.get("services");
  const session = await readSession(c, ADMIN_SESSION, root, services.clock.now());
  if (!session || session.sub !== "admin" || (await services.endedSessions.isEnded(session.sid))) return null;
  if (session.fp !== (await credentialFingerprint(root, ADMIN_SESSION, services.config.adminToken)))
    return null;
  return { session, root, csrf: await csrfToken(root, ADMIN_SESSION, session) };
}

/**
 * Form posts from other sites are refused before anything else is looked at. Browsers send
 * `Sec-Fetch-Site` and `Origin` on every form POST; when present they must say same-origin. A
 * request with neither is not from a browser (curl, scripts), so it is no cross-site forgery;
 * CSRF tokens still guard every signed-in form.
 */
export function requireSameOrigin(c: PageContext): void {
  const site = c.req.header("sec-fetch-site");
  const origin = c.req.header("origin");
  if (
    (site !== undefined && site !== "same-origin") ||
    (origin !== undefined && origin !== new URL(c.req.url).origin)
  ) {
    throw new PageError(
      "forbidden",
      "Form refused",
      "This form was sent from another site. Open the page here and send it again.",
    );
  }
}

/** A signed-in form must carry the CSRF token of this very session. */
export async function requireCsrf(kind: SessionKind, viewer: SignedIn, form: URLSearchParams): Promise<void> {
  const presented = form.get(CSRF_FIELD);
  const valid =
    !!presented && (await secretsEqual(await csrfToken(viewer.root, kind, viewer.session), presented));
  if (!valid) {
    throw new PageError(
      "forbidden",
      "Form expired",
      "This form does not belong to your current session (it may be from an older page). Nothing was changed. Reload the page and try again.",
    );
  }
}

/**
 * Clears a session cookie that no longer opens anything; says whether the request had one (to
 * tell "ended" from "never signed in").
 */
export function dropStaleSession(c: PageContext, kind: SessionKind): boolean {
  const had = (c.req.header("cookie") ?? "").includes(`${kind.cookieName}=`);
  if (had) endSession(c, kind);
  return had;
}
