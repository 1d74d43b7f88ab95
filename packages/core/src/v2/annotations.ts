import { z } from "zod";
import { ApiError } from "../errors";
import { ipAddressSchema, sha256FingerprintSchema } from "../indexes";

// What tags and comments are put on: v2 hosts (by IP) and certificates (by SHA-256
// fingerprint). Shared by the tag and comment routes of both workers.

export const ANNOTATED_INDEXES = ["hosts", "certificates"] as const;
export type AnnotatedIndex = (typeof ANNOTATED_INDEXES)[number];

/** The key a document of each index is named by in annotation bodies (`ip`, `fingerprint`). */
export const ANNOTATED_ID_KEYS = { hosts: "ip", certificates: "fingerprint" } as const satisfies Record<
  AnnotatedIndex,
  string
>;

/**
 * The stored id of a document named in a path: an IP or a fingerprint, lowercased (hex and IPv6
 * letters match in any case). Anything else is the 422 the v2 views answer for a malformed id;
 * the document need not be in the dataset (the public service tags any IP it is given).
 */
export function annotatedDocumentId(index: AnnotatedIndex, raw: string): string {
  if (index === "hosts") {
    if (!ipAddressSchema.safeParse(raw).success)
      throw new ApiError("invalid_query", `Invalid IP address: ${raw}`);
  } else if (!sha256FingerprintSchema.safeParse(raw).success) {
    throw new ApiError("invalid_query", `Invalid SHA-256 fingerprint: ${raw}`);
  }
  return raw.toLowerCase();
}

/**
 * Annotation times as the public service writes them (its fixtures: `2021-01-01T00:00:00.000000Z`):
 * UTC with six fractional digits.
 */
export function annotationTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** `2021-01-01T00:00:00.000000Z`. */
export const annotationTimestampSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/, "expected YYYY-MM-DDThh:mm:ss.ffffffZ");
