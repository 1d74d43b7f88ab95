import { ApiError } from "../errors";
import { parseRfc3339Nanos } from "../formats";
import { ipAddressSchema, sha256FingerprintSchema } from "../indexes";

// The path and time inputs of the v2 routes, read one way wherever they are answered (the
// origin's own routes, the edge's translation to the Platform, the edge's tags and comments): an
// address, a fingerprint or an instant that cannot be one is the spec's 422, as a malformed query is.

/** A host address from the path (or `ip_b`): anything else is the 422. */
export function requireHostIp(ip: string): string {
  if (!ipAddressSchema.safeParse(ip).success)
    throw new ApiError("invalid_query", `Invalid IP address: ${ip}`);
  return ip;
}

/** A certificate's SHA-256 fingerprint from the path, lower-cased: anything else is the 422. */
export function requireFingerprint(raw: string): string {
  if (!sha256FingerprintSchema.safeParse(raw).success)
    throw new ApiError("invalid_query", `Invalid SHA-256 fingerprint: ${raw}`);
  return raw.toLowerCase();
}

/** An RFC 3339 instant from the query parameter `name`: anything else is a 422 naming it. */
export function requireInstant(name: string, text: string): { ms: number; nanos: string } {
  const instant = parseRfc3339Nanos(text);
  if (!instant) {
    throw new ApiError(
      "invalid_query",
      `Invalid ${name}: expected an RFC 3339 timestamp, got ${JSON.stringify(text)}`,
    );
  }
  return instant;
}
