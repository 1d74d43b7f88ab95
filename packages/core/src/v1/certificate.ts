import { z } from "zod";
import { isoTimestampSchema } from "../formats";
import { sha256FingerprintSchema } from "../indexes";

// The certificate document of v1 view and bulk. Documents are open: every object is loose,
// so fields the spec does not list pass through. The spec's view example is older and shows a
// subset, so only the fields every certificate has are required.

const hex = (length: number) =>
  z.string().regex(new RegExp(`^[0-9a-fA-F]{${length}}$`), `expected ${length} hex characters`);
const hexString = z.string().regex(/^[0-9a-fA-F]*$/, "expected hex characters");
const strings = z.array(z.string());
const algorithmSchema = z.looseObject({ name: z.string(), oid: z.string() });

export const distinguishedNameSchema = z.looseObject({
  common_name: strings.optional(),
  country: strings.optional(),
  organization: strings.optional(),
  organizational_unit: strings.optional(),
  locality: strings.optional(),
  province: strings.optional(),
});
export type DistinguishedName = z.infer<typeof distinguishedNameSchema>;

export const certificateExtensionsSchema = z.looseObject({
  authority_info_access: z
    .looseObject({ issuer_urls: strings.optional(), ocsp_urls: strings.optional() })
    .optional(),
  authority_key_id: z.string().optional(),
  basic_constraints: z
    .looseObject({ is_ca: z.boolean(), max_path_len: z.number().int().optional() })
    .optional(),
  certificate_policies: z.array(z.looseObject({ id: z.string(), cps: strings.optional() })).optional(),
  crl_distribution_points: strings.optional(),
  extended_key_usage: z
    .looseObject({ client_auth: z.boolean().optional(), server_auth: z.boolean().optional() })
    .optional(),
  key_usage: z
    .looseObject({
      digital_signature: z.boolean().optional(),
      key_encipherment: z.boolean().optional(),
      value: z.number().int(),
    })
    .optional(),
  /** The SCT list extension (RFC 6962 §3.3), one object per SCT as ZCrypto's JSON writes it. */
  signed_certificate_timestamps: z
    .array(
      z.looseObject({
        version: z.number().int().min(0),
        /** Base64 SHA-256 of the log's DER SubjectPublicKeyInfo. */
        log_id: z.base64("expected base64"),
        /** Unix seconds (the SCT itself carries milliseconds). */
        timestamp: z.number().int().min(0),
        /** Base64 TLS DigitallySigned: hash and signature algorithm bytes, length, signature. */
        signature: z.base64("expected base64"),
        /** Base64 CtExtensions; absent when empty. */
        extensions: z.base64("expected base64").optional(),
      }),
    )
    .optional(),
  subject_alt_name: z.looseObject({ dns_names: strings.optional() }).optional(),
  subject_key_id: z.string().optional(),
});
export type CertificateExtensions = z.infer<typeof certificateExtensionsSchema>;

export const subjectKeyInfoSchema = z.looseObject({
  fingerprint_sha256: sha256FingerprintSchema,
  key_algorithm: z.looseObject({ name: z.string(), oid: z.string().optional() }),
  rsa_public_key: z
    .looseObject({ exponent: z.number().int(), length: z.number().int().min(0), modulus: z.string() })
    .optional(),
  ecdsa_public_key: z
    .looseObject({
      curve: z.string().optional(),
      length: z.number().int().min(0).optional(),
      x: z.string().optional(),
      y: z.string().optional(),
    })
    .optional(),
});
export type SubjectKeyInfo = z.infer<typeof subjectKeyInfoSchema>;

export const parsedCertificateSchema = z.looseObject({
  fingerprint_md5: hex(32),
  fingerprint_sha1: hex(40),
  fingerprint_sha256: sha256FingerprintSchema,
  tbs_fingerprint: sha256FingerprintSchema.optional(),
  tbs_noct_fingerprint: sha256FingerprintSchema.optional(),
  spki_subject_fingerprint: sha256FingerprintSchema.optional(),
  /** Decimal string. */
  serial_number: z.string().min(1),
  version: z.number().int().min(1).max(3),
  validation_level: z.string().optional(),
  redacted: z.boolean().optional(),
  names: strings.optional(),
  __expanded_names: strings.optional(),
  issuer_dn: z.string(),
  subject_dn: z.string(),
  issuer: distinguishedNameSchema,
  subject: distinguishedNameSchema,
  validity: z.looseObject({
    start: isoTimestampSchema,
    end: isoTimestampSchema,
    /** Seconds. */
    length: z.number().int(),
  }),
  signature: z.looseObject({
    self_signed: z.boolean(),
    valid: z.boolean(),
    value: z.string(),
    signature_algorithm: algorithmSchema,
  }),
  signature_algorithm: algorithmSchema,
  subject_key_info: subjectKeyInfoSchema,
  extensions: certificateExtensionsSchema.optional(),
});
export type ParsedCertificate = z.infer<typeof parsedCertificateSchema>;

export const TRUST_STORES = ["apple", "google_ct_primary", "microsoft", "nss"] as const;
export type TrustStore = (typeof TRUST_STORES)[number];

export const trustStoreValidationSchema = z.looseObject({
  blacklisted: z.boolean(),
  had_trusted_path: z.boolean(),
  in_revocation_set: z.boolean(),
  trusted_path: z.boolean(),
  valid: z.boolean(),
  was_valid: z.boolean(),
  whitelisted: z.boolean(),
  /** leaf, intermediate, root, unknown. */
  type: z.string(),
  parents: z.array(sha256FingerprintSchema),
  paths: z.array(z.array(sha256FingerprintSchema)),
});
export type TrustStoreValidation = z.infer<typeof trustStoreValidationSchema>;

export const certificateValidationSchema = z.looseObject({
  apple: trustStoreValidationSchema.optional(),
  google_ct_primary: trustStoreValidationSchema.optional(),
  microsoft: trustStoreValidationSchema.optional(),
  nss: trustStoreValidationSchema.optional(),
});
export type CertificateValidation = z.infer<typeof certificateValidationSchema>;

export const zlintSchema = z.looseObject({
  errors_present: z.boolean(),
  fatals_present: z.boolean(),
  notices_present: z.boolean(),
  warnings_present: z.boolean(),
  lints: z.record(z.string(), z.boolean()),
  version: z.number().int(),
});
export type Zlint = z.infer<typeof zlintSchema>;

export const ctEntrySchema = z.looseObject({
  added_to_ct_at: isoTimestampSchema,
  ct_to_censys_at: isoTimestampSchema,
  index: z.number().int().min(0),
});
export type CtEntry = z.infer<typeof ctEntrySchema>;

export const certificateMetadataSchema = z.looseObject({
  added_at: isoTimestampSchema,
  updated_at: isoTimestampSchema,
  parse_status: z.string(),
  parse_version: z.number().int(),
  post_processed: z.boolean(),
  seen_in_scan: z.boolean(),
  source: z.string(),
});
export type CertificateMetadata = z.infer<typeof certificateMetadataSchema>;

export const certificateDocumentSchema = z.looseObject({
  /** Base64 DER. */
  raw: z.base64("expected base64"),
  parsed: parsedCertificateSchema,
  updated_at: isoTimestampSchema.optional(),
  validation_timestamp: isoTimestampSchema.optional(),
  /** The view body carries this flattened key beside the `validation` map. */
  "validation.nss.valid": z.boolean().optional(),
  validation: certificateValidationSchema.optional(),
  /** Keyed by CT log name. */
  ct: z.record(z.string(), ctEntrySchema).optional(),
  metadata: certificateMetadataSchema.optional(),
  parent_spki_subject_fingerprint: hexString.optional(),
  parents: z.array(z.string()).optional(),
  precert: z.boolean().optional(),
  tags: strings.optional(),
  zlint: zlintSchema.optional(),
});
export type CertificateDocument = z.infer<typeof certificateDocumentSchema>;
