/**
 * v2 host search cursors: opaque, tamper-evident tokens for keyset pagination.
 *
 * A token is `base64url(payload) "." base64url(HMAC-SHA256(key, payload))`. The payload holds
 * the direction, the keyset position (ip_num of the last row seen) and a digest of the query
 * parameters the cursor was issued for, so a cursor replayed with another `q` or `per_page` is
 * recognised as such (and reported differently from a forged one).
 */

import { fromBase64Url, toBase64Url } from "@scangate/core/http";

/** Used when CURSOR_SECRET is not configured (local development and tests only). */
export const DEV_CURSOR_SECRET = "scangate-origin-dev-cursor-secret";

export type CursorDirection = "next" | "prev";

export interface CursorPosition {
  direction: CursorDirection;
  /** `next`: rows after this key; `prev`: rows before it. */
  key: number;
}

/** What a cursor is bound to: the parameters that shape the result set. */
export interface CursorBinding {
  q: string;
  perPage: number;
}

export type DecodedCursor =
  | { ok: true; position: CursorPosition }
  | { ok: false; reason: "malformed" | "forged" | "mismatched" };

export interface CursorCodec {
  encode(position: CursorPosition, binding: CursorBinding): Promise<string>;
  decode(token: string, binding: CursorBinding): Promise<DecodedCursor>;
}

const encoder = new TextEncoder();

async function bindingDigest(binding: CursorBinding): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(`${binding.q}\n${binding.perPage}`));
  return toBase64Url(new Uint8Array(digest).slice(0, 12));
}

interface Payload {
  d: "n" | "p";
  k: number;
  b: string;
}

function parsePayload(bytes: Uint8Array): Payload | null {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { d, k, b } = value as Record<string, unknown>;
  if (
    (d !== "n" && d !== "p") ||
    typeof k !== "number" ||
    !Number.isSafeInteger(k) ||
    typeof b !== "string"
  ) {
    return null;
  }
  return { d, k, b };
}

export async function createCursorCodec(secret: string): Promise<CursorCodec> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  return {
    async encode(position, binding) {
      const payload: Payload = {
        d: position.direction === "next" ? "n" : "p",
        k: position.key,
        b: await bindingDigest(binding),
      };
      const body = encoder.encode(JSON.stringify(payload));
      const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, body));
      return `${toBase64Url(body)}.${toBase64Url(signature)}`;
    },
    async decode(token, binding) {
      const parts = token.split(".");
      if (parts.length !== 2) return { ok: false, reason: "malformed" };
      const body = fromBase64Url(parts[0] ?? "");
      const signature = fromBase64Url(parts[1] ?? "");
      if (!body || !signature || body.length === 0) return { ok: false, reason: "malformed" };
      // verify() compares in constant time.
      if (!(await crypto.subtle.verify("HMAC", key, signature, body))) return { ok: false, reason: "forged" };
      const payload = parsePayload(body);
      if (!payload) return { ok: false, reason: "malformed" };
      if (payload.b !== (await bindingDigest(binding))) return { ok: false, reason: "mismatched" };
      return { ok: true, position: { direction: payload.d === "n" ? "next" : "prev", key: payload.k } };
    },
  };
}
