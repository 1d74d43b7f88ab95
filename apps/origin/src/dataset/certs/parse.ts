import { md5, sha1 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { AsnConvert } from "@peculiar/asn1-schema";
import { Certificate } from "@peculiar/asn1-x509";
import { base64 } from "../encoding";
import {
  certificateSpans,
  children,
  concat,
  contentOf,
  decodeOid,
  readTlv,
  stripLeadingZeros,
  tbsWithoutExtensions,
} from "./der";
import { parseDistinguishedName } from "./dn";
import { OID, decodeExtensions, rawExtensions, type DecodedExtensions } from "./extensions";

/**
 * One X.509 certificate decoded into the `parsed` object of the certificate document
 * (ZCrypto's JSON names), plus the facts chain building and the lints work from. Decoding uses
 * @peculiar/asn1-x509 (the ASN.1 layer of @peculiar/x509); the byte spans that are hashed come
 * straight from the DER.
 */

const SIGNATURE_ALGORITHMS: Record<
  string,
  { name: string; hash: string | null; key: "RSA" | "ECDSA" | "Ed25519" | "RSAPSS" }
> = {
  "1.2.840.113549.1.1.4": { name: "MD5-RSA", hash: null, key: "RSA" },
  "1.2.840.113549.1.1.5": { name: "SHA1-RSA", hash: "SHA-1", key: "RSA" },
  "1.2.840.113549.1.1.11": { name: "SHA256-RSA", hash: "SHA-256", key: "RSA" },
  "1.2.840.113549.1.1.12": { name: "SHA384-RSA", hash: "SHA-384", key: "RSA" },
  "1.2.840.113549.1.1.13": { name: "SHA512-RSA", hash: "SHA-512", key: "RSA" },
  "1.2.840.113549.1.1.10": { name: "SHA256-RSAPSS", hash: null, key: "RSAPSS" },
  "1.2.840.10045.4.1": { name: "ECDSA-SHA1", hash: "SHA-1", key: "ECDSA" },
  "1.2.840.10045.4.3.2": { name: "ECDSA-SHA256", hash: "SHA-256", key: "ECDSA" },
  "1.2.840.10045.4.3.3": { name: "ECDSA-SHA384", hash: "SHA-384", key: "ECDSA" },
  "1.2.840.10045.4.3.4": { name: "ECDSA-SHA512", hash: "SHA-512", key: "ECDSA" },
  "1.3.101.112": { name: "Ed25519", hash: null, key: "Ed25519" },
};

const KEY_ALGORITHMS: Record<string, string> = {
  "1.2.840.113549.1.1.1": "RSA",
  "1.2.840.10045.2.1": "ECDSA",
  "1.3.101.112": "Ed25519",
};

const CURVES: Record<string, { name: string; bits: number }> = {
  "1.2.840.10045.3.1.7": { name: "P-256", bits: 256 },
  "1.3.132.0.34": { name: "P-384", bits: 384 },
  "1.3.132.0.35": { name: "P-521", bits: 521 },
};

/** CA/Browser Forum policy OIDs (and the EV OIDs of the dataset's own CAs) to a level. */
const EV_POLICIES = new Set(["2.23.140.1.1"]);
const OV_POLICIES = new Set(["2.23.140.1.2.2", "2.23.140.1.2.3"]);
const DV_POLICIES = new Set(["2.23.140.1.2.1"]);

export interface PublicKeyFacts {
  algorithm: string;
  bits: number;
  /** For WebCrypto import: "RSA" or the named curve. */
  importAs: { name: "RSA" } | { name: "EC"; curve: string } | null;
}

export interface ParsedFacts {
  der: Uint8Array;
  sha256: string;
  subjectDer: Uint8Array;
  issuerDer: Uint8Array;
  spki: Uint8Array;
  tbs: Uint8Array;
  signature: Uint8Array;
  signatureOid: string;
  signatureHash: string | null;
  signatureKeyKind: string;
  notBefore: number;
  notAfter: number;
  publicKey: PublicKeyFacts;
  rsaModulus: bigint | null;
  rsaExponent: number | null;
  subjectCommonNames: string[];
  subject: Record<string, string[]>;
  issuer: Record<string, string[]>;
  subjectDn: string;
  issuerDn: string;
  extensions: DecodedExtensions;
  criticalOids: string[];
  extensionOids: string[];
  names: string[];
  validationLevel: string;
  version: number;
  spkiSubjectFingerprint: string;
}

export interface ParsedCertificate {
  /** The `parsed` object, except `signature.self_signed` / `signature.valid`, set by chain building. */
  parsed: Record<string, unknown>;
  facts: ParsedFacts;
}

function bigintFromBytes(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${bytesToHex(bytes)}`);
}

function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function subjectKeyInfo(spki: Uint8Array): {
  json: Record<string, unknown>;
  key: PublicKeyFacts;
  modulus: bigint | null;
  exponent: number | null;
} {
  const [algorithm, bitString] = children(spki, readTlv(spki, 0));
  if (!algorithm || !bitString) throw new Error("bad SPKI");
  const [oidTlv, params] = children(spki, algorithm);
  const oid = oidTlv ? decodeOid(contentOf(spki, oidTlv)) : "";
  const name = KEY_ALGORITHMS[oid] ?? "unknown";
  const keyBytes = contentOf(spki, bitString).subarray(1);
  const json: Record<string, unknown> = {
    fingerprint_sha256: bytesToHex(sha256(spki)),
    key_algorithm: { name, oid },
  };
  if (name === "RSA") {
    const rsa = readTlv(keyBytes, 0);
    const [n, e] = children(keyBytes, rsa);
    if (!n || !e) throw new Error("bad RSA key");
    const modulus = stripLeadingZeros(contentOf(keyBytes, n));
    const exponent = Number(bigintFromBytes(contentOf(keyBytes, e)));
    const bits = bigintFromBytes(modulus).toString(2).length;
    json.rsa_public_key = { exponent, length: bits, modulus: base64(modulus) };
    return {
      json,
      key: { algorithm: name, bits, importAs: { name: "RSA" } },
      modulus: bigintFromBytes(modulus),
      exponent,
    };
  }
  if (name === "ECDSA") {
    const curveOid = params && params.tag === 0x06 ? decodeOid(contentOf(spki, params)) : "";
    const curve = CURVES[curveOid];
    const size = curve ? Math.ceil(curve.bits / 8) : (keyBytes.length - 1) / 2;
    json.ecdsa_public_key = {
      curve: curve?.name ?? curveOid,
      length: curve?.bits ?? size * 8,
      pub: base64(keyBytes),
      x: base64(keyBytes.subarray(1, 1 + size)),
      y: base64(keyBytes.subarray(1 + size)),
    };
    const bits = curve?.bits ?? size * 8;
    return {
      json,
      key: { algorithm: name, bits, importAs: curve ? { name: "EC", curve: curve.name } : null },
      modulus: null,
      exponent: null,
    };
  }
  return {
    json,
    key: { algorithm: name, bits: keyBytes.length * 8, importAs: null },
    modulus: null,
    exponent: null,
  };
}

function validationLevel(policies: string[]): string {
  if (policies.some((p) => EV_POLICIES.has(p))) return "EV";
  if (policies.some((p) => OV_POLICIES.has(p))) return "OV";
  if (policies.some((p) => DV_POLICIES.has(p))) return "DV";
  return "unknown";
}

/** Subject CNs and SAN names, lowercased DNS names, first occurrence kept. */
function certificateNames(commonNames: string[], ext: DecodedExtensions): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of [...commonNames, ...ext.dnsNames.map((n) => n.toLowerCase()), ...ext.ipAddresses]) {
    if (!seen.has(name)) {
      seen.add(name);
      out.push(name);
    }
  }
  return out;
}

/** `names` plus, for each wildcard `*.x`, the bare `x` it also covers. */
export function expandedNames(names: string[]): string[] {
  const out = new Set(names);
  for (const name of names) if (name.startsWith("*.")) out.add(name.slice(2));
  return [...out];
}

export function parseCertificate(der: Uint8Array): ParsedCertificate {
  const spans = certificateSpans(der);
  const asn = AsnConvert.parse(der, Certificate);
  const tbs = asn.tbsCertificate;
  const sigOid = asn.signatureAlgorithm.algorithm;
  const sigAlg = SIGNATURE_ALGORITHMS[sigOid];
  const subject = parseDistinguishedName(tbs.subject);
  const issuer = parseDistinguishedName(tbs.issuer);
  const notBefore = tbs.validity.notBefore.getTime().getTime();
  const notAfter = tbs.validity.notAfter.getTime().getTime();
  const extensions = decodeExtensions(rawExtensions(spans.extensions));
  const ski = subjectKeyInfo(spans.spki);
  const commonNames = subject.fields.common_name ?? [];
  const names = certificateNames(commonNames, extensions);
  const signature = new Uint8Array(asn.signatureValue);
  const sha256Hex = bytesToHex(sha256(der));
  const level = validationLevel(extensions.policies);
  const spkiSubjectFingerprint = bytesToHex(sha256(concat([spans.spki, spans.subject])));
  const signatureAlgorithm = { name: sigAlg?.name ?? "unknown", oid: sigOid };
  const parsed: Record<string, unknown> = {
    fingerprint_md5: bytesToHex(md5(der)),
    fingerprint_sha1: bytesToHex(sha1(der)),
    fingerprint_sha256: sha256Hex,
    tbs_fingerprint: bytesToHex(sha256(spans.tbs)),
    tbs_noct_fingerprint: bytesToHex(sha256(tbsWithoutExtensions(spans, [OID.ctPoison, OID.sctList]))),
    spki_subject_fingerprint: spkiSubjectFingerprint,
    serial_number: bigintFromBytes(new Uint8Array(tbs.serialNumber)).toString(10),
    version: tbs.version + 1,
    validation_level: level,
    redacted: false,
    names,
    __expanded_names: expandedNames(names),
    issuer_dn: issuer.text,
    subject_dn: subject.text,
    issuer: issuer.fields,
    subject: subject.fields,
    validity: {
      start: isoSeconds(notBefore),
      end: isoSeconds(notAfter),
      length: Math.round((notAfter - notBefore) / 1000),
    },
    signature: {
      self_signed: false,
      valid: false,
      value: base64(signature),
      signature_algorithm: signatureAlgorithm,
    },
    signature_algorithm: signatureAlgorithm,
    subject_key_info: ski.json,
    extensions: extensions.document,
  };
  return {
    parsed,
    facts: {
      der,
      sha256: sha256Hex,
      subjectDer: spans.subject,
      issuerDer: spans.issuer,
      spki: spans.spki,
      tbs: spans.tbs,
      signature,
      signatureOid: sigOid,
      signatureHash: sigAlg?.hash ?? null,
      signatureKeyKind: sigAlg?.key ?? "unknown",
      notBefore,
      notAfter,
      publicKey: ski.key,
      rsaModulus: ski.modulus,
      rsaExponent: ski.exponent,
      subjectCommonNames: commonNames,
      subject: subject.fields,
      issuer: issuer.fields,
      subjectDn: subject.text,
      issuerDn: issuer.text,
      extensions,
      criticalOids: rawExtensions(spans.extensions)
        .filter((e) => e.critical)
        .map((e) => e.oid),
      extensionOids: spans.extensions.map((e) => e.oid),
      names,
      validationLevel: level,
      version: tbs.version + 1,
      spkiSubjectFingerprint,
    },
  };
}
