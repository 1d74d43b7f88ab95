import { bytesToHex } from "@noble/hashes/utils.js";
import type { ParsedCertificate } from "./parse";
import { X509Certificate } from "./x509";

/**
 * Real chain building over the dataset's certificates: a parent is a certificate whose subject
 * equals the child's issuer (byte for byte), whose subject key id matches the child's authority
 * key id when both are present, and whose public key verifies the child's signature
 * (WebCrypto, through @peculiar/x509). Paths run from a certificate up to a root of a trust
 * store; validity is judged at the dataset's "now".
 */

export type TrustStoreName = "apple" | "google_ct_primary" | "microsoft" | "nss";
export const TRUST_STORE_NAMES: TrustStoreName[] = ["apple", "google_ct_primary", "microsoft", "nss"];

export interface StoreValidation {
  blacklisted: boolean;
  had_trusted_path: boolean;
  in_revocation_set: boolean;
  trusted_path: boolean;
  valid: boolean;
  was_valid: boolean;
  whitelisted: boolean;
  type: string;
  parents: string[];
  paths: string[][];
}

export interface ChainFacts {
  selfSigned: boolean;
  signatureValid: boolean;
  /** Verified parents (SHA-256), self excluded. */
  parents: string[];
  validation: Record<TrustStoreName, StoreValidation>;
}

/** Bounded depth: real chains here are at most root, intermediate, leaf. */
const MAX_PATH = 6;

export async function buildChains(
  certs: ParsedCertificate[],
  stores: Record<TrustStoreName, Set<string>>,
  now: number,
): Promise<Map<string, ChainFacts>> {
  const bySubject = new Map<string, ParsedCertificate[]>();
  for (const cert of certs) {
    const key = bytesToHex(cert.facts.subjectDer);
    bySubject.set(key, [...(bySubject.get(key) ?? []), cert]);
  }
  const x509 = new Map(certs.map((c) => [c.facts.sha256, new X509Certificate(c.facts.der.slice())]));

  async function verifies(child: ParsedCertificate, parent: ParsedCertificate): Promise<boolean> {
    const childAki = child.facts.extensions.authorityKeyId;
    const parentSki = parent.facts.extensions.subjectKeyId;
    if (childAki && parentSki && childAki !== parentSki) return false;
    const childX509 = x509.get(child.facts.sha256);
    const parentX509 = x509.get(parent.facts.sha256);
    if (!childX509 || !parentX509) return false;
    try {
      return await childX509.verify({ publicKey: parentX509.publicKey, signatureOnly: true });
    } catch {
      // Algorithms WebCrypto does not implement (MD5-RSA, ...) cannot be verified.
      return false;
    }
  }

  const facts = new Map<
    string,
    { selfSigned: boolean; signatureValid: boolean; parents: ParsedCertificate[] }
  >();
  for (const cert of certs) {
    const candidates = bySubject.get(bytesToHex(cert.facts.issuerDer)) ?? [];
    let selfSigned = false;
    const parents: ParsedCertificate[] = [];
    for (const candidate of candidates) {
      if (!(await verifies(cert, candidate))) continue;
      if (candidate.facts.sha256 === cert.facts.sha256) selfSigned = true;
      else parents.push(candidate);
    }
    facts.set(cert.facts.sha256, { selfSigned, signatureValid: selfSigned || parents.length > 0, parents });
  }

  const inWindow = (c: ParsedCertificate) => c.facts.notBefore <= now && now <= c.facts.notAfter;

  function pathsTo(cert: ParsedCertificate, store: Set<string>, seen: Set<string>): ParsedCertificate[][] {
    if (store.has(cert.facts.sha256)) return [[cert]];
    if (seen.size >= MAX_PATH) return [];
    const out: ParsedCertificate[][] = [];
    for (const parent of facts.get(cert.facts.sha256)?.parents ?? []) {
      if (seen.has(parent.facts.sha256)) continue;
      const next = new Set(seen).add(parent.facts.sha256);
      for (const path of pathsTo(parent, store, next)) out.push([cert, ...path]);
    }
    return out;
  }

  const result = new Map<string, ChainFacts>();
  for (const cert of certs) {
    const own = facts.get(cert.facts.sha256);
    if (!own) continue;
    const isCa = cert.facts.extensions.isCa === true;
    const type = isCa ? (own.selfSigned ? "root" : "intermediate") : "leaf";
    const validation = {} as Record<TrustStoreName, StoreValidation>;
    for (const name of TRUST_STORE_NAMES) {
      const paths = pathsTo(cert, stores[name], new Set([cert.facts.sha256]));
      const currentlyValid = paths.some((path) => path.every(inWindow));
      // Was valid at some instant up to now: the validity windows along a path overlap before now.
      const onceValid = paths.some((path) => {
        const from = Math.max(...path.map((c) => c.facts.notBefore));
        const to = Math.min(...path.map((c) => c.facts.notAfter));
        return from <= to && from <= now;
      });
      const trustedParents = new Set(paths.flatMap((path) => (path[1] ? [path[1].facts.sha256] : [])));
      validation[name] = {
        blacklisted: false,
        had_trusted_path: paths.length > 0,
        in_revocation_set: false,
        trusted_path: currentlyValid,
        valid: currentlyValid,
        was_valid: onceValid,
        whitelisted: false,
        type,
        parents: [...trustedParents],
        paths: paths.map((path) => path.map((c) => c.facts.sha256)),
      };
    }
    result.set(cert.facts.sha256, {
      selfSigned: own.selfSigned,
      signatureValid: own.signatureValid,
      parents: own.parents.map((p) => p.facts.sha256),
      validation,
    });
  }
  return result;
}
