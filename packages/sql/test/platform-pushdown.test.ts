import { describe, expect, it } from "vitest";
import { describeSqlError } from "../src/errors";
import { planPlatformQuery, type PlatformPlan } from "../src/platform";

// The WHERE → CenQL translation of the Platform planner, case by case: what is pushed, and
// whether it is exact (the query matches exactly the documents the WHERE keeps) or only wider.

const NOW = Date.parse("2026-11-01T12:00:00Z");

function planned(sql: string): PlatformPlan {
  const result = planPlatformQuery(sql, { now: NOW, maxPages: 10 });
  if (!result.ok) throw new Error(describeSqlError(result.error));
  return result.value;
}

function pushed(where: string, table = "ipv4"): { cenql: string | null; exact: boolean } {
  const plan = planned(`SELECT * FROM ${table} WHERE ${where} LIMIT 10`);
  return { cenql: plan.pushed, exact: plan.exact };
}

describe("conditions the Platform searches exactly", () => {
  const EXACT: [string, string, string?][] = [
    ["location.country = 'Germany'", 'host.location.country = "Germany"'],
    ["'Germany' = location.country", 'host.location.country = "Germany"'],
    ["autonomous_system.asn = 3320", "host.autonomous_system.asn: 3320"],
    ["autonomous_system.asn > 3320", "host.autonomous_system.asn > 3320"],
    ["3320 >= autonomous_system.asn", "host.autonomous_system.asn <= 3320"],
    [
      "location.coordinates.latitude BETWEEN 40 AND 60.5",
      "host.location.coordinates.latitude >= 40 and host.location.coordinates.latitude <= 60.5",
    ],
    ["ip = '192.0.2.7'", "host.ip: 192.0.2.7"],
    ["ip LIKE '192.0.%'", "host.ip: 192.0.0.0/16"],
    ["location.city LIKE 'Ber%'", "host.location.city = Ber*"],
    ["location.city LIKE 'B_rlin'", 'host.location.city =~ "^B.rlin$"'],
    ["autonomous_system.name CONTAINS 'a.b'", 'host.autonomous_system.name =~ "a\\\\.b"'],
    [
      "REGEXP_MATCH(autonomous_system.name, r'^DTAG-\\d{3}.*$')",
      'host.autonomous_system.name =~ "^DTAG-\\\\d{3}.*$"',
    ],
    ["location.city IS NULL", "not host.location.city: *"],
    [
      "location.city IS NOT NULL AND NOT (location.province IS NULL)",
      "host.location.city: * and host.location.province: *",
    ],
    [
      "location.country IN ('Germany', 'France')",
      'host.location.country = "Germany" or host.location.country = "France"',
    ],
    ["services.port = 22", "host.services: (port: 22)"],
    [
      "services.port = 443 AND services.service_name = 'HTTP' AND location.country_code = 'DE'",
      'host.location.country_code = "DE" and host.services: (port: 443 and protocol = "HTTP")',
    ],
    ["services.port = 22 OR services.port = 2222", "host.services: (port: 22 or port: 2222)"],
    ["services.tls.version_selected = 'TLSv1_3'", 'host.services: (tls.version_selected: "tlsv1_3")'],
    ["services.transport_protocol = 'UDP'", 'host.services: (transport_protocol: "udp")'],
    ["services.observed_at >= '2026-10-31'", 'host.services: (scan_time >= "2026-10-31T00:00:00.000Z")'],
    ["services.software.product = 'nginx'", 'host.services: (software.product = "nginx")'],
    ["services.tls.certificate.fingerprint_sha256 = 'ab'", 'host.services: (cert.fingerprint_sha256 = "ab")'],
    ["services.port IS NULL", "host.services: (not port: *) or not host.services: *"],
    ["protocols = '22/ssh'", 'host.services: (port: 22 and protocol: "ssh")'],
    ["protocols IS NULL", "not host.services: *"],
    ["parsed.names = 'example.com'", 'cert.names = "example.com"', "certificates"],
    ["parsed.validation_level = 'EV'", 'cert.validation_level: "ev"', "certificates"],
    ["validation.google_ct_primary.valid = false", "cert.validation.chrome.is_valid: false", "certificates"],
    ["metadata.seen_in_scan = true", "cert.ever_seen_in_scan: true", "certificates"],
    ["parsed.names IS NULL", "not cert.names: *", "certificates"],
    ["NOT (parsed.names IS NULL)", "cert.names: *", "certificates"],
    ["domain = 'example.com'", 'web.hostname = "example.com"', "websites"],
  ];

  it.each(EXACT)("%s → %s", (where, cenql, table) => {
    expect(pushed(where, table)).toEqual({ cenql, exact: true });
  });
});

describe("conditions pushed wider, the rest evaluated over the rows", () => {
  const WIDER: [string, string, string?][] = [
    // SQL's NOT of a NULL keeps nothing; CenQL's not keeps the document.
    ["location.country != 'Germany'", 'not host.location.country = "Germany"'],
    ["NOT location.country_code LIKE 'U_'", 'not host.location.country_code =~ "^U.$"'],
    ["NOT services.port = 22 AND services.port IS NOT NULL", "host.services: (not port: 22 and port: *)"],
    // What cannot be pushed is dropped from an AND.
    ["location.country = 'Germany' AND LOWER(location.city) = 'berlin'", 'host.location.country = "Germany"'],
    [
      "services.port = 22 AND services.banner LIKE '%x%' AND services_count > 1",
      'host.services: (port: 22 and banner =~ "^.*x.*$")',
    ],
    // Two conditions on a list may hold on different values.
    ["parsed.names = 'a' AND parsed.names LIKE 'b%'", 'cert.names = "a" and cert.names = b*', "certificates"],
    // v1 tells http from https by TLS, which the query does not.
    ["protocols = '443/https'", 'host.services: (port: 443 and protocol: "HTTP")'],
  ];

  it.each(WIDER)("%s → %s", (where, cenql, table) => {
    expect(pushed(where, table)).toEqual({ cenql, exact: false });
  });
});

describe("conditions that push nothing", () => {
  const NOTHING: [string, string?][] = [
    ["LOWER(location.city) = 'berlin'"],
    ["location.city = location.province"],
    ["services_count > 1"],
    ["last_updated_at > '2026-01-01'"],
    ["REGEXP_MATCH(location.city, r'(?i)berlin|paris')"],
    ["REGEXP_MATCH(ip, r'\\.1\\d$')"],
    ["REGEXP_MATCH(autonomous_system.name, r'^DTAG-\\d+$')"],
    ["location.country = 'Germany' OR services_count > 1"],
    // Some value is not 'x': CenQL cannot say it of a list.
    ["parsed.names != 'x'", "certificates"],
    ["NOT parsed.names = 'x'", "certificates"],
    // NOT of a wider condition would be narrower.
    ["NOT (location.country = 'Germany' AND LOWER(location.city) = 'berlin')"],
    ["tags = 'trusted'", "certificates"],
    ["p443.https.get.title = 'x'", "websites"],
  ];

  it.each(NOTHING)("%s", (where, table) => {
    const plan = planPlatformQuery(`SELECT * FROM ${table ?? "ipv4"} WHERE ${where} LIMIT 10`, {
      now: NOW,
      maxPages: 10,
    });
    // Nothing pushed and a WHERE left over: no LIMIT can bound the pages either.
    expect(plan.ok).toBe(false);
    if (!plan.ok)
      expect(plan.error.message).toMatch(/no condition of its WHERE is one the Platform can search/);
  });
});
