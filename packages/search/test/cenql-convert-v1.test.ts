import { describe, expect, it } from "vitest";
import { convertLegacyQuery, convertLegacyReportField, parseQuery } from "../src/index";

// v1 search queries of the ipv4, websites and certificates indexes as CenQL (the names of v1
// documents, per-port fields, certificate tags), and v1 report fields as the Platform aggregate.

type Index = "hosts" | "certificates" | "websites";

function converted(text: string, index: Index): string {
  const result = convertLegacyQuery(text, "v1", index);
  if (!result.ok) throw new Error(`${text}: ${result.error.message}`);
  // What is printed is CenQL that parses back.
  expect(parseQuery(result.value, "cenql").ok).toBe(true);
  return result.value;
}

describe("v1 queries as CenQL", () => {
  const CASES: [string, Index, string][] = [
    ["22.ssh.v2.banner.raw: OpenSSH", "hosts", "host.services: (port: 22 and ssh.endpoint_id.raw: OpenSSH)"],
    [
      "443.https.tls.version: TLSv1.2",
      "hosts",
      "host.services: (port: 443 and tls.version_selected: tlsv1_2)",
    ],
    [
      "443.https.tls.certificate.parsed.names: example.com",
      "hosts",
      "host.services: (port: 443 and cert.names: example.com)",
    ],
    ["25.smtp.starttls.banner: postfix", "hosts", "host.services: (port: 25 and smtp.banner: postfix)"],
    [
      "3306.mysql.banner.server_version: 8*",
      "hosts",
      "host.services: (port: 3306 and mysql.server_version: 8*)",
    ],
    [
      "autonomous_system.asn: 3320 and location.country_code: DE",
      "hosts",
      "host.autonomous_system.asn: 3320 and host.location.country_code: DE",
    ],
    ["443.https.get.title: Welcome", "websites", "web.port: 443 and web.endpoints.http.html_title: Welcome"],
    [
      "80.http.get.status_code: 200 OR 443.https.get.status_code: 200",
      "websites",
      "web.port: 80 and web.endpoints.http.status_code: 200 or web.port: 443 and web.endpoints.http.status_code: 200",
    ],
    [
      "+domain: example.com +443.https.tls.version: TLSv1.3",
      "websites",
      "web.hostname: example.com and web.port: 443 and web.tls.version_selected: tlsv1_3",
    ],
    [
      "tags: trusted",
      "certificates",
      "cert.validation.nss.is_valid: true or cert.validation.apple.is_valid: true or cert.validation.microsoft.is_valid: true or cert.validation.chrome.is_valid: true",
    ],
    ["tags: expired", "certificates", "cert.parsed.validity_period.not_after < now"],
    ["+tags: dv +tags: precert", "certificates", "cert.validation_level: dv and cert.precert: true"],
    ["tags: leaf", "certificates", "not cert.parsed.extensions.basic_constraints.is_ca: true"],
    [
      "tags: root",
      "certificates",
      "cert.parsed.extensions.basic_constraints.is_ca: true and cert.parsed.signature.self_signed: true",
    ],
    ["validation.google_ct_primary.valid: true", "certificates", "cert.validation.chrome.is_valid: true"],
  ];

  it.each(CASES)("%j (%s) converts to %j", (input, index, expected) => {
    expect(converted(input, index)).toBe(expected);
  });

  const ERRORS: [string, Index, string, RegExp][] = [
    [
      "+80.http.get.title: a +443.https.get.title: b",
      "websites",
      "443",
      /ports 80 and 443 of one website cannot hold together/,
    ],
    ["alexa_rank: [1 TO 100]", "websites", "alexa_rank", /no Platform counterpart/],
    ["location.country: Germany", "websites", "location.country", /no Platform counterpart/],
    ["443.ftp.banner.banner: x", "websites", "443.ftp.banner.banner", /http or https/],
    ["tags: nss-root", "certificates", "nss-root", /has no Platform condition/],
    ["tags: /tru.*/", "certificates", "/tru.*/", /take a tag name/],
  ];

  it.each(ERRORS)("%j (%s) is refused naming %j", (input, index, token, message) => {
    const result = convertLegacyQuery(input, "v1", index);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.token).toBe(token);
    expect(result.error.message).toMatch(message);
  });
});

describe("v1 report fields as the Platform aggregate", () => {
  it("counts hosts per value of a host field", () => {
    expect(convertLegacyReportField("location.country", "hosts")).toMatchObject({
      ok: true,
      value: { field: "host.location.country", countByLevel: "host", condition: null, filterByQuery: false },
    });
    expect(convertLegacyReportField("ports", "hosts")).toMatchObject({
      ok: true,
      value: { field: "host.services.port", countByLevel: "host" },
    });
  });

  it("keeps a per-port field's port, counting only that port's services", () => {
    const tls = convertLegacyReportField("443.https.tls.version", "hosts");
    expect(tls).toMatchObject({
      ok: true,
      value: {
        field: "host.services.tls.version_selected",
        countByLevel: "host",
        condition: "host.services.port: 443",
        filterByQuery: true,
      },
    });
    // The Platform's `tlsv1_2` (and the legacy index's `TLSv1_2`) are v1's `TLSv1.2`.
    if (tls.ok) expect(["tlsv1_2", "TLSv1_2"].map(tls.value.legacyKey)).toEqual(["TLSv1.2", "TLSv1.2"]);
    expect(convertLegacyReportField("443.https.get.title", "websites")).toMatchObject({
      ok: true,
      value: {
        field: "web.endpoints.http.html_title",
        countByLevel: "",
        condition: "web.port: 443",
        filterByQuery: false,
      },
    });
  });

  it("renames certificate fields", () => {
    expect(convertLegacyReportField("parsed.issuer.organization", "certificates")).toMatchObject({
      ok: true,
      value: { field: "cert.parsed.issuer.organization" },
    });
    expect(convertLegacyReportField("parsed.validity.end", "certificates")).toMatchObject({
      ok: true,
      value: { field: "cert.parsed.validity_period.not_after" },
    });
  });

  it.each([
    ["protocols", "hosts", /derived from others/],
    ["tags", "certificates", /derived from others/],
    ["domain", "websites", /one per website/],
    ["22.ssh.nothing", "hosts", /no CenQL equivalent/],
  ] as const)("refuses %j on %s, saying why", (field, index, message) => {
    const result = convertLegacyReportField(field, index);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(message);
  });
});
