import { AsnConvert } from "@peculiar/asn1-schema";
import { CertificatePolicies, PolicyInformation, PolicyQualifierInfo } from "@peculiar/asn1-x509";
import {
  AuthorityInfoAccessExtension,
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  CRLDistributionPointsExtension,
  ExtendedKeyUsage,
  ExtendedKeyUsageExtension,
  Extension,
  KeyUsageFlags,
  KeyUsagesExtension,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
  X509CertificateGenerator,
  type JsonName,
  type X509CertificateCreateWithKeyParams,
} from "./x509";
import { DAY_MS } from "../clock";
import { DomainGenerator, countryOfTld, type DomainName } from "../domains";
import { createKey, deterministicCrypto, type PoolKey } from "../keys/key-pool";
import type { Prng } from "../prng";
import { THREATS } from "../threats";
import { sha256 } from "@noble/hashes/sha2.js";
import { certificateSpans, encodeTlv } from "./der";
import {
  AUTHORITIES,
  LEAF_KEY_POOL,
  POLICY,
  PUBLIC_GENERATED_ROOTS,
  type AuthorityProfile,
  type LeafLevel,
} from "./authorities";
import { planSubmissions, signScts, type CtLogs, type CtSubmission } from "./ct-logs";
import { OID } from "./extensions";
import { encodeSctListExtension } from "./sct";

/**
 * Issues the dataset's generated certificates: the CAs of authorities.ts and `leafCount`
 * leaves (CA-issued and self-signed, some expired, some with weak keys, some precertificates).
 * Every choice comes from the Prng and every signature is deterministic (see keys/key-pool.ts),
 * so one seed gives the same DER.
 *
 * Leaves of the public hierarchy are logged to two of the dataset's CT logs (ct-logs.ts). A
 * final certificate carries the logs' SCTs in its SCT list extension, signed over its own TBS
 * without that extension, as the precertificate flow of RFC 6962 §3.1 produces; a
 * precertificate is logged but, like a real one, carries no SCTs.
 */

export interface IssuedCertificate {
  der: Uint8Array;
  /** Authority id for CAs; absent for leaves. */
  authority?: string;
  role: "root" | "intermediate" | "leaf";
  /** A precertificate (CT poison), never served by a host. */
  precert: boolean;
  /** The registered domain a leaf was issued for (for websites), if any. */
  domain?: string;
  /** DER of the issuing CA chain up to (not including) the root, leaf first excluded. */
  chain: Uint8Array[];
  /** The CT logs it was submitted to (empty for certificates nobody logs). */
  ct: CtSubmission[];
  /** The threat (threats.ts) whose default self-signed certificate this is. */
  threat?: string;
}

interface IssuedAuthority {
  profile: AuthorityProfile;
  key: PoolKey;
  der: Uint8Array;
  /** Intermediates between this CA and its root, nearest first (this CA included). */
  chain: Uint8Array[];
  subject: JsonName;
  keyId: string;
  /** Id of the root this CA chains to (itself for a root). */
  root: string;
  /** SHA-256 of its DER SubjectPublicKeyInfo: the issuer_key_hash of precert SCTs it issues. */
  keyHash: Uint8Array;
}

const toName = (pairs: [string, string][]): JsonName => pairs.map(([k, v]) => ({ [k]: [v] }));

function serialHex(rng: Prng): string {
  const bytes = rng.bytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f || 0x01;
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Leaves share the pool's keys, so what the generator would export and hash again for every
// leaf is computed once per key.
const keyIds = new WeakMap<PoolKey, Promise<string>>();
const spkis = new WeakMap<PoolKey, Promise<ArrayBuffer>>();

function keyIdOf(key: PoolKey): Promise<string> {
  let id = keyIds.get(key);
  if (!id) {
    id = SubjectKeyIdentifierExtension.create(key.keys.publicKey, false, deterministicCrypto).then(
      (ext) => ext.keyId,
    );
    keyIds.set(key, id);
  }
  return id;
}

/** The key's DER SubjectPublicKeyInfo, which the certificate generator takes as is. */
function spkiOf(key: PoolKey): Promise<ArrayBuffer> {
  let spki = spkis.get(key);
  if (!spki) {
    spki = crypto.subtle.exportKey("spki", key.keys.publicKey) as Promise<ArrayBuffer>;
    spkis.set(key, spki);
  }
  return spki;
}

function signingAlgorithm(issuer: PoolKey, hash?: "SHA-1"): { name: string; hash: string } {
  return hash ? { ...issuer.signingAlgorithm, hash } : issuer.signingAlgorithm;
}

/** Long enough to stand in for any signature the dataset's keys make (P-521 r||s is the longest). */
const PLACEHOLDER_SIGNATURE = new Uint8Array(2 * 66);

/**
 * The TBSCertificate `params` describe, without signing it: the generator accepts a ready
 * signature instead of a key, and the algorithm is merged as it merges the key's own.
 */
async function unsignedTbs(
  params: X509CertificateCreateWithKeyParams,
  algorithm: { name: string; hash: string },
): Promise<Uint8Array> {
  const { signingKey, ...rest } = params;
  const cert = await X509CertificateGenerator.create(
    {
      ...rest,
      signingAlgorithm: { ...algorithm, ...signingKey.algorithm },
      signature: PLACEHOLDER_SIGNATURE,
    },
    deterministicCrypto,
  );
  return certificateSpans(new Uint8Array(cert.rawData)).tbs;
}

function policiesExtension(ids: string[], cps?: string): Extension {
  const policies = new CertificatePolicies(
    ids.map(
      (id) =>
        new PolicyInformation({
          policyIdentifier: id,
          policyQualifiers: cps
            ? [
                new PolicyQualifierInfo({
                  policyQualifierId: "1.3.6.1.5.5.7.2.1",
                  qualifier: encodeTlv(0x16, new TextEncoder().encode(cps)).slice().buffer,
                }),
              ]
            : undefined,
        }),
    ),
  );
  return new Extension(OID.certificatePolicies, false, AsnConvert.serialize(policies));
}

function pkiExtensions(issuer: IssuedAuthority, withOcsp = true): Extension[] {
  const host = issuer.profile.pkiHost;
  return [
    new AuthorityInfoAccessExtension({
      ...(withOcsp ? { ocsp: [`http://ocsp.${host}`] } : {}),
      caIssuers: [`http://${host}/${issuer.profile.id}.crt`],
    }),
    new CRLDistributionPointsExtension([`http://${host}/${issuer.profile.id}.crl`]),
  ];
}

async function issueAuthorities(rng: Prng): Promise<Map<string, IssuedAuthority>> {
  const issued = new Map<string, IssuedAuthority>();
  for (const profile of AUTHORITIES) {
    const key = await createKey(profile.key, rng);
    const subject = toName(profile.subject);
    const keyId = await keyIdOf(key);
    const parent = profile.parent ? issued.get(profile.parent) : undefined;
    const signer = parent?.key ?? key;
    const extensions: Extension[] = [
      new BasicConstraintsExtension(true, parent ? 0 : undefined, true),
      new KeyUsagesExtension(
        KeyUsageFlags.digitalSignature | KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign,
        true,
      ),
      new SubjectKeyIdentifierExtension(keyId),
    ];
    if (parent) {
      extensions.push(
        new AuthorityKeyIdentifierExtension(parent.keyId),
        new ExtendedKeyUsageExtension([ExtendedKeyUsage.serverAuth, ExtendedKeyUsage.clientAuth]),
        ...pkiExtensions(parent),
      );
      const level = profile.issues;
      if (level === "DV" || level === "OV" || level === "EV") {
        extensions.push(policiesExtension([POLICY[level]], `https://${profile.pkiHost}/cps`));
      }
    }
    const cert = await X509CertificateGenerator.create(
      {
        serialNumber: serialHex(rng),
        subject,
        issuer: parent?.subject ?? subject,
        notBefore: new Date(profile.notBefore),
        notAfter: new Date(profile.notAfter),
        publicKey: key.keys.publicKey,
        signingKey: signer.keys.privateKey,
        signingAlgorithm: signingAlgorithm(signer, profile.hash),
        extensions,
      },
      deterministicCrypto,
    );
    const der = new Uint8Array(cert.rawData);
    issued.set(profile.id, {
      profile,
      key,
      der,
      chain: parent ? [der, ...parent.chain] : [],
      subject,
      keyId,
      root: parent?.root ?? profile.id,
      keyHash: sha256(certificateSpans(der).spki),
    });
  }
  return issued;
}

/**
 * The issuer of the last leaf when no earlier leaf was drawn a precertificate: a public DV CA,
 * whose leaves are logged, so every dataset has a precertificate (the CT poison extension).
 */
const PRECERT_FALLBACK_KIND = "sg-dv-rsa-2025";

/** Leaf kinds and their weights; `self` is self-signed. */
const LEAF_KINDS: readonly (readonly [string, number])[] = [
  ["sg-dv-rsa-2025", 30],
  ["sg-dv-ecc-2025", 22],
  ["sg-ov-rsa-2025", 10],
  ["sg-ev-rsa-2025", 4],
  ["sg-dv-rsa-2019", 8],
  ["northwind-issuing-01", 7],
  ["contoso-legacy-server", 3],
  ["self", 16],
];

const SUBDOMAINS = ["api", "mail", "shop", "cdn", "app", "portal", "static", "vpn", "m", "login"];
const SELF_SIGNED_NAMES = [
  "localhost",
  "DVR",
  "router.lan",
  "FortiGate",
  "iDRAC-SRV01",
  "synology",
  "printer.local",
  "esxi01.lan",
  "Plesk",
  "ubnt",
];
const CITIES: Record<string, [string, string]> = {
  US: ["San Francisco", "California"],
  DE: ["Berlin", "Berlin"],
  GB: ["London", "England"],
  FR: ["Paris", "Ile-de-France"],
  NL: ["Amsterdam", "Noord-Holland"],
  JP: ["Tokyo", "Tokyo"],
  CN: ["Shanghai", "Shanghai"],
  BR: ["Sao Paulo", "Sao Paulo"],
  RU: ["Moscow", "Moscow"],
  IN: ["Mumbai", "Maharashtra"],
  AU: ["Sydney", "New South Wales"],
  KR: ["Seoul", "Seoul"],
  IT: ["Milan", "Lombardy"],
  ES: ["Madrid", "Madrid"],
  CH: ["Zurich", "Zurich"],
  SE: ["Stockholm", "Stockholm"],
  PL: ["Warsaw", "Mazowieckie"],
};

function sanNames(rng: Prng, domain: DomainName): string[] {
  const roll = rng.next();
  if (roll < 0.55) return [domain.domain, `www.${domain.domain}`];
  if (roll < 0.75) return [`*.${domain.domain}`, domain.domain];
  if (roll < 0.9) return [`${rng.pick(SUBDOMAINS)}.${domain.domain}`];
  return [domain.domain, ...rng.sample(SUBDOMAINS, rng.int(2, 4)).map((s) => `${s}.${domain.domain}`)];
}

function orgSubject(level: "OV" | "EV", domain: DomainName, cn: string, rng: Prng): [string, string][] {
  const country = countryOfTld(domain.tld);
  const [city, province] = CITIES[country] ?? ["Wilmington", "Delaware"];
  const base: [string, string][] = [
    ["C", country],
    ["ST", province],
    ["L", city],
    ["O", domain.organization],
    ["CN", cn],
  ];
  if (level === "OV") return base;
  return [
    ["2.5.4.15", "Private Organization"],
    ["1.3.6.1.4.1.311.60.2.1.3", country],
    ["2.5.4.5", String(rng.int(1_000_000, 99_999_999))],
    ...base,
  ];
}

interface LeafPlan {
  subject: [string, string][];
  sans: string[];
  notBefore: number;
  lifetimeDays: number;
  leafKey: PoolKey;
  extensions: Extension[];
  precert: boolean;
  domain?: string;
}

function pickLeafKey(pool: PoolKey[], rng: Prng, filter: (k: PoolKey) => boolean): PoolKey {
  return rng.pick(pool.filter(filter));
}

function planCaLeaf(
  issuer: IssuedAuthority,
  pool: PoolKey[],
  domains: DomainGenerator,
  rng: Prng,
  now: number,
  precertRequired = false,
): LeafPlan {
  const level = issuer.profile.issues as LeafLevel;
  const domain = domains.next();
  let sans = sanNames(rng, domain);
  let subject: [string, string][] = [["CN", sans[0] ?? domain.domain]];
  let lifetimeDays = 90;
  let notBefore = now - rng.int(1, 120) * DAY_MS;
  const isEcdsaCa = issuer.key.spec.kind === "EC";
  let leafKey = pickLeafKey(pool, rng, (k) =>
    isEcdsaCa ? k.spec.kind === "EC" : k.spec.kind === "RSA" && k.bits >= 2048,
  );
  const extensions: Extension[] = [];
  let withEku = rng.chance(0.97);
  let withOcsp = rng.chance(0.98);
  let precert = false;
  switch (level) {
    case "OV":
    case "EV":
      subject = orgSubject(level, domain, sans[0] ?? domain.domain, rng);
      lifetimeDays = level === "EV" ? 365 : rng.chance(0.06) ? 825 : 397;
      notBefore = now - rng.int(1, 450) * DAY_MS;
      break;
    case "DV":
      if (issuer.profile.id === "sg-dv-rsa-2019") {
        lifetimeDays = 365;
        notBefore = Date.UTC(2019, 1, 1) + rng.int(0, 1700) * DAY_MS;
      }
      break;
    case "private":
      sans = [
        domains.privateName(),
        ...(rng.chance(0.4) ? [`${rng.pick(SUBDOMAINS)}.${domain.domain}`] : []),
      ];
      subject = [
        ["C", "DE"],
        ["O", "Northwind Traders GmbH"],
        ["CN", sans[0] ?? domain.domain],
      ];
      lifetimeDays = 730;
      notBefore = now - rng.int(1, 900) * DAY_MS;
      break;
    case "legacy":
      lifetimeDays = 1095;
      notBefore = Date.UTC(2009, 0, 1) + rng.int(0, 2500) * DAY_MS;
      leafKey = pickLeafKey(pool, rng, (k) => k.spec.kind === "RSA" && k.bits === 1024);
      withEku = rng.chance(0.7);
      withOcsp = false;
      if (rng.chance(0.5)) sans = [];
      subject = [
        ["C", "US"],
        ["O", domain.organization],
        ["CN", domain.domain],
      ];
      break;
  }
  // Drawn even when required, so the draws after it are those of any other leaf.
  if (level === "DV" || level === "OV" || level === "EV") precert = rng.chance(0.04) || precertRequired;
  const rsaLeaf = leafKey.spec.kind === "RSA";
  extensions.push(
    new BasicConstraintsExtension(false, undefined, true),
    new KeyUsagesExtension(
      KeyUsageFlags.digitalSignature | (rsaLeaf ? KeyUsageFlags.keyEncipherment : 0),
      true,
    ),
  );
  if (withEku)
    extensions.push(
      new ExtendedKeyUsageExtension([ExtendedKeyUsage.serverAuth, ExtendedKeyUsage.clientAuth]),
    );
  if (sans.length > 0)
    extensions.push(
      new SubjectAlternativeNameExtension(sans.map((value) => ({ type: "dns" as const, value }))),
    );
  extensions.push(new AuthorityKeyIdentifierExtension(issuer.keyId), ...pkiExtensions(issuer, withOcsp));
  if (level === "DV" || level === "OV" || level === "EV") {
    extensions.push(
      policiesExtension(
        [POLICY[level]],
        level === "DV" ? undefined : `https://${issuer.profile.pkiHost}/cps`,
      ),
    );
  }
  if (precert) extensions.push(new Extension(OID.ctPoison, true, new Uint8Array([0x05, 0x00])));
  return { subject, sans, notBefore, lifetimeDays, leafKey, extensions, precert, domain: domain.domain };
}

function planSelfSigned(pool: PoolKey[], domains: DomainGenerator, rng: Prng, now: number): LeafPlan {
  const useDomain = rng.chance(0.35);
  const domain = useDomain ? domains.next() : undefined;
  const cn = domain ? domain.domain : rng.pick(SELF_SIGNED_NAMES);
  const subject: [string, string][] = rng.chance(0.4)
    ? [
        ["C", "AU"],
        ["ST", "Some-State"],
        ["O", "Internet Widgits Pty Ltd"],
        ["CN", cn],
      ]
    : [["CN", cn]];
  const sans = rng.chance(0.5) ? [cn.toLowerCase()] : [];
  const leafKey = pickLeafKey(pool, rng, (k) => k.spec.kind === "RSA" || rng.chance(0.3));
  const extensions: Extension[] = [];
  if (rng.chance(0.6)) extensions.push(new BasicConstraintsExtension(rng.chance(0.5), undefined, false));
  if (sans.length > 0)
    extensions.push(
      new SubjectAlternativeNameExtension(sans.map((value) => ({ type: "dns" as const, value }))),
    );
  return {
    subject,
    sans,
    notBefore: now - rng.int(1, 4000) * DAY_MS,
    lifetimeDays: rng.pick([365, 3650, 7300]),
    leafKey,
    extensions,
    precert: false,
    domain: domain?.domain,
  };
}

export async function issueCertificates(
  rng: Prng,
  leafCount: number,
  ctLogs: CtLogs,
  now: number,
  onProgress?: (done: number) => void,
): Promise<IssuedCertificate[]> {
  const authorities = await issueAuthorities(rng.fork("authorities"));
  const keyRng = rng.fork("leaf-keys");
  const pool: PoolKey[] = [];
  for (const spec of LEAF_KEY_POOL) pool.push(await createKey(spec, keyRng));
  const out: IssuedCertificate[] = [...authorities.values()].map((a) => ({
    der: a.der,
    authority: a.profile.id,
    role: a.profile.parent ? "intermediate" : "root",
    precert: false,
    chain: a.chain.slice(1),
    ct: [],
  }));
  const leafRng = rng.fork("leaves");
  const domains = new DomainGenerator(rng.fork("domains"));
  const ctRng = rng.fork("ct");
  let precerts = 0;
  for (let i = 0; i < leafCount; i++) {
    const drawn = leafRng.weighted(LEAF_KINDS);
    // A small dataset may draw no precertificate (4% of the CA-issued leaves): then the last
    // leaf is one, so the same seed and day still give the same certificates, and as many.
    const precertRequired = i === leafCount - 1 && precerts === 0;
    const kind = precertRequired ? PRECERT_FALLBACK_KIND : drawn;
    const issuer = kind === "self" ? undefined : authorities.get(kind);
    const plan = issuer
      ? planCaLeaf(issuer, pool, domains, leafRng, now, precertRequired)
      : planSelfSigned(pool, domains, leafRng, now);
    if (plan.precert) precerts++;
    plan.extensions.push(new SubjectKeyIdentifierExtension(await keyIdOf(plan.leafKey)));
    const subject = toName(plan.subject);
    const signer = issuer?.key ?? plan.leafKey;
    const notAfter = plan.notBefore + plan.lifetimeDays * DAY_MS;
    const algorithm = signingAlgorithm(signer, issuer?.profile.hash);
    const params: X509CertificateCreateWithKeyParams = {
      serialNumber: serialHex(leafRng),
      subject,
      issuer: issuer?.subject ?? subject,
      notBefore: new Date(plan.notBefore),
      notAfter: new Date(notAfter),
      publicKey: await spkiOf(plan.leafKey),
      signingKey: signer.keys.privateKey,
      signingAlgorithm: algorithm,
      extensions: plan.extensions,
    };
    const logged = issuer !== undefined && PUBLIC_GENERATED_ROOTS.includes(issuer.root);
    const ct = logged ? planSubmissions(ctRng, plan.notBefore, notAfter) : [];
    if (issuer && ct.length > 0 && !plan.precert) {
      // The SCTs sign the TBS as it is without them; the final certificate is that TBS with
      // the SCT list appended as its last extension.
      const scts = await signScts(ctLogs, ct, issuer.keyHash, await unsignedTbs(params, algorithm));
      params.extensions = [
        ...plan.extensions,
        new Extension(OID.sctList, false, encodeSctListExtension(scts)),
      ];
    }
    const cert = await X509CertificateGenerator.create(params, deterministicCrypto);
    out.push({
      der: new Uint8Array(cert.rawData),
      role: "leaf",
      precert: plan.precert,
      domain: plan.domain,
      chain: issuer?.chain ?? [],
      ct,
    });
    onProgress?.(i + 1);
  }
  out.push(...(await issueThreatLeaves(pool, rng.fork("threat-leaves"), now)));
  return out;
}

/**
 * The default self-signed certificates of the threats that have one (threats.ts), one each,
 * for the services the threats are planted on: what hunters search (`Major Cobalt Strike`,
 * `AsyncRAT Server`) is then a real certificate of the dataset.
 */
async function issueThreatLeaves(pool: PoolKey[], rng: Prng, now: number): Promise<IssuedCertificate[]> {
  const out: IssuedCertificate[] = [];
  for (const threat of THREATS) {
    if (!threat.certificate) continue;
    const key = pickLeafKey(pool, rng, (k) => k.spec.kind === "RSA" && k.bits >= 2048);
    const subject = toName(threat.certificate);
    const notBefore = now - rng.int(30, 900) * DAY_MS;
    const cert = await X509CertificateGenerator.create(
      {
        serialNumber: serialHex(rng),
        subject,
        issuer: subject,
        notBefore: new Date(notBefore),
        notAfter: new Date(notBefore + 3650 * DAY_MS),
        publicKey: await spkiOf(key),
        signingKey: key.keys.privateKey,
        signingAlgorithm: signingAlgorithm(key),
        extensions: [new SubjectKeyIdentifierExtension(await keyIdOf(key))],
      },
      deterministicCrypto,
    );
    out.push({
      der: new Uint8Array(cert.rawData),
      role: "leaf",
      precert: false,
      chain: [],
      ct: [],
      threat: threat.id,
    });
  }
  return out;
}
