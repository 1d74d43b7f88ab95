import type { Context } from "hono";
import { deleteCookie, getSignedCookie, setSignedCookie } from "hono/cookie";
import type { CookieOptions } from "hono/utils/cookie";
import { z } from "zod";
import { fromBase64Url, toBase64Url } from "@scangate/core/http";
import { hex, randomBytes } from "../auth/secrets";
import { type KeyPurpose, keyBytes, mac } from "./keys";

/** Which session: the cookie's name, the paths it is sent to, its lifetime and signing key. */
export interface SessionKind {
  readonly cookieName: string;
  /** The browser sends the cookie only below this path (the JSON admin API never sees it as auth). */
  readonly path: string;
  readonly ttlSeconds: number;
  readonly signingKey: KeyPurpose;
  readonly csrfKey: KeyPurpose;
}

export const TENANT_SESSION: SessionKind = {
  cookieName: "sg_tenant",
  path: "/dashboard",
  ttlSeconds: 12 * 3600,
  signingKey: "tenant-session",
  csrfKey: "tenant-csrf",
};

/** Shorter than a tenant's: the admin console can change every tenant. */
export const ADMIN_SESSION: SessionKind = {
  cookieName: "sg_admin",
  path: "/admin",
  ttlSeconds: 2 * 3600,
  signingKey: "admin-session",
  csrfKey: "admin-csrf",
};

/** What a session cookie carries; signed, so the browser can read it but not change it. */
const claimsSchema = z.strictObject({
  /** Tenant id, or "admin". */
  sub: z.string().min(1),
  /** Random per sign-in; CSRF tokens are bound to it. */
  sid: z.string().min(16),
  /** Fingerprint of the credential signed in with: a rotated secret or admin token ends the session. */
  fp: z.string().min(1),
  /** Expiry, epoch ms (the cookie's Max-Age is only advice to the browser). */
  exp: z.number().int(),
});
export type SessionClaims = z.infer<typeof claimsSchema>;

const encoder = new TextEncoder();

function isHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === "https:";
}

/** HttpOnly, SameSite=Strict, below the kind's path; Secure, with the `__Secure-` prefix, over https. */
function cookieOptions(c: Context, kind: SessionKind): CookieOptions {
  return {
    path: kind.path,
    httpOnly: true,
    sameSite: "Strict",
    ...(isHttps(c) ? { secure: true, prefix: "secure" } : {}),
  };
}

/** Ties a session to the credential it was opened with (the secret's stored hash, or the admin token). */
export async function credentialFingerprint(
  root: string,
  kind: SessionKind,
  credential: string,
): Promise<string> {
  return (await mac(root, "credential-fingerprint", `${kind.signingKey}\u0000${credential}`)).slice(0, 22);
}

/** Signs a new session into the kind's cookie (`cookieOptions`), for the kind's lifetime. */
export async function openSession(
  c: Context,
  kind: SessionKind,
  root: string,
  subject: { sub: string; fp: string },
  now: number,
): Promise<SessionClaims> {
  const claims: SessionClaims = {
    sub: subject.sub,
    sid: hex(randomBytes(16)),
    fp: subject.fp,
    exp: now + kind.ttlSeconds * 1000,
  };
  const value = toBase64Url(encoder.encode(JSON.stringify(claims)));
  await setSignedCookie(c, kind.cookieName, value, await keyBytes(root, kind.signingKey), {
    ...cookieOptions(c, kind),
    maxAge: kind.ttlSeconds,
  });
  return claims;
}

/** The session of this request, if its cookie is present, signed with this kind's key and unexpired. */
export async function readSession(
  c: Context,
  kind: SessionKind,
  root: string,
  now: number,
): Promise<SessionClaims | null> {
  const secret = await keyBytes(root, kind.signingKey);
  const value = await getSignedCookie(c, secret, kind.cookieName, isHttps(c) ? "secure" : undefined);
  const bytes = value ? fromBase64Url(value) : null;
  if (!bytes) return null;
  try {
    const parsed = claimsSchema.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
    return parsed.success && parsed.data.exp > now ? parsed.data : null;
  } catch {
    return null;
  }
}

export function endSession(c: Context, kind: SessionKind): void {
  deleteCookie(c, kind.cookieName, cookieOptions(c, kind));
}
