/**
 * `Basic base64(id:secret)` per RFC 7617 with UTF-8 (btoa alone only takes Latin-1).
 * btoa exists in Node, browsers and Workers alike, so no Buffer.
 */
export function basicAuthorization(apiId: string, apiSecret: string): string {
  if (apiId.includes(":"))
    throw new TypeError("apiId must not contain ':' (HTTP Basic separates id and secret with it)");
  const bytes = new TextEncoder().encode(`${apiId}:${apiSecret}`);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}
