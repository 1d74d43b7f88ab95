/**
 * What the Platform reports as a service's risks, computed from what the scan saw, never drawn
 * at random: vulnerabilities (real CVEs, with their published CVSS 3.1 scores and CISA KEV
 * entries) for the software versions that have them, exposures (services that should not
 * face the internet as they do) and misconfigurations (weak or broken TLS, directory
 * listings). Shapes follow the SDK's `Vuln` and `Risk`.
 */

export interface SoftwareFact {
  vendor: string;
  product: string;
  version?: string;
  /** A distribution build (`OpenSSH_8.9p1 Ubuntu-3ubuntu0.10`), whose fixes are backported. */
  backported?: boolean;
}

/** What the scan saw that risks are judged from. */
export interface RiskFacts {
  software: readonly SoftwareFact[];
  /** The protocol (`service_name`). */
  protocol: string;
  tls?: { version: string; selfSigned: boolean; expired: boolean; weakKey: boolean };
  httpTitle?: string;
  /** A Redis that answers commands without a password. */
  openRedis?: boolean;
}

interface VulnerabilityProfile {
  id: string;
  name: string;
  score: number;
  vector: string;
  cwe: string;
  kev?: { date_added: string; date_due: string };
  affects: (software: SoftwareFact) => boolean;
}

/** `1.2.3p1` → [1, 2, 3, 1]: numeric parts, for range checks. */
function parts(version: string): number[] {
  return (version.match(/\d+/g) ?? []).map(Number);
}

function compare(a: string, b: string): number {
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** An upstream build (no distribution suffix, whose backported fixes a banner cannot show) in [from, to). */
const upstream =
  (vendor: string, product: string, from: string, to: string) =>
  (s: SoftwareFact): boolean =>
    s.vendor === vendor &&
    s.product === product &&
    s.version !== undefined &&
    s.backported !== true &&
    compare(s.version, from) >= 0 &&
    compare(s.version, to) < 0;

const exactly =
  (vendor: string, product: string, versions: string[]) =>
  (s: SoftwareFact): boolean =>
    s.vendor === vendor && s.product === product && s.version !== undefined && versions.includes(s.version);

export const VULNERABILITIES: readonly VulnerabilityProfile[] = [
  {
    id: "CVE-2024-6387",
    name: "regreSSHion: OpenSSH signal handler race condition",
    score: 8.1,
    vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H",
    cwe: "CWE-362",
    affects: upstream("OpenBSD", "OpenSSH", "8.5", "9.8"),
  },
  {
    id: "CVE-2023-48795",
    name: "Terrapin: SSH prefix truncation",
    score: 5.9,
    vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:H/A:N",
    cwe: "CWE-354",
    affects: upstream("OpenBSD", "OpenSSH", "0", "9.6"),
  },
  {
    id: "CVE-2023-38408",
    name: "OpenSSH ssh-agent PKCS#11 remote code execution",
    score: 9.8,
    vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
    cwe: "CWE-428",
    affects: upstream("OpenBSD", "OpenSSH", "0", "9.3p2"),
  },
  {
    id: "CVE-2021-41773",
    name: "Apache HTTP Server 2.4.49 path traversal",
    score: 7.5,
    vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N",
    cwe: "CWE-22",
    kev: { date_added: "2021-11-03", date_due: "2021-11-17" },
    affects: exactly("Apache", "HTTPD", ["2.4.49"]),
  },
  {
    id: "CVE-2021-42013",
    name: "Apache HTTP Server 2.4.49 and 2.4.50 path traversal and RCE",
    score: 9.8,
    vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
    cwe: "CWE-22",
    kev: { date_added: "2021-11-03", date_due: "2021-11-17" },
    affects: exactly("Apache", "HTTPD", ["2.4.49", "2.4.50"]),
  },
  {
    id: "CVE-2019-10149",
    name: "Exim deliver_message remote command execution",
    score: 9.8,
    vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
    cwe: "CWE-20",
    kev: { date_added: "2021-11-03", date_due: "2022-05-03" },
    affects: upstream("Exim", "Exim", "4.87", "4.92"),
  },
  {
    id: "CVE-2019-12815",
    name: "ProFTPD mod_copy arbitrary file copy",
    score: 9.8,
    vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
    cwe: "CWE-284",
    affects: exactly("ProFTPD Project", "ProFTPD", ["1.3.5b", "1.3.6"]),
  },
  {
    id: "CVE-2019-0708",
    name: "BlueKeep: Remote Desktop Services remote code execution",
    score: 9.8,
    vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
    cwe: "CWE-416",
    kev: { date_added: "2021-11-03", date_due: "2022-05-03" },
    affects: exactly("Microsoft", "Windows Server 2008 R2", ["6.1"]),
  },
  {
    id: "CVE-2018-13379",
    name: "FortiOS SSL VPN path traversal",
    score: 9.8,
    vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
    cwe: "CWE-22",
    kev: { date_added: "2021-11-03", date_due: "2022-05-03" },
    affects: exactly("Fortinet", "FortiOS", ["6.0.4", "5.6.7"]),
  },
];

const severity = (score: number): string =>
  score >= 9 ? "critical" : score >= 7 ? "high" : score >= 4 ? "medium" : "low";

interface Rule {
  id: string;
  name: string;
  severity: string;
  /** The evidence (`data_path`, `found_value`) when the rule holds, else null. */
  test: (facts: RiskFacts) => { data_path: string; found_value: string } | null;
}

const EXPOSURES: readonly Rule[] = [
  {
    id: "exposed-redis-without-authentication",
    name: "Redis answering commands without authentication",
    severity: "high",
    test: (f) => (f.openRedis ? { data_path: "redis.ping_response", found_value: "PONG" } : null),
  },
  {
    id: "exposed-telnet",
    name: "Telnet exposed to the internet",
    severity: "medium",
    test: (f) => (f.protocol === "TELNET" ? { data_path: "protocol", found_value: "TELNET" } : null),
  },
  {
    id: "exposed-database",
    name: "Database server exposed to the internet",
    severity: "medium",
    test: (f) =>
      ["MYSQL", "POSTGRES"].includes(f.protocol) ? { data_path: "protocol", found_value: f.protocol } : null,
  },
  {
    id: "exposed-kubernetes-api",
    name: "Kubernetes API server exposed to the internet",
    severity: "high",
    test: (f) => (f.protocol === "KUBERNETES" ? { data_path: "protocol", found_value: "KUBERNETES" } : null),
  },
];

const MISCONFIGS: readonly Rule[] = [
  {
    id: "self-signed-certificate",
    name: "Self-signed TLS certificate",
    severity: "low",
    test: (f) =>
      f.tls?.selfSigned ? { data_path: "cert.parsed.signature.self_signed", found_value: "true" } : null,
  },
  {
    id: "expired-certificate",
    name: "Expired TLS certificate",
    severity: "medium",
    test: (f) =>
      f.tls?.expired ? { data_path: "cert.parsed.validity_period.not_after", found_value: "expired" } : null,
  },
  {
    id: "deprecated-tls-version",
    name: "Deprecated TLS version negotiated",
    severity: "medium",
    test: (f) =>
      f.tls && /TLSv1_[01]$/.test(f.tls.version)
        ? { data_path: "tls.version_selected", found_value: f.tls.version.toLowerCase() }
        : null,
  },
  {
    id: "weak-rsa-key",
    name: "RSA key shorter than 2048 bits",
    severity: "medium",
    test: (f) =>
      f.tls?.weakKey
        ? { data_path: "cert.parsed.subject_key_info.key_algorithm", found_value: "RSA 1024" }
        : null,
  },
  {
    id: "directory-listing",
    name: "Web server lists a directory",
    severity: "low",
    test: (f) =>
      f.httpTitle?.startsWith("Index of /")
        ? { data_path: "endpoints.http.html_title", found_value: f.httpTitle }
        : null,
  },
];

function riskObject(rule: Rule, evidence: { data_path: string; found_value: string }, kind: string) {
  return {
    id: rule.id,
    name: rule.name,
    severity: rule.severity,
    type: [kind],
    source: "censys",
    risk_source: "censys",
    confidence: 1,
    evidence: [evidence],
  };
}

/** The service's `vulns`, `exposures` and `misconfigs` (each omitted when empty). */
export function serviceRisks(facts: RiskFacts): Record<string, unknown[]> {
  const vulns = VULNERABILITIES.flatMap((profile) => {
    const affected = facts.software.find(profile.affects);
    if (!affected) return [];
    const year = Number(profile.id.slice(4, 8));
    return [
      {
        id: profile.id,
        name: profile.name,
        severity: severity(profile.score),
        type: ["cve"],
        source: "censys",
        risk_source: "cve",
        confidence: 0.9,
        year,
        metrics: { cvss_v31: { score: profile.score, vector: profile.vector } },
        cwes: [{ entry: profile.cwe }],
        ...(profile.kev ? { kev: [{ ...profile.kev, source: "cisa" }] } : {}),
        evidence: [
          {
            data_path: "software.version",
            found_value: `${affected.product} ${affected.version ?? ""}`.trim(),
          },
        ],
      },
    ];
  });
  const judged = (rules: readonly Rule[], kind: string) =>
    rules.flatMap((rule) => {
      const evidence = rule.test(facts);
      return evidence ? [riskObject(rule, evidence, kind)] : [];
    });
  const out: Record<string, unknown[]> = {};
  const exposures = judged(EXPOSURES, "exposure");
  const misconfigs = judged(MISCONFIGS, "misconfiguration");
  if (vulns.length > 0) out.vulns = vulns;
  if (exposures.length > 0) out.exposures = exposures;
  if (misconfigs.length > 0) out.misconfigs = misconfigs;
  return out;
}
