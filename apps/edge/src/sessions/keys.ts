import { toBase64Url } from "@scangate/core/http";
import type { Env } from "../env";

// Keys of the web sessions. One root secret (SESSION_SECRET, or the admin token when that is
// unset, so a fresh local setup needs no extra secret) is stretched with HKDF into one key per
// purpose: a tenant cookie, an admin cookie and their CSRF tokens are each signed with their
// own key, so a value made for one purpose never verifies as another.

export type KeyPurpose =
  | "tenant-session"
  | "admin-session"
  | "tenant-csrf"
  | "admin-csrf"
  | "credential-fingerprint";

const SESSION_SECRET_MIN_LENGTH = 32;

const encoder = new TextEncoder();
const derived = new Map<string, Promise<ArrayBuffer>>();

export type RootSecret = { ok: true; secret: string } | { ok: false; problem: string };

/** The root of every session key; a SESSION_SECRET that is set but short is a config error. */
export function sessionRootSecret(env: Env, adminToken: string): RootSecret {
  const configured = env.SESSION_SECRET;
  if (configured === undefined || configured === "") return { ok: true, secret: `admin-token:${adminToken}` };
  if (configured.length < SESSION_SECRET_MIN_LENGTH) {
    return {
      ok: false,
      problem: `SESSION_SECRET: must be at least ${SESSION_SECRET_MIN_LENGTH} characters (use a random token)`,
    };
  }
  return { ok: true, secret: `session-secret:${configured}` };
}

/** 32 key bytes for `purpose`, derived (HKDF-SHA-256) once per isolate. */
export function keyBytes(root: string, purpose: KeyPurpose): Promise<ArrayBuffer> {
  const id = `${purpose}\u0000${root}`;
  const known = derived.get(id);
  if (known) return known;
  const key = crypto.subtle
    .importKey("raw", encoder.encode(root), "HKDF", false, ["deriveBits"])
    .then((material) =>
      crypto.subtle.deriveBits(
        {
          name: "HKDF",
          hash: "SHA-256",
          salt: encoder.encode("scangate-web-sessions-v1"),
          info: encoder.encode(purpose),
        },
        material,
        256,
      ),
    );
  derived.set(id, key);
  return key;
}

/** HMAC-SHA-256 of `message` under the key of `purpose`, base64url. */
export async function mac(root: string, purpose: KeyPurpose, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    await keyBytes(root, purpose),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return toBase64Url(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}
