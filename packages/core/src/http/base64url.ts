import { decodeBase64Url, encodeBase64Url } from "hono/utils/encode";

/** Unpadded base64url (RFC 4648 §5), the URL- and cookie-safe form of our tokens. */
export function toBase64Url(bytes: Uint8Array | ArrayBuffer): string {
  // Hono's encoder takes a buffer; a view may cover only part of its buffer, so copy it out.
  const buffer = bytes instanceof Uint8Array ? bytes.slice().buffer : bytes;
  return encodeBase64Url(buffer).replace(/=+$/, "");
}

/** The bytes of unpadded base64url, or null when `text` is not that. */
export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    return decodeBase64Url(text);
  } catch {
    return null;
  }
}
