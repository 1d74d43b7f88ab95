import type { V3Certificate } from "@scangate/core";

/**
 * The Platform (v3) face of a certificate: projected from the v1 certificate document the
 * dataset stores, so the three APIs answer from one record. Fields the Platform renamed are
 * renamed here (`tbs_fingerprint` → `tbs_fingerprint_sha256`, validity → `validity_period`,
 * root-store `valid` → `is_valid`); blocks both share (extensions, zlint, ct) pass through.
 */

type Json = Record<string, unknown>;

const obj = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const bool = (value: unknown): boolean | undefined => (typeof value === "boolean" ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

/** Decimal serial as the Platform's `serial_number_hex` (lowercase, even length). */
function serialHex(decimal: string | undefined): string | undefined {
  if (!decimal || !/^\d+$/.test(decimal)) return undefined;
  const hex = BigInt(decimal).toString(16);
  return hex.length % 2 === 0 ? hex : `0${hex}`;
}

/** v1 root-store names → the Platform's (`google_ct_primary` has no Platform counterpart; Chrome does). */
const ROOT_STORES: Record<string, string> = {
  nss: "nss",
  apple: "apple",
  microsoft: "microsoft",
  google_ct_primary: "chrome",
};

function rootStore(v1: Json) {
  return {
    is_valid: bool(v1.valid),
    ever_valid: bool(v1.was_valid),
    has_trusted_path: bool(v1.trusted_path),
    had_trusted_path: bool(v1.had_trusted_path),
    in_revocation_set: bool(v1.in_revocation_set),
    parents: Array.isArray(v1.parents) ? (v1.parents as string[]) : [],
    type: str(v1.type),
  };
}

/** The validation level as the Platform spells it (`dv`/`ov`/`ev`, else empty). */
/** The SDK's `ValidationLevel` ("dv", "ov", "ev", "" unknown) of the dataset's "DV", "OV", "EV", "unknown". */
const validationLevel = (level: unknown) => {
  const lower = typeof level === "string" ? level.toLowerCase() : "";
  return lower === "dv" || lower === "ov" || lower === "ev" ? lower : "";
};

/**
 * v1 extensions in the Platform's shape: the same ZCrypto names, except that a signed
 * certificate timestamp's time is RFC 3339 (v1: epoch seconds) and its signature an object.
 */
function v3Extensions(v1: Json): Json {
  const scts = v1.signed_certificate_timestamps;
  if (!Array.isArray(scts)) return v1;
  return {
    ...v1,
    signed_certificate_timestamps: scts.map((entry) => {
      const sct = obj(entry);
      const seconds = num(sct.timestamp);
      return {
        version: num(sct.version),
        log_id: str(sct.log_id),
        timestamp: seconds === undefined ? undefined : new Date(seconds * 1000).toISOString(),
        signature: { signature: str(sct.signature) },
      };
    }),
  };
}

export function v3Certificate(v1Document: unknown): V3Certificate {
  const doc = obj(v1Document);
  const parsed = obj(doc.parsed);
  const metadata = obj(doc.metadata);
  const validity = obj(parsed.validity);
  const signature = obj(parsed.signature);
  const keyInfo = obj(parsed.subject_key_info);
  const validation: Record<string, unknown> = {};
  for (const [v1Name, name] of Object.entries(ROOT_STORES)) {
    const store = obj(obj(doc.validation)[v1Name]);
    if (Object.keys(store).length > 0) validation[name] = rootStore(store);
  }
  return {
    fingerprint_sha256: str(parsed.fingerprint_sha256),
    fingerprint_sha1: str(parsed.fingerprint_sha1),
    fingerprint_md5: str(parsed.fingerprint_md5),
    tbs_fingerprint_sha256: str(parsed.tbs_fingerprint),
    tbs_no_ct_fingerprint_sha256: str(parsed.tbs_noct_fingerprint),
    spki_subject_fingerprint_sha256: str(parsed.spki_subject_fingerprint),
    parent_spki_subject_fingerprint_sha256: str(doc.parent_spki_subject_fingerprint),
    added_at: str(metadata.added_at),
    modified_at: str(metadata.updated_at ?? doc.updated_at),
    validated_at: str(doc.validation_timestamp),
    ever_seen_in_scan: bool(metadata.seen_in_scan),
    names: Array.isArray(parsed.names) ? (parsed.names as string[]) : [],
    parse_status: str(metadata.parse_status),
    precert: bool(doc.precert),
    revoked: false,
    validation_level: validationLevel(parsed.validation_level),
    validation,
    parsed: {
      version: num(parsed.version),
      serial_number: str(parsed.serial_number),
      serial_number_hex: serialHex(str(parsed.serial_number)),
      issuer_dn: str(parsed.issuer_dn),
      subject_dn: str(parsed.subject_dn),
      issuer: obj(parsed.issuer),
      subject: obj(parsed.subject),
      validity_period: {
        not_before: str(validity.start),
        not_after: str(validity.end),
        length_seconds: num(validity.length),
      },
      signature: {
        self_signed: bool(signature.self_signed),
        valid: bool(signature.valid),
        value: str(signature.value),
        signature_algorithm: obj(signature.signature_algorithm ?? parsed.signature_algorithm),
      },
      subject_key_info: {
        ...keyInfo,
        fingerprint_sha256: str(keyInfo.fingerprint_sha256),
        key_algorithm: obj(keyInfo.key_algorithm),
      },
      extensions: v3Extensions(obj(parsed.extensions)),
      redacted: bool(parsed.redacted),
    },
    ct: obj(doc.ct),
    zlint: obj(doc.zlint),
  };
}

/** The certificate as a PEM file (the DER the v1 document keeps as base64 `raw`), or null. */
export function certificatePem(v1Document: unknown): string | null {
  const raw = str(obj(v1Document).raw);
  if (!raw) return null;
  const lines = raw.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}
