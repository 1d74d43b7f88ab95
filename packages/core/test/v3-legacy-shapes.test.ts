import { describe, expect, it } from "vitest";
import {
  certificateDocumentSchema,
  derFromPem,
  hostDocumentSchema,
  hostHitSchema,
  hostServiceSchema,
  latestScanTime,
  legacyCertificate,
  legacyHost,
  legacyHostHit,
  legacyTlsVersion,
  projectLegacyFields,
} from "../src/index";
import { FP, FP2 } from "./fixtures";

// The Platform (v3) documents reshaped into the legacy ones. The edge's
// legacy-on-platform.test.ts compares them with the origin's own legacy faces over its dataset;
// these pin the renames one by one.

const platformHost = () => ({
  ip: "192.0.2.7",
  autonomous_system: {
    asn: 64500,
    bgp_prefix: "192.0.2.0/24",
    country_code: "US",
    name: "EXAMPLE",
    description: "Example Net",
    organization: "Example Inc",
  },
  location: {
    continent: "North America",
    country: "United States",
    country_code: "US",
    postal_code: "10001",
    registered_country: "United States",
    registered_country_code: "US",
    timezone: "America/New_York",
    coordinates: { latitude: 1, longitude: 2 },
  },
  services: [
    {
      ip: "192.0.2.7",
      port: 443,
      protocol: "HTTP",
      transport_protocol: "tcp",
      scan_time: "2026-10-31T18:01:02.123456789Z",
      banner: "HTTP/1.1 200 OK",
      software: [
        { cpe: "cpe:2.3:a:nginx:nginx:1.25", part: "a", vendor: "nginx", product: "nginx", version: "1.25" },
      ],
      cert: {
        fingerprint_sha256: FP,
        tbs_fingerprint_sha256: FP2,
        names: ["example.com"],
        parsed: { subject_key_info: { key_algorithm: { name: "RSA" }, rsa_public_key: { length: 2048 } } },
      },
      tls: {
        version_selected: "tlsv1_2",
        cipher_selected: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        fingerprint_sha256: FP,
        presented_chain: [
          { fingerprint_sha256: FP, subject_dn: "CN=example.com", issuer_dn: "CN=Example CA" },
          { fingerprint_sha256: FP2 },
        ],
      },
      endpoints: [
        {
          endpoint_type: "HTTP",
          path: "/",
          http: {
            uri: "https://192.0.2.7/",
            protocol: "HTTP/1.1",
            status_code: 200,
            status_reason: "OK",
            headers: { Server: { headers: ["nginx"] } },
            html_title: "Example",
            body: "<html></html>",
            body_size: 13,
            body_hash_sha1: "abc",
            supported_versions: ["HTTP/1.1", "HTTP/2"],
          },
        },
      ],
    },
    {
      port: 22,
      protocol: "SSH",
      transport_protocol: "tcp",
      scan_time: "2026-10-30T08:00:00.000000001Z",
      banner: "SSH-2.0-OpenSSH_9.6",
      ssh: { server_id: { raw: "SSH-2.0-OpenSSH_9.6" } },
    },
  ],
  service_count: 2,
});

/** What the Platform does not carry, and the legacy schema requires of every service. */
const reshapedServiceSchema = hostServiceSchema.omit({
  source_ip: true,
  perspective_id: true,
  truncated: true,
});

describe("legacyHost", () => {
  it("renames a Platform host's services into v2 services, in core's v2 shape but for what the Platform lacks", () => {
    const host = legacyHost(platformHost());
    hostDocumentSchema.omit({ services: true }).parse(host);
    for (const service of host.services) reshapedServiceSchema.parse(service);
    const [https, ssh] = host.services;
    expect(https).toMatchObject({
      port: 443,
      service_name: "HTTP",
      extended_service_name: "HTTPS",
      transport_protocol: "TCP",
      observed_at: "2026-10-31T18:01:02.123456789Z",
      certificate: FP,
      _decoded: "http",
      _encoding: { banner: "DISPLAY_UTF8", certificate: "DISPLAY_HEX" },
      software: [
        { uniform_resource_identifier: "cpe:2.3:a:nginx:nginx:1.25", vendor: "nginx", version: "1.25" },
      ],
      tls: {
        version_selected: "TLSv1_2",
        certificates: {
          leaf_fp_sha_256: FP,
          chain_fps_sha_256: [FP2],
          leaf_data: {
            subject_dn: "CN=example.com",
            issuer_dn: "CN=Example CA",
            names: ["example.com"],
            pubkey_algorithm: "RSA",
            pubkey_bit_size: 2048,
            tbs_fingerprint: FP2,
          },
        },
      },
      http: {
        request: { method: "GET", uri: "https://192.0.2.7/" },
        response: { status_code: 200, headers: { Server: ["nginx"] }, html_title: "Example", body_size: 13 },
        body_hash: "sha1:abc",
        supports_http2: true,
      },
    });
    expect(ssh).toMatchObject({
      service_name: "SSH",
      _decoded: "ssh",
      ssh: { server_id: { raw: "SSH-2.0-OpenSSH_9.6" } },
    });
    expect(ssh).not.toHaveProperty("certificate");
    // The legacy autonomous system has no `organization`.
    expect(host.autonomous_system).toEqual({
      asn: 64500,
      bgp_prefix: "192.0.2.0/24",
      country_code: "US",
      name: "EXAMPLE",
      description: "Example Net",
    });
    expect(host.last_updated_at).toBe("2026-10-31T18:01:02.123000000Z");
  });

  it("gives a leaf presented alone an empty v2 chain, and a service with no presented chain none", () => {
    const host = platformHost();
    const https = host.services[0]!;
    const leafOnly = legacyHost({
      ...host,
      services: [{ ...https, tls: { ...https.tls, presented_chain: [https.tls!.presented_chain[0]!] } }],
    });
    expect(leafOnly.services[0]!.tls?.certificates).toMatchObject({
      leaf_fp_sha_256: FP,
      chain_fps_sha_256: [],
    });
    const noChain = legacyHost({
      ...host,
      services: [{ ...https, tls: { ...https.tls, presented_chain: undefined } }],
    });
    expect(noChain.services[0]!.tls?.certificates).not.toHaveProperty("chain_fps_sha_256");
  });

  it("gives a search hit its services' names in port order, as v2 search lists them", () => {
    const hit = legacyHostHit(platformHost());
    hostHitSchema.parse(hit);
    expect(hit.services).toEqual([
      { port: 22, service_name: "SSH", extended_service_name: "SSH", transport_protocol: "TCP" },
      { port: 443, service_name: "HTTP", extended_service_name: "HTTPS", transport_protocol: "TCP" },
    ]);
    expect(Object.keys(hit).sort()).toEqual([
      "autonomous_system",
      "ip",
      "last_updated_at",
      "location",
      "services",
    ]);
  });
});

describe("latestScanTime and legacyTlsVersion", () => {
  it("take the latest scan to the millisecond, and none without a scan", () => {
    expect(
      latestScanTime([
        { scan_time: "2026-01-01T00:00:00.999999999Z" },
        { scan_time: "2026-01-01T00:00:01Z" },
        { scan_time: "not a time" },
        {},
      ]),
    ).toBe("2026-01-01T00:00:01.000000000Z");
    expect(latestScanTime([])).toBeUndefined();
  });

  it("spell protocol versions as v2 does", () => {
    expect(legacyTlsVersion("tlsv1_3")).toBe("TLSv1_3");
    expect(legacyTlsVersion("sslv3")).toBe("SSLv3");
    expect(legacyTlsVersion(undefined)).toBeUndefined();
  });
});

const PEM =
  "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa\nAAAA\n-----END CERTIFICATE-----\n";

const platformCertificate = () => ({
  fingerprint_sha256: FP,
  fingerprint_sha1: "da39a3ee5e6b4b0d3255bfef95601890afd80709",
  fingerprint_md5: "d41d8cd98f00b204e9800998ecf8427e",
  tbs_fingerprint_sha256: FP2,
  tbs_no_ct_fingerprint_sha256: FP2,
  spki_subject_fingerprint_sha256: FP2,
  parent_spki_subject_fingerprint_sha256: FP2,
  added_at: "2026-01-01T00:00:00Z",
  modified_at: "2026-02-01T00:00:00Z",
  validated_at: "2026-02-02T00:00:00Z",
  ever_seen_in_scan: true,
  names: ["example.com"],
  parse_status: "success",
  precert: false,
  revoked: false,
  validation_level: "dv",
  validation: {
    nss: {
      is_valid: true,
      ever_valid: true,
      has_trusted_path: true,
      had_trusted_path: true,
      in_revocation_set: false,
      parents: [FP2],
      type: "leaf",
    },
    chrome: {
      is_valid: false,
      ever_valid: false,
      has_trusted_path: false,
      had_trusted_path: false,
      in_revocation_set: false,
      parents: [],
      type: "leaf",
    },
  },
  parsed: {
    version: 3,
    serial_number: "33554617",
    serial_number_hex: "020000b9",
    issuer_dn: "CN=Example CA",
    subject_dn: "CN=example.com",
    issuer: { common_name: ["Example CA"] },
    subject: { common_name: ["example.com"] },
    validity_period: {
      not_before: "2026-01-01T00:00:00Z",
      not_after: "2027-01-01T00:00:00Z",
      length_seconds: 31536000,
    },
    signature: {
      self_signed: false,
      valid: true,
      value: "abcd",
      signature_algorithm: { name: "SHA256-RSA", oid: "1.2.840.113549.1.1.11" },
    },
    subject_key_info: { fingerprint_sha256: FP2, key_algorithm: { name: "RSA" } },
    extensions: {
      basic_constraints: { is_ca: false },
      signed_certificate_timestamps: [
        {
          version: 0,
          log_id: "AAAA",
          timestamp: "2026-01-01T00:00:10.000Z",
          signature: { signature: "BAMA" },
        },
      ],
    },
    redacted: false,
  },
  ct: {
    google_argon: {
      added_to_ct_at: "2026-01-01T00:00:00Z",
      ct_to_censys_at: "2026-01-01T00:00:01Z",
      index: 7,
    },
  },
  zlint: {
    errors_present: false,
    fatals_present: false,
    notices_present: false,
    warnings_present: false,
    lints: {},
    version: 3,
  },
});

describe("legacyCertificate", () => {
  it("renames a Platform certificate into the v1 document, raw DER from its PEM", () => {
    const doc = legacyCertificate(platformCertificate(), PEM);
    certificateDocumentSchema.omit({ validation: true, metadata: true }).parse(doc);
    expect(doc.raw).toBe("MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaAAAA");
    expect(doc.parsed).toMatchObject({
      fingerprint_sha256: FP,
      tbs_fingerprint: FP2,
      tbs_noct_fingerprint: FP2,
      spki_subject_fingerprint: FP2,
      validation_level: "DV",
      names: ["example.com"],
      validity: { start: "2026-01-01T00:00:00Z", end: "2027-01-01T00:00:00Z", length: 31536000 },
      signature_algorithm: { name: "SHA256-RSA" },
    });
    expect(doc.parsed.extensions?.signed_certificate_timestamps).toEqual([
      { version: 0, log_id: "AAAA", timestamp: 1767225610, signature: "BAMA" },
    ]);
    expect(doc.validation).toEqual({
      nss: {
        valid: true,
        was_valid: true,
        trusted_path: true,
        had_trusted_path: true,
        in_revocation_set: false,
        parents: [FP2],
        type: "leaf",
      },
      google_ct_primary: {
        valid: false,
        was_valid: false,
        trusted_path: false,
        had_trusted_path: false,
        in_revocation_set: false,
        parents: [],
        type: "leaf",
      },
    });
    expect(doc["validation.nss.valid"]).toBe(true);
    expect(doc.metadata).toEqual({
      added_at: "2026-01-01T00:00:00Z",
      updated_at: "2026-02-01T00:00:00Z",
      parse_status: "success",
      seen_in_scan: true,
      source: "scan",
    });
    expect(doc.parent_spki_subject_fingerprint).toBe(FP2);
  });

  it("leaves raw out without a PEM, and spells an unknown level as v1 does", () => {
    const doc = legacyCertificate({ ...platformCertificate(), validation_level: "" }, undefined);
    expect(doc).not.toHaveProperty("raw");
    expect(doc.parsed.validation_level).toBe("unknown");
    expect(derFromPem("not a certificate")).toBeUndefined();
  });
});

describe("projectLegacyFields", () => {
  const doc = {
    parsed: { subject_dn: "CN=x", names: ["a", "b"] },
    "validation.nss.valid": true,
    services: [{ port: 22 }, { port: 80 }],
  };

  it("picks dotted fields flattened or nested, through lists, leaving out what is missing", () => {
    expect(
      projectLegacyFields(doc, ["parsed.subject_dn", "validation.nss.valid", "nope.field"], true),
    ).toEqual({
      "parsed.subject_dn": "CN=x",
      "validation.nss.valid": true,
    });
    expect(projectLegacyFields(doc, ["parsed.subject_dn", "parsed.names", "services.port"], false)).toEqual({
      parsed: { subject_dn: "CN=x", names: ["a", "b"] },
      services: [{ port: 22 }, { port: 80 }],
    });
  });
});
