import { z } from "zod";

/** The three v1 indexes, and the kind of id a document of each is looked up by. */
export const V1_INDEXES = ["ipv4", "websites", "certificates"] as const;
export type V1Index = (typeof V1_INDEXES)[number];
export const v1IndexSchema = z.enum(V1_INDEXES);

export const INDEX_ID_KINDS = {
  ipv4: "ipv4 address",
  websites: "domain",
  certificates: "sha256 fingerprint",
} as const satisfies Record<V1Index, string>;
export type IndexIdKind = (typeof INDEX_ID_KINDS)[V1Index];

/** Dotted quad, each octet 0-255, no leading zeros. */
export const ipv4Schema = z.ipv4({ error: "expected an IPv4 address (dotted quad, octets 0-255)" });
export const ipv6Schema = z.ipv6({ error: "expected an IPv6 address" });
/** v2 host views accept either family. */
export const ipAddressSchema = z.union([ipv4Schema, ipv6Schema], {
  error: "expected an IPv4 or IPv6 address",
});

/** 64 hex digits, any case: a SHA-256 fingerprint as every API here takes one. */
export const SHA256_HEX = /^[0-9a-fA-F]{64}$/;
/** Whether `text` is a SHA-256 fingerprint (64 hex digits, any case): the schema's check, without a parse. */
export const isSha256Fingerprint = (text: string): boolean => SHA256_HEX.test(text);
export const sha256FingerprintSchema = z
  .string()
  .regex(SHA256_HEX, "expected a SHA-256 fingerprint (64 hex characters)");

// RFC 1123: labels of 1-63 letters, digits and hyphens, not starting or ending with a hyphen;
// the top-level label is not all digits (so a dotted quad is not a domain).
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
export const DOMAIN_MAX_LENGTH = 253;

export function isDomainName(value: string): boolean {
  if (value.length === 0 || value.length > DOMAIN_MAX_LENGTH) return false;
  const labels = value.split(".");
  const top = labels[labels.length - 1] ?? "";
  return labels.every((label) => DOMAIN_LABEL.test(label)) && !/^\d+$/.test(top);
}

export const domainSchema = z
  .string()
  .refine(isDomainName, `expected a domain name (RFC 1123 labels, at most ${DOMAIN_MAX_LENGTH} characters)`);

/** A schema for the id of a document in `index`, as used by v1 view and the cache. */
export function documentIdSchema(index: V1Index): z.ZodType<string> {
  switch (index) {
    case "ipv4":
      return ipv4Schema;
    case "websites":
      return domainSchema;
    case "certificates":
      return sha256FingerprintSchema;
  }
}

/** Domains and fingerprints compare case-insensitively; one spelling for cache keys. */
export function normalizeDocumentId(index: V1Index, id: string): string {
  return index === "ipv4" ? id : id.toLowerCase();
}

/** `:index` path parameter of v1 search and report. */
export const indexParamsSchema = z.object({ index: v1IndexSchema });
export type IndexParams = z.infer<typeof indexParamsSchema>;
