import type { UpstreamCredential } from "../config";

/** The base64 token of `Authorization: Basic <token>` for an upstream credential (UTF-8). */
export function basicToken(credential: UpstreamCredential): string {
  const bytes = new TextEncoder().encode(`${credential.apiId}:${credential.apiSecret}`);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
