import { describe, expect, it } from "vitest";
import {
  expandedNames,
  ipv4DocumentSchema,
  legacyCertificate,
  legacyCertificateSource,
  legacyCertificateTags,
  legacyIpv4,
  legacyProtocol,
  legacyWebsite,
  websiteDocumentSchema,
} from "../src/index";
import { FP, FP2 } from "./fixtures";

// Platform (v3) documents as the v1 ipv4, websites and certificate documents, rule by rule.
// The origin's legacy-documents.test.ts checks them against its own legacy documents of the
// whole generated dataset.

const NOW = Date.parse("2026-11-01T00:00:00Z");

const httpsService = {
  port: 443,
  protocol: "HTTP",
  transport_protocol: "tcp",
  scan_time: "2026-10-31T18:01:02.123456789Z",
  cert: {
    fingerprint_sha256: FP,
    names: ["example.com", "www.example.com"],
    parsed: {
      subject_dn: "CN=example.com",
      issuer_dn: "CN=Example CA",
      subject_key_info: { key_algorithm: { name: "RSA" } },
    },
  },
  tls: {
    version_selected: "tlsv1_2",
    cipher_selected: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
    presented_chain: [{ fingerprint_sha256: FP }, { fingerprint_sha256: FP2 }],
  },
  endpoints: [
    {
      path: "/",
      ip: "192.0.2.7",
      http: {
        status_code: 200,
        status_reason: "OK",
        html_title: "Example",
        headers: { Server: { headers: ["nginx/1.25"] }, "Content-Type": { headers: ["text/html"] } },
        body: "<html></html>",
        body_hash_sha256: "ab".repeat(32),
      },
    },
  ],
};

const platformHost = () => ({
  ip: "192.0.2.7",
  autonomous_system: { asn: 64500, bgp_prefix: "192.0.2.0/24", name: "EXAMPLE", country_code: "US" },
  location: { country: "United States", country_code: "US", coordinates: { latitude: 1.5, longitude: 2.5 } },
  services: [
    httpsService,
    {
      port: 22,
      protocol: "SSH",
      scan_time: "2026-10-30T08:00:00Z",
      banner: "SSH-2.0-OpenSSH_9.6",
      ssh: {
        endpoint_id: { raw: "SSH-2.0-OpenSSH_9.6", protocol_version: "2.0", software_version: "OpenSSH_9.6" },
        server_host_key: { fingerprint_sha256: FP2 },
      },
    },
    { port: 25, protocol: "SMTP", smtp: { banner: "220 mail", ehlo: "250-PIPELINING\r\n250 8BITMIME" } },
    { port: 3389, protocol: "RDP" },
  ],
});

describe("legacyIpv4", () => {
  it("gives the v1 ipv4 document: summaries from the services, a block per port", () => {
    const doc = legacyIpv4(platformHost());
    ipv4DocumentSchema.parse(doc);
    expect(doc).toMatchObject({
      ip: "192.0.2.7",
      protocols: ["22/ssh", "25/smtp", "3389/rdp", "443/https"],
      ports: [22, 25, 443, 3389],
      tags: ["https", "rdp", "smtp", "ssh"],
      location: { country_code: "US", latitude: 1.5, longitude: 2.5 },
      autonomous_system: { asn: 64500, routed_prefix: "192.0.2.0/24", name: "EXAMPLE" },
      updated_at: "2026-10-31T18:01:02Z",
    });
    expect(doc.location).not.toHaveProperty("coordinates");
    expect(doc["443"]).toEqual({
      https: {
        get: {
          status_code: 200,
          status_line: "200 OK",
          title: "Example",
          headers: { server: "nginx/1.25", content_type: "text/html" },
          body: "<html></html>",
          body_sha256: "ab".repeat(32),
        },
        tls: {
          version: "TLSv1.2",
          cipher_suite: { name: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256" },
          certificate: {
            parsed: {
              fingerprint_sha256: FP,
              subject_dn: "CN=example.com",
              issuer_dn: "CN=Example CA",
              names: ["example.com", "www.example.com"],
              subject_key_info: { key_algorithm: { name: "RSA" } },
            },
          },
          chain: [{ parsed: { fingerprint_sha256: FP2 } }],
        },
      },
    });
    expect(doc["22"]).toEqual({
      ssh: {
        v2: {
          banner: { raw: "SSH-2.0-OpenSSH_9.6", version: "2.0", software: "OpenSSH_9.6" },
          server_host_key: { fingerprint_sha256: FP2 },
        },
      },
    });
    expect(doc["25"]).toEqual({
      smtp: { starttls: { banner: "220 mail", ehlo: "250-PIPELINING 250 8BITMIME" } },
    });
    // The Platform has no RDP block: the service is known, its v1 details are not.
    expect(doc["3389"]).toEqual({ rdp: {} });
  });

  it("reads the software, JARM, key details, SSH algorithms and Kubernetes version of the services", () => {
    const selected = { kex_algorithm: "curve25519-sha256", host_key_algorithm: "ssh-ed25519" };
    const doc = legacyIpv4({
      ip: "192.0.2.9",
      services: [
        {
          ...httpsService,
          software: [{ vendor: "F5", product: "nginx", version: "1.25" }],
          jarm: { fingerprint: "2a".repeat(31) },
          cert: {
            ...httpsService.cert,
            parsed: {
              ...httpsService.cert.parsed,
              subject: { common_name: ["example.com"] },
              issuer: { common_name: ["Example CA"], organization: ["Example"] },
              subject_key_info: { key_algorithm: { name: "RSA" }, fingerprint_sha256: FP2 },
              signature: { self_signed: false },
            },
          },
        },
        {
          port: 22,
          protocol: "SSH",
          ssh: {
            endpoint_id: {
              raw: "SSH-2.0-OpenSSH_9.6 Ubuntu",
              software_version: "OpenSSH_9.6",
              comment: "Ubuntu",
            },
            server_host_key: { fingerprint_sha256: FP2, key_algorithm: "ssh-ed25519" },
            algorithm_selection: selected,
          },
        },
        {
          port: 6443,
          protocol: "KUBERNETES",
          endpoints: [{ path: "/", kubernetes: { version_info: { git_version: "v1.30.9" } } }],
        },
      ],
    }) as Record<string, Record<string, Record<string, Record<string, unknown>>>>;
    ipv4DocumentSchema.parse(doc);
    const https = doc["443"]!.https!;
    expect(https.get!.metadata).toEqual({ manufacturer: "F5", product: "nginx", version: "1.25" });
    expect(https.tls!.jarm).toBe("2a".repeat(31));
    expect((https.tls!.certificate as { parsed: unknown }).parsed).toMatchObject({
      subject: { common_name: ["example.com"] },
      issuer: { common_name: ["Example CA"], organization: ["Example"] },
      subject_key_info: { key_algorithm: { name: "RSA" }, fingerprint_sha256: FP2 },
      signature: { self_signed: false },
    });
    expect(doc["22"]!.ssh!.v2).toEqual({
      banner: { raw: "SSH-2.0-OpenSSH_9.6 Ubuntu", software: "OpenSSH_9.6", comment: "Ubuntu" },
      server_host_key: { fingerprint_sha256: FP2, key_algorithm: "ssh-ed25519" },
      selected,
    });
    expect(doc["6443"]).toEqual({ kubernetes: { banner: { git_version: "v1.30.9" } } });
  });

  it("leaves out what the host does not have", () => {
    const doc = legacyIpv4({ ip: "192.0.2.8", services: [] });
    expect(doc).toEqual({ ip: "192.0.2.8", protocols: [], ports: [], tags: [] });
  });

  it("names plain HTTP http and HTTP over TLS https", () => {
    expect(legacyProtocol({ port: 80, protocol: "HTTP" })).toBe("80/http");
    expect(legacyProtocol({ port: 8443, protocol: "HTTP", tls: {} })).toBe("8443/https");
  });
});

describe("legacyWebsite", () => {
  const property = (port: number, tls: boolean) => ({
    hostname: "example.com",
    port,
    endpoints: [{ path: "/", ip: "192.0.2.7", http: { status_code: 301, html_title: "Moved" } }],
    ...(tls ? { tls: httpsService.tls, cert: httpsService.cert } : {}),
  });

  it("joins the name's properties into one document, its place from the host", () => {
    const doc = legacyWebsite("Example.com", [property(443, true), property(80, false)], platformHost());
    websiteDocumentSchema.parse(doc);
    expect(doc).toMatchObject({
      domain: "example.com",
      ip: "192.0.2.7",
      protocols: ["443/https", "80/http"],
      ports: [80, 443],
      tags: ["http", "https"],
      location: { country: "United States", country_code: "US" },
      autonomous_system: { asn: 64500, name: "EXAMPLE", routed_prefix: "192.0.2.0/24" },
      updated_at: "2026-10-31T18:01:02Z",
    });
    expect(doc["80"]).toEqual({
      http: { get: { status_code: 301, status_line: "301", title: "Moved", headers: {}, body: "" } },
    });
    expect((doc["443"] as { https: { tls: { version: string } } }).https.tls.version).toBe("TLSv1.2");
    expect(doc).not.toHaveProperty("alexa_rank");
    expect(doc).not.toHaveProperty("threats");
  });

  it("lists the threats its properties show", () => {
    const threat = { id: "evilginx", name: "Evilginx", type: ["PHISHING_KIT"] };
    const doc = legacyWebsite("example.com", [
      { ...property(443, true), threats: [threat] },
      property(80, false),
    ]);
    websiteDocumentSchema.parse(doc);
    expect(doc.threats).toEqual([threat]);
  });

  it("leaves the host's place out without the host", () => {
    const doc = legacyWebsite("example.com", [property(80, false)]);
    expect(Object.keys(doc).sort()).toEqual(["80", "domain", "ip", "ports", "protocols", "tags"]);
  });
});

const certificate = (overrides: Record<string, unknown> = {}, parsed: Record<string, unknown> = {}) => ({
  validation_level: "ov",
  names: ["*.example.com", "example.com", "*.example.org"],
  ct: { google_argon: { index: 1 } },
  ever_seen_in_scan: true,
  validation: {
    nss: { is_valid: true, ever_valid: true, had_trusted_path: true, parents: [FP2] },
    chrome: { is_valid: false, ever_valid: false, had_trusted_path: false, parents: [] },
  },
  parsed: {
    validity_period: { not_before: "2026-01-01T00:00:00Z", not_after: "2027-01-01T00:00:00Z" },
    signature: { self_signed: false },
    extensions: { basic_constraints: { is_ca: false } },
    subject_key_info: { key_algorithm: { name: "RSA" }, rsa_public_key: { length: 2048 } },
    ...parsed,
  },
  ...overrides,
});

describe("legacyCertificateTags", () => {
  it("tags a trusted leaf by role, validity, trust, level, CT and scan, in v1's order", () => {
    expect(legacyCertificateTags(certificate(), NOW)).toEqual([
      "leaf",
      "unexpired",
      "trusted",
      "ov",
      "ct",
      "seen-in-scan",
    ]);
  });

  it("judges validity at the instant given", () => {
    expect(legacyCertificateTags(certificate(), Date.parse("2027-06-01T00:00:00Z"))).toContain("expired");
    expect(legacyCertificateTags(certificate(), Date.parse("2025-06-01T00:00:00Z"))).toContain(
      "not-yet-valid",
    );
  });

  it("tells roots in the NSS store, intermediates, weak keys and past trust", () => {
    const root = certificate(
      {
        validation: { nss: { is_valid: true, had_trusted_path: true, parents: [] } },
        ct: {},
        ever_seen_in_scan: false,
        validation_level: "",
      },
      { signature: { self_signed: true }, extensions: { basic_constraints: { is_ca: true } } },
    );
    expect(legacyCertificateTags(root, NOW)).toEqual([
      "root",
      "self-signed",
      "unexpired",
      "trusted",
      "nss-root",
    ]);
    expect(legacyCertificateSource(root)).toBe("root_store");

    const intermediate = certificate(
      { validation: { apple: { is_valid: false, ever_valid: true } }, precert: true },
      {
        extensions: { basic_constraints: { is_ca: true } },
        subject_key_info: { key_algorithm: { name: "RSA" }, rsa: { length: 1024 } },
      },
    );
    expect(legacyCertificateTags(intermediate, NOW)).toEqual([
      "intermediate",
      "unexpired",
      "was-trusted",
      "ov",
      "precert",
      "ct",
      "weak-key",
      "seen-in-scan",
    ]);
    expect(legacyCertificateTags(certificate({ validation: {} }), NOW)).toContain("untrusted");
  });

  it("gives the source and the expanded names as v1 does", () => {
    expect(legacyCertificateSource(certificate())).toBe("scan");
    expect(legacyCertificateSource(certificate({ ever_seen_in_scan: false }))).toBe("ct");
    expect(legacyCertificateSource(certificate({ ever_seen_in_scan: false, ct: {} }))).toBe("unknown");
    expect(expandedNames(certificate().names)).toEqual([
      "*.example.com",
      "example.com",
      "*.example.org",
      "example.org",
    ]);
  });

  it("puts them in the translated document", () => {
    const doc = legacyCertificate(certificate(), undefined, { now: NOW });
    expect(doc.tags).toEqual(legacyCertificateTags(certificate(), NOW));
    expect(doc.metadata).toMatchObject({ source: "scan", seen_in_scan: true });
    expect(doc.parsed.__expanded_names).toContain("example.org");
  });
});
