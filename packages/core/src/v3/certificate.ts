import { z } from "zod";
import { v3Asset } from "./envelope";

/**
 * Certificates of the Platform API (v3), following the SDK's `components.Certificate` and the
 * models it names. Open objects: the Platform's documents carry more than we model.
 */

/** SDK `DistinguishedName`: each attribute a list of values. */
export const v3DistinguishedNameSchema = z
  .object({
    common_name: z.array(z.string()).optional(),
    country: z.array(z.string()).optional(),
    locality: z.array(z.string()).optional(),
    organization: z.array(z.string()).optional(),
    organizational_unit: z.array(z.string()).optional(),
    province: z.array(z.string()).optional(),
  })
  .loose();

/** SDK `KeyAlgorithm`. */
export const v3KeyAlgorithmSchema = z
  .object({ name: z.string().optional(), oid: z.string().optional() })
  .loose();

/** SDK `ValidityPeriod`. */
export const v3ValidityPeriodSchema = z
  .object({
    not_before: z.string().optional(),
    not_after: z.string().optional(),
    length_seconds: z.number().int().optional(),
  })
  .loose();

/** SDK `CertificateParsed`. */
export const v3CertificateParsedSchema = z
  .object({
    version: z.number().int().optional(),
    serial_number: z.string().optional(),
    serial_number_hex: z.string().optional(),
    issuer_dn: z.string().optional(),
    subject_dn: z.string().optional(),
    issuer: v3DistinguishedNameSchema.optional(),
    subject: v3DistinguishedNameSchema.optional(),
    validity_period: v3ValidityPeriodSchema.optional(),
    signature: z
      .object({
        self_signed: z.boolean().optional(),
        valid: z.boolean().optional(),
        value: z.string().optional(),
        signature_algorithm: v3KeyAlgorithmSchema.optional(),
      })
      .loose()
      .optional(),
    subject_key_info: z
      .object({ fingerprint_sha256: z.string().optional(), key_algorithm: v3KeyAlgorithmSchema.optional() })
      .loose()
      .optional(),
    extensions: z.looseObject({}).optional(),
    redacted: z.boolean().optional(),
  })
  .loose();

/** SDK `RootStore`: trust in one root store. */
export const v3RootStoreSchema = z
  .object({
    ever_valid: z.boolean().optional(),
    had_trusted_path: z.boolean().optional(),
    has_trusted_path: z.boolean().optional(),
    in_revocation_set: z.boolean().optional(),
    is_valid: z.boolean().optional(),
    parents: z.array(z.string()).optional(),
    type: z.string().optional(),
  })
  .loose();

/** SDK `Validation`. */
export const v3ValidationSchema = z
  .object({
    apple: v3RootStoreSchema.optional(),
    chrome: v3RootStoreSchema.optional(),
    microsoft: v3RootStoreSchema.optional(),
    nss: v3RootStoreSchema.optional(),
  })
  .loose();

/** SDK `Certificate`. */
export const v3CertificateSchema = z
  .object({
    fingerprint_sha256: z.string().optional(),
    fingerprint_sha1: z.string().optional(),
    fingerprint_md5: z.string().optional(),
    tbs_fingerprint_sha256: z.string().optional(),
    tbs_no_ct_fingerprint_sha256: z.string().optional(),
    spki_subject_fingerprint_sha256: z.string().optional(),
    parent_spki_subject_fingerprint_sha256: z.string().optional(),
    added_at: z.string().optional(),
    modified_at: z.string().optional(),
    validated_at: z.string().optional(),
    ever_seen_in_scan: z.boolean().optional(),
    names: z.array(z.string()).optional(),
    parse_status: z.string().optional(),
    parsed: v3CertificateParsedSchema.optional(),
    precert: z.boolean().optional(),
    revoked: z.boolean().optional(),
    validation: v3ValidationSchema.optional(),
    validation_level: z.string().optional(),
    ct: z.looseObject({}).optional(),
    zlint: z.looseObject({}).optional(),
  })
  .loose();
export type V3Certificate = z.infer<typeof v3CertificateSchema>;

/** SDK `CertificateAsset`. */
export const v3CertificateAssetSchema = v3Asset(v3CertificateSchema);
export type V3CertificateAsset = z.infer<typeof v3CertificateAssetSchema>;

/** SDK `RawCertificateResponse`: one entry of the bulk raw (PEM) call. */
export const v3RawCertificateSchema = z.object({ certificate_id: z.string(), pem: z.string() }).loose();
export type V3RawCertificate = z.infer<typeof v3RawCertificateSchema>;
