import type { CertificateDocument } from "../v1/certificate";
import { expandedNames, legacyCertificateSource, legacyCertificateTags } from "./legacy-certificate-tags";
import { bool, defined, num, obj, str, type Json } from "./legacy-json";

/**
 * A Platform (v3) certificate as the legacy v1 certificate document, for an edge whose upstream
 * speaks only the Platform API. The inverse of the Platform's renames: `tbs_fingerprint_sha256`
 * → `tbs_fingerprint`, `validity_period` → `validity`, a root store's `is_valid` → `valid`,
 * Chrome → `google_ct_primary`, an SCT's RFC 3339 time → epoch seconds. `raw` (base64 DER) comes
 * from the certificate's PEM, which the Platform serves apart from the document.
 *
 * Fields that summarise others (`tags`, `metadata.source`, `parsed.__expanded_names`) are
 * computed from the Platform's document (`legacy-certificate-tags.ts`). What the Platform does
 * not carry is left out rather than invented: the verified `parents` of any path, a root
 * store's `paths`, `blacklisted` and `whitelisted`, and the metadata's `parse_version` and
 * `post_processed` (LEGACY_CERTIFICATE_GAPS).
 */

/** The v1 certificate paths a document translated from the Platform leaves out. */
export const LEGACY_CERTIFICATE_GAPS: readonly string[] = [
  "parents",
  "validation.*.paths",
  "validation.*.blacklisted",
  "validation.*.whitelisted",
  "metadata.parse_version",
  "metadata.post_processed",
];

export interface LegacyCertificateOptions {
  /** The instant `expired` / `unexpired` tags are judged at (epoch ms); the current time by default. */
  now?: number;
}

/** The Platform's root stores → v1's names. */
const ROOT_STORES: Record<string, string> = {
  nss: "nss",
  apple: "apple",
  microsoft: "microsoft",
  chrome: "google_ct_primary",
};

/** The base64 DER inside a PEM certificate, or undefined when `pem` holds none. */
export function derFromPem(pem: string): string | undefined {
  const match = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(pem);
  const base64 = match?.[1]?.replace(/\s+/g, "");
  return base64 ? base64 : undefined;
}

function legacyRootStore(store: Json): Json {
  return defined({
    valid: bool(store.is_valid),
    was_valid: bool(store.ever_valid),
    trusted_path: bool(store.has_trusted_path),
    had_trusted_path: bool(store.had_trusted_path),
    in_revocation_set: bool(store.in_revocation_set),
    parents: Array.isArray(store.parents) ? store.parents : [],
    type: str(store.type),
  });
}

/** v3 extensions as v1's: an SCT's time back to epoch seconds and its signature to its text. */
function legacyExtensions(extensions: Json): Json {
  const scts = extensions.signed_certificate_timestamps;
  if (!Array.isArray(scts)) return extensions;
  return {
    ...extensions,
    signed_certificate_timestamps: scts.map((entry) => {
      const sct = obj(entry);
      const time = str(sct.timestamp);
      const ms = time === undefined ? Number.NaN : Date.parse(time);
      return defined({
        version: num(sct.version),
        log_id: str(sct.log_id),
        timestamp: Number.isNaN(ms) ? undefined : Math.floor(ms / 1000),
        signature: str(obj(sct.signature).signature) ?? str(sct.signature),
      });
    }),
  };
}

/** A v3 `Certificate` (the `resource` of a certificate asset) and its PEM as the v1 document. */
export function legacyCertificate(
  v3Certificate: unknown,
  pem: string | undefined,
  options: LegacyCertificateOptions = {},
): CertificateDocument {
  const c = obj(v3Certificate);
  const parsed = obj(c.parsed);
  const validity = obj(parsed.validity_period);
  const signature = obj(parsed.signature);
  const signatureAlgorithm = obj(signature.signature_algorithm);
  const validation: Json = {};
  for (const [name, legacyName] of Object.entries(ROOT_STORES)) {
    const store = obj(obj(c.validation)[name]);
    if (Object.keys(store).length > 0) validation[legacyName] = legacyRootStore(store);
  }
  const level = str(c.validation_level);
  const modified = str(c.modified_at);
  const nss = obj(validation.nss);
  return defined({
    raw: pem === undefined ? undefined : derFromPem(pem),
    parsed: defined({
      fingerprint_md5: str(c.fingerprint_md5),
      fingerprint_sha1: str(c.fingerprint_sha1),
      fingerprint_sha256: str(c.fingerprint_sha256),
      tbs_fingerprint: str(c.tbs_fingerprint_sha256),
      tbs_noct_fingerprint: str(c.tbs_no_ct_fingerprint_sha256),
      spki_subject_fingerprint: str(c.spki_subject_fingerprint_sha256),
      serial_number: str(parsed.serial_number),
      version: num(parsed.version),
      // The Platform spells levels `dv`, `ov`, `ev` and an unknown one "", v1 `DV`... and "unknown".
      validation_level: level === undefined ? undefined : level.toUpperCase() || "unknown",
      redacted: bool(parsed.redacted),
      names: Array.isArray(c.names) ? c.names : undefined,
      __expanded_names: Array.isArray(c.names) ? expandedNames(c.names) : undefined,
      issuer_dn: str(parsed.issuer_dn),
      subject_dn: str(parsed.subject_dn),
      issuer: obj(parsed.issuer),
      subject: obj(parsed.subject),
      validity: defined({
        start: str(validity.not_before),
        end: str(validity.not_after),
        length: num(validity.length_seconds),
      }),
      signature: defined({
        self_signed: bool(signature.self_signed),
        valid: bool(signature.valid),
        value: str(signature.value),
        signature_algorithm: signatureAlgorithm,
      }),
      signature_algorithm: signatureAlgorithm,
      subject_key_info: obj(parsed.subject_key_info),
      extensions: parsed.extensions === undefined ? undefined : legacyExtensions(obj(parsed.extensions)),
    }),
    updated_at: modified,
    validation_timestamp: str(c.validated_at),
    "validation.nss.valid": bool(nss.valid),
    validation,
    ct: c.ct === undefined ? undefined : obj(c.ct),
    metadata: defined({
      added_at: str(c.added_at),
      updated_at: modified,
      parse_status: str(c.parse_status),
      seen_in_scan: bool(c.ever_seen_in_scan),
      source: legacyCertificateSource(c),
    }),
    parent_spki_subject_fingerprint: str(c.parent_spki_subject_fingerprint_sha256),
    precert: bool(c.precert),
    tags: legacyCertificateTags(c, options.now ?? Date.now()),
    zlint: c.zlint === undefined ? undefined : obj(c.zlint),
  }) as unknown as CertificateDocument;
}
