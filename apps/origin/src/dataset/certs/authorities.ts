import type { KeySpec } from "../keys/key-pool";

/**
 * The dataset's own certificate authorities (fictional organisations). Which trust stores
 * include which root is decided in trust-stores.ts; here each CA only says what it is.
 */

export type LeafLevel = "DV" | "OV" | "EV" | "private" | "legacy";

export interface AuthorityProfile {
  id: string;
  /** Subject as [attribute, value] pairs in encoded order. */
  subject: [string, string][];
  key: KeySpec;
  /** Hash the CA signs with (SHA-1 only for the legacy hierarchy). */
  hash?: "SHA-1";
  notBefore: string;
  notAfter: string;
  /** Issuing CA id; absent for a root. */
  parent?: string;
  /** Kind of leaves this CA issues (intermediates only). */
  issues?: LeafLevel;
  /** Host of its AIA / CRL URLs. */
  pkiHost: string;
}

const SG = [
  ["C", "US"],
  ["O", "Scangate Demo Trust"],
] as [string, string][];

export const AUTHORITIES: AuthorityProfile[] = [
  {
    id: "sg-root-r1",
    subject: [...SG, ["CN", "Scangate Demo Root R1"]],
    key: { kind: "RSA", bits: 2048 },
    notBefore: "2015-06-01T00:00:00Z",
    notAfter: "2040-06-01T00:00:00Z",
    pkiHost: "pki.demo-trust.scangate.dev",
  },
  {
    id: "sg-root-e1",
    subject: [...SG, ["CN", "Scangate Demo Root E1"]],
    key: { kind: "EC", curve: "P-384" },
    notBefore: "2018-03-01T00:00:00Z",
    notAfter: "2043-03-01T00:00:00Z",
    pkiHost: "pki.demo-trust.scangate.dev",
  },
  {
    id: "northwind-root",
    subject: [
      ["C", "DE"],
      ["O", "Northwind Traders GmbH"],
      ["OU", "IT Security"],
      ["CN", "Northwind Private Root CA"],
    ],
    key: { kind: "RSA", bits: 2048 },
    notBefore: "2019-01-15T00:00:00Z",
    notAfter: "2039-01-15T00:00:00Z",
    pkiHost: "pki.northwind.corp",
  },
  {
    id: "contoso-legacy-root",
    subject: [
      ["C", "US"],
      ["O", "Contoso Legacy Systems"],
      ["CN", "Contoso Legacy Root CA"],
    ],
    key: { kind: "RSA", bits: 1024 },
    hash: "SHA-1",
    notBefore: "2006-01-01T00:00:00Z",
    notAfter: "2026-01-01T00:00:00Z",
    pkiHost: "pki.contoso-legacy.com",
  },
  {
    id: "sg-dv-rsa-2025",
    subject: [...SG, ["CN", "Scangate Demo DV RSA CA 2025"]],
    key: { kind: "RSA", bits: 2048 },
    notBefore: "2025-01-10T00:00:00Z",
    notAfter: "2030-01-10T00:00:00Z",
    parent: "sg-root-r1",
    issues: "DV",
    pkiHost: "pki.demo-trust.scangate.dev",
  },
  {
    id: "sg-dv-ecc-2025",
    subject: [...SG, ["CN", "Scangate Demo DV ECC CA 2025"]],
    key: { kind: "EC", curve: "P-256" },
    notBefore: "2025-01-10T00:00:00Z",
    notAfter: "2030-01-10T00:00:00Z",
    parent: "sg-root-e1",
    issues: "DV",
    pkiHost: "pki.demo-trust.scangate.dev",
  },
  {
    id: "sg-ov-rsa-2025",
    subject: [...SG, ["CN", "Scangate Demo OV RSA CA 2025"]],
    key: { kind: "RSA", bits: 2048 },
    notBefore: "2025-01-10T00:00:00Z",
    notAfter: "2030-01-10T00:00:00Z",
    parent: "sg-root-r1",
    issues: "OV",
    pkiHost: "pki.demo-trust.scangate.dev",
  },
  {
    id: "sg-ev-rsa-2025",
    subject: [...SG, ["CN", "Scangate Demo EV RSA CA 2025"]],
    key: { kind: "RSA", bits: 2048 },
    notBefore: "2025-01-10T00:00:00Z",
    notAfter: "2030-01-10T00:00:00Z",
    parent: "sg-root-r1",
    issues: "EV",
    pkiHost: "pki.demo-trust.scangate.dev",
  },
  {
    id: "sg-dv-rsa-2019",
    subject: [...SG, ["CN", "Scangate Demo DV RSA CA 2019"]],
    key: { kind: "RSA", bits: 2048 },
    notBefore: "2019-01-10T00:00:00Z",
    notAfter: "2024-01-10T00:00:00Z",
    parent: "sg-root-r1",
    issues: "DV",
    pkiHost: "pki.demo-trust.scangate.dev",
  },
  {
    id: "northwind-issuing-01",
    subject: [
      ["C", "DE"],
      ["O", "Northwind Traders GmbH"],
      ["OU", "IT Security"],
      ["CN", "Northwind Issuing CA 01"],
    ],
    key: { kind: "RSA", bits: 2048 },
    notBefore: "2019-02-01T00:00:00Z",
    notAfter: "2029-02-01T00:00:00Z",
    parent: "northwind-root",
    issues: "private",
    pkiHost: "pki.northwind.corp",
  },
  {
    id: "contoso-legacy-server",
    subject: [
      ["C", "US"],
      ["O", "Contoso Legacy Systems"],
      ["CN", "Contoso Legacy Server CA"],
    ],
    key: { kind: "RSA", bits: 1024 },
    hash: "SHA-1",
    notBefore: "2008-01-01T00:00:00Z",
    notAfter: "2018-01-01T00:00:00Z",
    parent: "contoso-legacy-root",
    issues: "legacy",
    pkiHost: "pki.contoso-legacy.com",
  },
];

/** Roots of the dataset's public PKI (trusted by the apple, microsoft and google_ct_primary stores). */
export const PUBLIC_GENERATED_ROOTS = ["sg-root-r1", "sg-root-e1"];
/** A private root that only the microsoft store trusts (as an enterprise-deployed root would be). */
export const PRIVATE_GENERATED_ROOTS = ["northwind-root"];

/** The leaf key pool: leaves reuse these keys (see keys/key-pool.ts). */
export const LEAF_KEY_POOL: KeySpec[] = [
  { kind: "RSA", bits: 2048 },
  { kind: "RSA", bits: 2048 },
  { kind: "RSA", bits: 2048 },
  { kind: "RSA", bits: 1024 },
  { kind: "RSA", bits: 1024 },
  { kind: "EC", curve: "P-256" },
  { kind: "EC", curve: "P-256" },
  { kind: "EC", curve: "P-256" },
  { kind: "EC", curve: "P-384" },
];

/** CA/Browser Forum certificate policy OIDs. */
export const POLICY = { DV: "2.23.140.1.2.1", OV: "2.23.140.1.2.2", EV: "2.23.140.1.1" } as const;
