import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { isoSeconds } from "../clock";
import { base64 } from "../encoding";
import type { Prng } from "../prng";
import { PRIVATE_GENERATED_ROOTS, PUBLIC_GENERATED_ROOTS } from "./authorities";
import { TRUST_STORE_NAMES, buildChains, type ChainFacts, type TrustStoreName } from "./chain";
import type { CtLogs, CtSubmission } from "./ct-logs";
import { issueCertificates, type IssuedCertificate } from "./issue";
import { parseCertificate, type ParsedCertificate } from "./parse";
import { runLints, type ZlintResult } from "./zlint";

/**
 * The certificate half of the dataset: Node's real roots plus the generated PKI, each parsed,
 * chain-built against the trust stores and linted. Documents are finished by
 * `certificateDocument` once the hosts are known (they decide `seen_in_scan`).
 */

export interface CatalogEntry {
  parsed: ParsedCertificate;
  chain: ChainFacts;
  zlint: ZlintResult;
  origin: "root_store" | "generated";
  role: "root" | "intermediate" | "leaf";
  precert: boolean;
  /** Registered domain a generated leaf was issued for. */
  domain?: string;
  /** The threat (threats.ts id) whose default certificate this self-signed leaf is. */
  threat?: string;
  /** SHA-256 of the CA certificates a server sends with this leaf (nearest first, root excluded). */
  chainFingerprints: string[];
  ct: Record<string, { added_to_ct_at: string; ct_to_censys_at: string; index: number }>;
  addedAt: number;
  updatedAt: number;
  tags: string[];
}

export interface CertificateCatalog {
  entries: CatalogEntry[];
  bySha256: Map<string, CatalogEntry>;
  stores: Record<TrustStoreName, Set<string>>;
}

const APPLE_MIN_NOT_BEFORE = Date.UTC(2005, 0, 1);

/**
 * Trust stores of the dataset (documented in the README):
 * - nss: exactly Node's `tls.rootCertificates` (Mozilla's NSS roots);
 * - apple: the NSS roots issued in 2005 or later, plus the dataset's public roots;
 * - microsoft: all NSS roots, the dataset's public roots and its private Northwind root;
 * - google_ct_primary: all NSS roots plus the dataset's public roots.
 */
function trustStores(
  realRoots: ParsedCertificate[],
  generated: Map<string, string>,
): Record<TrustStoreName, Set<string>> {
  const real = realRoots.map((r) => r.facts.sha256);
  const publicRoots = PUBLIC_GENERATED_ROOTS.flatMap((id) => generated.get(id) ?? []);
  const privateRoots = PRIVATE_GENERATED_ROOTS.flatMap((id) => generated.get(id) ?? []);
  const recentReal = realRoots
    .filter((r) => r.facts.notBefore >= APPLE_MIN_NOT_BEFORE)
    .map((r) => r.facts.sha256);
  return {
    nss: new Set(real),
    apple: new Set([...recentReal, ...publicRoots]),
    microsoft: new Set([...real, ...publicRoots, ...privateRoots]),
    google_ct_primary: new Set([...real, ...publicRoots]),
  };
}

/**
 * The `ct` map: the logs the issuer submitted the certificate to, at the times their SCTs carry
 * (issue.ts decides both), plus when Censys read each entry and its index in the log.
 */
function ctEntries(submissions: CtSubmission[], rng: Prng): CatalogEntry["ct"] {
  const out: CatalogEntry["ct"] = {};
  for (const { log, timestamp } of submissions) {
    out[log] = {
      added_to_ct_at: isoSeconds(timestamp),
      ct_to_censys_at: isoSeconds(timestamp + rng.int(10, 7200) * 1000),
      index: rng.int(1_000_000, 900_000_000),
    };
  }
  return out;
}

function computeTags(entry: Omit<CatalogEntry, "tags" | "addedAt" | "updatedAt">, now: number): string[] {
  const tags: string[] = [entry.role];
  const facts = entry.parsed.facts;
  if (entry.chain.selfSigned) tags.push("self-signed");
  if (facts.notAfter < now) tags.push("expired");
  else if (facts.notBefore > now) tags.push("not-yet-valid");
  else tags.push("unexpired");
  const stores = Object.values(entry.chain.validation);
  if (stores.some((v) => v.valid)) tags.push("trusted");
  else if (stores.some((v) => v.was_valid)) tags.push("was-trusted");
  else tags.push("untrusted");
  if (facts.validationLevel !== "unknown") tags.push(facts.validationLevel.toLowerCase());
  if (entry.precert) tags.push("precert");
  if (Object.keys(entry.ct).length > 0) tags.push("ct");
  if (facts.publicKey.algorithm === "RSA" && facts.publicKey.bits < 2048) tags.push("weak-key");
  if (entry.origin === "root_store") tags.push("nss-root");
  return tags;
}

export async function buildCertificateCatalog(options: {
  rng: Prng;
  rootDers: Uint8Array[];
  leafCount: number;
  ctLogs: CtLogs;
  /** The dataset's "now" (clock.ts), at which validity is judged. */
  now: number;
  onProgress?: (done: number, total: number) => void;
}): Promise<CertificateCatalog> {
  const { rng, rootDers, leafCount, now } = options;
  const realRoots = rootDers.map((der) => parseCertificate(der));
  const issued: IssuedCertificate[] = await issueCertificates(
    rng.fork("issue"),
    leafCount,
    options.ctLogs,
    now,
    (done) => options.onProgress?.(done, leafCount),
  );
  const generated = issued.map((i) => ({ issued: i, parsed: parseCertificate(i.der) }));
  const authorityFingerprints = new Map(
    generated.flatMap((g) =>
      g.issued.authority ? [[g.issued.authority, g.parsed.facts.sha256] as const] : [],
    ),
  );
  const all = [...realRoots, ...generated.map((g) => g.parsed)];
  // Node's list could in principle repeat a root; one entry per fingerprint.
  const unique = [...new Map(all.map((p) => [p.facts.sha256, p])).values()];
  const stores = trustStores(realRoots, authorityFingerprints);
  const chains = await buildChains(unique, stores, now);

  const ctRng = rng.fork("ct");
  const timeRng = rng.fork("times");
  const sha = (der: Uint8Array) => bytesToHex(sha256(der));
  const meta = new Map(generated.map((g) => [g.parsed.facts.sha256, g.issued]));
  const entries: CatalogEntry[] = [];
  for (const parsed of unique) {
    const chain = chains.get(parsed.facts.sha256);
    if (!chain) continue;
    const issuedInfo = meta.get(parsed.facts.sha256);
    const isCa = parsed.facts.extensions.isCa === true;
    const role: CatalogEntry["role"] = isCa ? (chain.selfSigned ? "root" : "intermediate") : "leaf";
    const base = {
      parsed,
      chain,
      zlint: runLints({ facts: parsed.facts, selfSigned: chain.selfSigned }),
      origin: issuedInfo ? ("generated" as const) : ("root_store" as const),
      role,
      precert: issuedInfo?.precert ?? false,
      domain: issuedInfo?.domain,
      threat: issuedInfo?.threat,
      chainFingerprints: (issuedInfo?.chain ?? []).map(sha),
      ct: ctEntries(issuedInfo?.ct ?? [], ctRng),
    };
    // First seen: when it became valid, but not before the dataset's scans began (2020).
    const firstSeen = Math.max(parsed.facts.notBefore, Date.UTC(2020, 0, 1));
    const addedAt = Math.min(now - 3600_000, firstSeen + timeRng.int(1, 72) * 3600_000);
    const updatedAt = now - timeRng.int(1, 7 * 24) * 3600_000;
    entries.push({ ...base, addedAt, updatedAt: Math.max(addedAt, updatedAt), tags: computeTags(base, now) });
  }
  return { entries, bySha256: new Map(entries.map((e) => [e.parsed.facts.sha256, e])), stores };
}

/** The full v1 certificate document, exactly as view and bulk return it. */
export function certificateDocument(
  catalog: CertificateCatalog,
  entry: CatalogEntry,
  seenInScan: boolean,
): Record<string, unknown> {
  const facts = entry.parsed.facts;
  const parsed = {
    ...entry.parsed.parsed,
    signature: {
      ...(entry.parsed.parsed.signature as Record<string, unknown>),
      self_signed: entry.chain.selfSigned,
      valid: entry.chain.signatureValid,
    },
  };
  const source =
    entry.origin === "root_store"
      ? "root_store"
      : seenInScan
        ? "scan"
        : Object.keys(entry.ct).length > 0
          ? "ct"
          : "unknown";
  const firstParent = entry.chain.parents[0];
  const parentSpki = firstParent
    ? (catalog.bySha256.get(firstParent)?.parsed.facts.spkiSubjectFingerprint ?? "")
    : "";
  const validation: Record<string, unknown> = {};
  for (const name of TRUST_STORE_NAMES) validation[name] = entry.chain.validation[name];
  return {
    raw: base64(facts.der),
    parsed,
    metadata: {
      added_at: isoSeconds(entry.addedAt),
      updated_at: isoSeconds(entry.updatedAt),
      parse_status: "success",
      parse_version: 1,
      post_processed: true,
      seen_in_scan: seenInScan,
      source,
    },
    ct: entry.ct,
    tags: seenInScan ? [...entry.tags, "seen-in-scan"] : entry.tags,
    precert: entry.precert,
    parents: entry.chain.parents,
    parent_spki_subject_fingerprint: entry.chain.selfSigned ? facts.spkiSubjectFingerprint : parentSpki,
    validation,
    "validation.nss.valid": entry.chain.validation.nss.valid,
    validation_timestamp: isoSeconds(entry.updatedAt),
    zlint: entry.zlint,
    updated_at: isoSeconds(entry.updatedAt),
  };
}
