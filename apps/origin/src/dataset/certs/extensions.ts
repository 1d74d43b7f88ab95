import { AsnConvert } from "@peculiar/asn1-schema";
import {
  AuthorityInfoAccessSyntax,
  AuthorityKeyIdentifier,
  BasicConstraints,
  CRLDistributionPoints,
  CertificatePolicies,
  ExtendedKeyUsage,
  type GeneralName,
  KeyUsage,
  SubjectAlternativeName,
  SubjectKeyIdentifier,
} from "@peculiar/asn1-x509";
import { bytesToHex } from "@noble/hashes/utils.js";
import { children, contentOf, readTlv } from "./der";
import { decodeSctListExtension, sctDocument } from "./sct";

/** OIDs of the extensions the document decodes, and of the CT ones fingerprints leave out. */
export const OID = {
  basicConstraints: "2.5.29.19",
  keyUsage: "2.5.29.15",
  extKeyUsage: "2.5.29.37",
  subjectAltName: "2.5.29.17",
  authorityKeyId: "2.5.29.35",
  subjectKeyId: "2.5.29.14",
  authorityInfoAccess: "1.3.6.1.5.5.7.1.1",
  crlDistributionPoints: "2.5.29.31",
  certificatePolicies: "2.5.29.32",
  ctPoison: "1.3.6.1.4.1.11129.2.4.3",
  sctList: "1.3.6.1.4.1.11129.2.4.2",
} as const;

const EKU: Record<string, string> = {
  "1.3.6.1.5.5.7.3.1": "server_auth",
  "1.3.6.1.5.5.7.3.2": "client_auth",
  "1.3.6.1.5.5.7.3.3": "code_signing",
  "1.3.6.1.5.5.7.3.4": "email_protection",
  "1.3.6.1.5.5.7.3.8": "time_stamping",
  "1.3.6.1.5.5.7.3.9": "ocsp_signing",
  "2.5.29.37.0": "any",
};

const KEY_USAGE_BITS: [string, number][] = [
  ["digital_signature", 1],
  ["content_commitment", 2],
  ["key_encipherment", 4],
  ["data_encipherment", 8],
  ["key_agreement", 16],
  ["certificate_sign", 32],
  ["crl_sign", 64],
  ["encipher_only", 128],
  ["decipher_only", 256],
];

export interface RawExtension {
  oid: string;
  critical: boolean;
  value: Uint8Array;
}

/** The decoded extensions, in the document's shape, plus the facts chain building needs. */
export interface DecodedExtensions {
  document: Record<string, unknown>;
  isCa: boolean | null;
  keyUsage: number | null;
  serverAuth: boolean | null;
  dnsNames: string[];
  ipAddresses: string[];
  subjectKeyId: string | null;
  authorityKeyId: string | null;
  ocspUrls: string[];
  issuerUrls: string[];
  crlUrls: string[];
  policies: string[];
  precert: boolean;
  /** OIDs that failed to decode (kept out of the document, reported in metadata). */
  undecodable: string[];
}

function uri(name: GeneralName): string[] {
  return name.uniformResourceIdentifier ? [name.uniformResourceIdentifier] : [];
}

/** A CPS qualifier's URI: the qualifier is an encoded IA5String. */
function cpsUri(qualifier: ArrayBuffer): string | null {
  const bytes = new Uint8Array(qualifier);
  try {
    const tlv = readTlv(bytes, 0);
    return tlv.tag === 0x16 ? new TextDecoder().decode(contentOf(bytes, tlv)) : null;
  } catch {
    return null;
  }
}

export function decodeExtensions(extensions: RawExtension[]): DecodedExtensions {
  const out: DecodedExtensions = {
    document: {},
    isCa: null,
    keyUsage: null,
    serverAuth: null,
    dnsNames: [],
    ipAddresses: [],
    subjectKeyId: null,
    authorityKeyId: null,
    ocspUrls: [],
    issuerUrls: [],
    crlUrls: [],
    policies: [],
    precert: false,
    undecodable: [],
  };
  const doc = out.document;
  for (const ext of extensions) {
    try {
      switch (ext.oid) {
        case OID.basicConstraints: {
          const bc = AsnConvert.parse(ext.value, BasicConstraints);
          out.isCa = bc.cA;
          doc.basic_constraints =
            bc.pathLenConstraint === undefined
              ? { is_ca: bc.cA }
              : { is_ca: bc.cA, max_path_len: bc.pathLenConstraint };
          break;
        }
        case OID.keyUsage: {
          const value = AsnConvert.parse(ext.value, KeyUsage).toNumber();
          out.keyUsage = value;
          const ku: Record<string, unknown> = {};
          for (const [name, bit] of KEY_USAGE_BITS) if (value & bit) ku[name] = true;
          ku.value = value;
          doc.key_usage = ku;
          break;
        }
        case OID.extKeyUsage: {
          const eku: Record<string, boolean> = {};
          for (const oid of AsnConvert.parse(ext.value, ExtendedKeyUsage)) {
            const name = EKU[oid];
            if (name) eku[name] = true;
          }
          out.serverAuth = eku.server_auth === true || eku.any === true;
          doc.extended_key_usage = eku;
          break;
        }
        case OID.subjectAltName: {
          const san: Record<string, string[]> = {};
          for (const name of AsnConvert.parse(ext.value, SubjectAlternativeName)) {
            if (name.dNSName !== undefined) (san.dns_names ??= []).push(name.dNSName);
            if (name.iPAddress !== undefined) (san.ip_addresses ??= []).push(name.iPAddress);
            if (name.rfc822Name !== undefined) (san.email_addresses ??= []).push(name.rfc822Name);
            if (name.uniformResourceIdentifier !== undefined)
              (san.uniform_resource_identifiers ??= []).push(name.uniformResourceIdentifier);
          }
          out.dnsNames = san.dns_names ?? [];
          out.ipAddresses = san.ip_addresses ?? [];
          doc.subject_alt_name = san;
          break;
        }
        case OID.authorityKeyId: {
          const aki = AsnConvert.parse(ext.value, AuthorityKeyIdentifier);
          if (aki.keyIdentifier) {
            out.authorityKeyId = bytesToHex(new Uint8Array(aki.keyIdentifier.buffer));
            doc.authority_key_id = out.authorityKeyId;
          }
          break;
        }
        case OID.subjectKeyId: {
          const ski = AsnConvert.parse(ext.value, SubjectKeyIdentifier);
          out.subjectKeyId = bytesToHex(new Uint8Array(ski.buffer));
          doc.subject_key_id = out.subjectKeyId;
          break;
        }
        case OID.authorityInfoAccess: {
          for (const access of AsnConvert.parse(ext.value, AuthorityInfoAccessSyntax)) {
            if (access.accessMethod === "1.3.6.1.5.5.7.48.1")
              out.ocspUrls.push(...uri(access.accessLocation));
            if (access.accessMethod === "1.3.6.1.5.5.7.48.2")
              out.issuerUrls.push(...uri(access.accessLocation));
          }
          doc.authority_info_access = { issuer_urls: out.issuerUrls, ocsp_urls: out.ocspUrls };
          break;
        }
        case OID.crlDistributionPoints: {
          for (const point of AsnConvert.parse(ext.value, CRLDistributionPoints)) {
            for (const name of point.distributionPoint?.fullName ?? []) out.crlUrls.push(...uri(name));
          }
          doc.crl_distribution_points = out.crlUrls;
          break;
        }
        case OID.certificatePolicies: {
          const policies = AsnConvert.parse(ext.value, CertificatePolicies).map((policy) => {
            const cps = (policy.policyQualifiers ?? [])
              .filter((q) => q.policyQualifierId === "1.3.6.1.5.5.7.2.1")
              .flatMap((q) => cpsUri(q.qualifier) ?? []);
            out.policies.push(policy.policyIdentifier);
            return cps.length > 0 ? { id: policy.policyIdentifier, cps } : { id: policy.policyIdentifier };
          });
          doc.certificate_policies = policies;
          break;
        }
        case OID.ctPoison:
          out.precert = true;
          doc.ct_poison = true;
          break;
        case OID.sctList:
          doc.signed_certificate_timestamps = decodeSctListExtension(ext.value).map(sctDocument);
          break;
        default:
          break;
      }
    } catch {
      out.undecodable.push(ext.oid);
    }
  }
  return out;
}

/** Raw extensions (OID, critical flag, extnValue content) from their full encodings. */
export function rawExtensions(encoded: { oid: string; bytes: Uint8Array }[]): RawExtension[] {
  return encoded.map(({ oid, bytes }) => {
    const parts = children(bytes, readTlv(bytes, 0));
    const critical = parts.length === 3 && parts[1]?.tag === 0x01 && bytes[parts[1].contentStart] !== 0;
    const valueTlv = parts[parts.length - 1];
    return { oid, critical, value: valueTlv ? contentOf(bytes, valueTlv).slice() : new Uint8Array() };
  });
}
