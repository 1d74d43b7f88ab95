import {
  docField,
  elementField,
  objectsOf,
  valueAt,
  type CertificateRowSource,
  type Json,
  type SeriesDefinition,
  type SnapshotField,
  type SnapshotRecord,
} from "./definitions";

/**
 * The certificates series: one row per certificate, read from the v1 certificate document
 * (see dataset/certs/: the parser decides which keys a document can have).
 */

const doc = docField<CertificateRowSource>;

/**
 * Which of the attributes, key usages and SAN kinds the parser knows (certs/dn.ts,
 * certs/extensions.ts) the dataset's certificates carry: the real roots and the generated PKI
 * never have the others (surname, key_agreement, ip_addresses, ...), so they are left out.
 */
const ISSUER_ATTRIBUTES = [
  "common_name",
  "country",
  "locality",
  "province",
  "organization",
  "organizational_unit",
  "serial_number",
  "email_address",
  "organization_id",
];
const SUBJECT_ATTRIBUTES = [...ISSUER_ATTRIBUTES, "business_category", "jurisdiction_country"];
const KEY_USAGES = [
  "digital_signature",
  "content_commitment",
  "key_encipherment",
  "certificate_sign",
  "crl_sign",
];
const EXTENDED_KEY_USAGES = ["server_auth", "client_auth"];
const SUBJECT_ALT_NAMES = ["dns_names", "email_addresses"];

const TRUST_STORES = ["nss", "apple", "microsoft", "google_ct_primary"];

function distinguishedName(part: "subject" | "issuer"): SnapshotField<CertificateRowSource>[] {
  const attributes = part === "subject" ? SUBJECT_ATTRIBUTES : ISSUER_ATTRIBUTES;
  return attributes.map((attribute) => doc(`parsed.${part}.${attribute}`, "STRING", "REPEATED"));
}

function validation(store: string): SnapshotField<CertificateRowSource>[] {
  const prefix = `validation.${store}`;
  const flags = [
    "valid",
    "was_valid",
    "trusted_path",
    "had_trusted_path",
    "blacklisted",
    "whitelisted",
    "in_revocation_set",
  ];
  return [...flags.map((flag) => doc(`${prefix}.${flag}`, "BOOLEAN")), doc(`${prefix}.type`, "STRING")];
}

const extensions = "parsed.extensions";

/** Certificate policies are a list of `{id, cps}`: their ids and CPS URLs, each as one list. */
function policies(key: "id" | "cps"): (source: CertificateRowSource) => unknown[] {
  return (source) =>
    objectsOf(valueAt(source.doc, `${extensions}.certificate_policies`)).flatMap(
      (policy) => policy[key] ?? [],
    );
}

/** CT log entries: the document keys them by log (`google_argon_2026h2`). */
const CT: SnapshotRecord<CertificateRowSource> = {
  name: "ct",
  elements: (source) => {
    const ct = source.doc.ct;
    if (typeof ct !== "object" || ct === null) return [];
    return Object.entries(ct as Json).flatMap(([log, entry]) =>
      typeof entry === "object" && entry !== null ? [{ ...(entry as Json), log_name: log }] : [],
    );
  },
  fields: [
    elementField("ct", "log_name", "STRING"),
    elementField("ct", "index", "INTEGER"),
    elementField("ct", "added_to_ct_at", "TIMESTAMP"),
    elementField("ct", "ct_to_censys_at", "TIMESTAMP"),
  ],
};

/** The certificates series without its lints (see `certificatesSeries`). */
const CERTIFICATES: SeriesDefinition<CertificateRowSource> = {
  series: "certificates",
  key: "parsed.fingerprint_sha256",
  fields: [
    doc("parsed.fingerprint_sha256", "STRING", "REQUIRED"),
    doc("parsed.fingerprint_sha1", "STRING"),
    doc("parsed.fingerprint_md5", "STRING"),
    doc("parsed.tbs_fingerprint", "STRING"),
    doc("parsed.tbs_noct_fingerprint", "STRING"),
    doc("parsed.spki_subject_fingerprint", "STRING"),
    doc("parent_spki_subject_fingerprint", "STRING"),
    doc("parents", "STRING", "REPEATED"),
    doc("parsed.serial_number", "STRING"),
    doc("parsed.version", "INTEGER"),
    doc("parsed.redacted", "BOOLEAN"),
    doc("parsed.issuer_dn", "STRING"),
    doc("parsed.subject_dn", "STRING"),
    ...distinguishedName("issuer"),
    ...distinguishedName("subject"),
    doc("parsed.names", "STRING", "REPEATED"),
    doc("parsed.__expanded_names", "STRING", "REPEATED"),
    doc("parsed.validity.start", "TIMESTAMP"),
    doc("parsed.validity.end", "TIMESTAMP"),
    doc("parsed.validity.length", "INTEGER"),
    doc("parsed.validation_level", "STRING"),
    doc("parsed.signature_algorithm.name", "STRING"),
    doc("parsed.signature_algorithm.oid", "STRING"),
    doc("parsed.signature.self_signed", "BOOLEAN"),
    doc("parsed.signature.valid", "BOOLEAN"),
    doc("parsed.subject_key_info.fingerprint_sha256", "STRING"),
    doc("parsed.subject_key_info.key_algorithm.name", "STRING"),
    doc("parsed.subject_key_info.key_algorithm.oid", "STRING"),
    doc("parsed.subject_key_info.rsa_public_key.length", "INTEGER"),
    doc("parsed.subject_key_info.rsa_public_key.exponent", "INTEGER"),
    doc("parsed.subject_key_info.ecdsa_public_key.curve", "STRING"),
    doc("parsed.subject_key_info.ecdsa_public_key.length", "INTEGER"),
    doc(`${extensions}.basic_constraints.is_ca`, "BOOLEAN"),
    doc(`${extensions}.basic_constraints.max_path_len`, "INTEGER"),
    ...KEY_USAGES.map((usage) => doc(`${extensions}.key_usage.${usage}`, "BOOLEAN")),
    doc(`${extensions}.key_usage.value`, "INTEGER"),
    ...EXTENDED_KEY_USAGES.map((usage) => doc(`${extensions}.extended_key_usage.${usage}`, "BOOLEAN")),
    ...SUBJECT_ALT_NAMES.map((kind) => doc(`${extensions}.subject_alt_name.${kind}`, "STRING", "REPEATED")),
    doc(`${extensions}.authority_key_id`, "STRING"),
    doc(`${extensions}.subject_key_id`, "STRING"),
    doc(`${extensions}.authority_info_access.issuer_urls`, "STRING", "REPEATED"),
    doc(`${extensions}.authority_info_access.ocsp_urls`, "STRING", "REPEATED"),
    doc(`${extensions}.crl_distribution_points`, "STRING", "REPEATED"),
    {
      ...doc(`${extensions}.certificate_policies.id`, "STRING", "REPEATED"),
      read: policies("id"),
    },
    {
      ...doc(`${extensions}.certificate_policies.cps`, "STRING", "REPEATED"),
      read: policies("cps"),
    },
    doc(`${extensions}.ct_poison`, "BOOLEAN"),
    ...TRUST_STORES.flatMap(validation),
    doc("validation_timestamp", "TIMESTAMP"),
    doc("precert", "BOOLEAN"),
    doc("tags", "STRING", "REPEATED"),
    doc("zlint.version", "INTEGER"),
    doc("zlint.errors_present", "BOOLEAN"),
    doc("zlint.fatals_present", "BOOLEAN"),
    doc("zlint.warnings_present", "BOOLEAN"),
    doc("zlint.notices_present", "BOOLEAN"),
    doc("metadata.source", "STRING"),
    doc("metadata.added_at", "TIMESTAMP"),
    doc("metadata.updated_at", "TIMESTAMP"),
    doc("metadata.parse_status", "STRING"),
    doc("metadata.parse_version", "INTEGER"),
    doc("metadata.post_processed", "BOOLEAN"),
    doc("metadata.seen_in_scan", "BOOLEAN"),
    doc("updated_at", "TIMESTAMP"),
    doc("raw", "STRING"),
  ],
  records: [CT],
};

/**
 * The certificates series with a field per lint of `lintNames` (`zlint.lints.<name>`), after the
 * zlint summary: a document lists only the lints that found a problem (`true`), the others are
 * null, and which lints exist is the linter's, so the caller names them. Every lint named is a
 * field, even one no certificate fails.
 */
export function certificatesSeries(lintNames: readonly string[]): SeriesDefinition<CertificateRowSource> {
  const fields = [...CERTIFICATES.fields];
  const after = fields.findIndex((f) => f.name === "zlint.notices_present") + 1;
  fields.splice(after, 0, ...lintNames.map((lint) => doc(`zlint.lints.${lint}`, "BOOLEAN")));
  return { ...CERTIFICATES, fields };
}
