import type { SessionClaims, SessionKind } from "./session-cookie";
import { secretsEqual } from "@scangate/core/http";
import { mac } from "./keys";

// CSRF tokens for the forms of a signed-in page: a MAC of the session id under the kind's CSRF
// key, so a token is worth nothing outside the session (and the kind) it was made for. The
// SameSite=Strict cookie and the same-origin check (same-origin.ts) are two more layers.

export const CSRF_FIELD = "csrf";

export function csrfToken(root: string, kind: SessionKind, session: SessionClaims): Promise<string> {
  return mac(root, kind.csrfKey, session.sid);
}

export async function csrfTokenValid(
  root: string,
  kind: SessionKind,
  session: SessionClaims,
  presented: string | undefined,
): Promise<boolean> {
  if (!presented) return false;
  return secretsEqual(await csrfToken(root, kind, session), presented);
}
