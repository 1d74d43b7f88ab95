import { auth } from "hono/utils/basic-auth";
import { encodeBase64 } from "hono/utils/encode";

export interface BasicCredentials {
  readonly username: string;
  readonly password: string;
}

/**
 * The user name and password of the request's `Authorization: Basic` header (RFC 7617, UTF-8),
 * or null when the header is absent or malformed. The user name is an API ID, never empty.
 */
export function parseBasicAuth(request: Request): BasicCredentials | null {
  const credentials = auth(request);
  return credentials && credentials.username !== "" ? credentials : null;
}

const encoder = new TextEncoder();

/** The token of `Authorization: Basic <token>`: base64 of the UTF-8 `username:password`. */
export function basicToken(username: string, password: string): string {
  return encodeBase64(encoder.encode(`${username}:${password}`).buffer);
}

/** The `Authorization` value that presents `username` and `password` as HTTP Basic. */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${basicToken(username, password)}`;
}
