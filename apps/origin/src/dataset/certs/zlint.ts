import type { ParsedFacts } from "./parse";

/**
 * The dataset's lint set: thirteen real zlint lints (same names and meaning as
 * github.com/zmap/zlint v3), computed on the parsed certificate. Each lint first decides
 * whether it applies; the document lists, as `lints.<name>: true`, the lints that applied and
 * found a problem. Prefixes give the severity: e_ error, w_ warning, n_ notice.
 */

export const ZLINT_VERSION = 3;

export interface LintSubject {
  facts: ParsedFacts;
  selfSigned: boolean;
}

interface Lint {
  name: string;
  applies(c: LintSubject): boolean;
  fails(c: LintSubject): boolean;
}

const DAY = 86_400_000;
const isCa = (c: LintSubject) => c.facts.extensions.isCa === true;
const isSubscriber = (c: LintSubject) => !isCa(c);
const isRootCa = (c: LintSubject) => isCa(c) && c.selfSigned;
const issuedOnOrAfter = (c: LintSubject, date: string) => c.facts.notBefore >= Date.parse(date);
const hasExtension = (c: LintSubject, oid: string) => c.facts.extensionOids.includes(oid);

/** gTLDs the dataset and the real roots use; any two-letter alphabetic TLD is taken as a ccTLD. */
const GENERIC_TLDS = new Set([
  "com",
  "net",
  "org",
  "info",
  "biz",
  "io",
  "app",
  "dev",
  "cloud",
  "edu",
  "gov",
  "mil",
  "int",
  "name",
  "pro",
  "online",
  "site",
  "tech",
  "store",
  "shop",
  "xyz",
  "top",
  "blog",
  "page",
  "google",
  "microsoft",
  "amazon",
  "aws",
]);

function validTld(name: string): boolean {
  const labels = name.toLowerCase().split(".");
  if (labels.length < 2) return false;
  const tld = labels[labels.length - 1] ?? "";
  return GENERIC_TLDS.has(tld) || /^[a-z]{2}$/.test(tld);
}

function monthsLater(ms: number, months: number): number {
  const d = new Date(ms);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.getTime();
}

const LINTS: Lint[] = [
  {
    name: "e_rsa_mod_less_than_2048_bits",
    applies: (c) => c.facts.publicKey.algorithm === "RSA",
    fails: (c) => c.facts.publicKey.bits < 2048,
  },
  {
    name: "e_sub_cert_eku_missing",
    applies: isSubscriber,
    fails: (c) => !hasExtension(c, "2.5.29.37"),
  },
  {
    name: "e_ext_san_missing",
    applies: isSubscriber,
    fails: (c) => !hasExtension(c, "2.5.29.17"),
  },
  {
    name: "n_subject_common_name_included",
    applies: isSubscriber,
    fails: (c) => c.facts.subjectCommonNames.length > 0,
  },
  {
    name: "e_dnsname_not_valid_tld",
    applies: (c) => isSubscriber(c) && c.facts.extensions.dnsNames.length > 0,
    fails: (c) => c.facts.extensions.dnsNames.some((n) => !validTld(n)),
  },
  {
    name: "e_tls_server_cert_valid_time_longer_than_398_days",
    applies: (c) =>
      isSubscriber(c) && c.facts.extensions.serverAuth === true && issuedOnOrAfter(c, "2020-09-01T00:00:00Z"),
    fails: (c) => c.facts.notAfter - c.facts.notBefore > 398 * DAY,
  },
  {
    name: "e_sub_cert_aia_does_not_contain_ocsp_url",
    applies: isSubscriber,
    fails: (c) => c.facts.extensions.ocspUrls.length === 0,
  },
  {
    name: "e_sub_cert_or_sub_ca_using_sha1",
    applies: (c) => !isRootCa(c) && issuedOnOrAfter(c, "2016-01-01T00:00:00Z"),
    fails: (c) => c.facts.signatureHash === "SHA-1",
  },
  {
    name: "e_subject_common_name_not_exactly_from_san",
    applies: (c) =>
      isSubscriber(c) && c.facts.subjectCommonNames.length > 0 && issuedOnOrAfter(c, "2021-06-01T00:00:00Z"),
    fails: (c) => {
      const san = new Set([...c.facts.extensions.dnsNames, ...c.facts.extensions.ipAddresses]);
      return c.facts.subjectCommonNames.some((cn) => !san.has(cn));
    },
  },
  {
    name: "e_sub_cert_valid_time_longer_than_39_months",
    applies: (c) => isSubscriber(c) && issuedOnOrAfter(c, "2012-07-01T00:00:00Z"),
    fails: (c) => c.facts.notAfter > monthsLater(c.facts.notBefore, 39),
  },
  {
    name: "e_root_ca_extended_key_usage_present",
    applies: isRootCa,
    fails: (c) => hasExtension(c, "2.5.29.37"),
  },
  {
    name: "n_ca_digital_signature_not_set",
    applies: (c) => isCa(c) && c.facts.extensions.keyUsage !== null,
    fails: (c) => ((c.facts.extensions.keyUsage ?? 0) & 1) === 0,
  },
  {
    name: "e_ca_key_usage_missing",
    applies: isCa,
    fails: (c) => !hasExtension(c, "2.5.29.15"),
  },
];

export const LINT_NAMES = LINTS.map((l) => l.name);

export interface ZlintResult {
  errors_present: boolean;
  fatals_present: boolean;
  notices_present: boolean;
  warnings_present: boolean;
  lints: Record<string, boolean>;
  version: number;
}

export function runLints(subject: LintSubject): ZlintResult {
  const lints: Record<string, boolean> = {};
  for (const lint of LINTS) if (lint.applies(subject) && lint.fails(subject)) lints[lint.name] = true;
  const names = Object.keys(lints);
  return {
    errors_present: names.some((n) => n.startsWith("e_")),
    fatals_present: false,
    notices_present: names.some((n) => n.startsWith("n_")),
    warnings_present: names.some((n) => n.startsWith("w_")),
    lints,
    version: ZLINT_VERSION,
  };
}
