// Realistic sample bodies, shaped after the spec's tables. Tests copy and break them.

export const FP = "9d3b51a6b80daf76e074730f19dc01e643ca0c3127d8f48be64cf3302f6622cc";
export const FP_UPPER = FP.toUpperCase();
export const FP2 = "5e3d1bd0f1b1ad3a41c2c1bd7a0d8ee4bd60bcba39c71e64a3e1d0b2fae3c4d5";

const trustStore = {
  blacklisted: false,
  had_trusted_path: true,
  in_revocation_set: false,
  trusted_path: true,
  valid: true,
  was_valid: true,
  whitelisted: false,
  type: "leaf",
  parents: [FP2],
  paths: [[FP2, FP]],
};

export function certificateDocument() {
  return {
    raw: "MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa",
    parsed: {
      fingerprint_md5: "d41d8cd98f00b204e9800998ecf8427e",
      fingerprint_sha1: "da39a3ee5e6b4b0d3255bfef95601890afd80709",
      fingerprint_sha256: FP,
      tbs_fingerprint: FP2,
      tbs_noct_fingerprint: FP2,
      spki_subject_fingerprint: FP2,
      serial_number: "33554617",
      version: 3,
      validation_level: "DV",
      redacted: false,
      names: ["example.com", "www.example.com"],
      __expanded_names: ["example.com", "www.example.com"],
      issuer_dn: "C=US, O=Example CA, CN=Example CA R1",
      subject_dn: "CN=example.com",
      issuer: {
        common_name: ["Example CA R1"],
        country: ["US"],
        organization: ["Example CA"],
        organizational_unit: [],
      },
      subject: {
        common_name: ["example.com"],
        country: [],
        organization: [],
        organizational_unit: [],
        locality: [],
        province: [],
      },
      validity: { start: "2024-01-01T00:00:00Z", end: "2024-04-01T00:00:00Z", length: 7862400 },
      signature: {
        self_signed: false,
        valid: true,
        value: "3a5f0c",
        signature_algorithm: { name: "SHA256-RSA", oid: "1.2.840.113549.1.1.11" },
      },
      signature_algorithm: { name: "SHA256-RSA", oid: "1.2.840.113549.1.1.11" },
      subject_key_info: {
        fingerprint_sha256: FP2,
        key_algorithm: { name: "RSA", oid: "1.2.840.113549.1.1.1" },
        rsa_public_key: { exponent: 65537, length: 2048, modulus: "wLh0c2lzIGlzIGEgbW9kdWx1cw==" },
      },
      extensions: {
        authority_info_access: {
          issuer_urls: ["http://ca.example/r1.der"],
          ocsp_urls: ["http://ocsp.example"],
        },
        authority_key_id: "aabbcc",
        basic_constraints: { is_ca: false },
        certificate_policies: [
          { id: "2.23.140.1.2.1" },
          { id: "1.3.6.1.4.1.44947.1.1.1", cps: ["http://cps.example"] },
        ],
        crl_distribution_points: ["http://crl.example/r1.crl"],
        extended_key_usage: { client_auth: true, server_auth: true },
        key_usage: { digital_signature: true, key_encipherment: true, value: 5 },
        signed_certificate_timestamps: [
          {
            log_id: "b1N2rDHwMRnYmQCkURX/dxUcEdkCwQApBo2yCJo32RM=",
            signature: "BAMARzBF",
            timestamp: 1704067200,
            version: 0,
          },
        ],
        subject_alt_name: { dns_names: ["example.com", "www.example.com"] },
        subject_key_id: "ddeeff",
      },
    },
    updated_at: "2024-01-02T03:04:05Z",
    validation_timestamp: "2024-01-02T03:04:05Z",
    "validation.nss.valid": true,
    validation: { apple: trustStore, google_ct_primary: trustStore, microsoft: trustStore, nss: trustStore },
    ct: {
      google_argon_2024: {
        added_to_ct_at: "2024-01-01T00:10:00Z",
        ct_to_censys_at: "2024-01-01T01:00:00Z",
        index: 123456,
      },
    },
    metadata: {
      added_at: "2024-01-01T01:00:00Z",
      updated_at: "2024-01-02T03:04:05Z",
      parse_status: "success",
      parse_version: 1,
      post_processed: true,
      seen_in_scan: true,
      source: "ct",
    },
    parent_spki_subject_fingerprint: FP2,
    parents: [FP2],
    precert: false,
    tags: ["ct", "dv", "leaf", "trusted"],
    zlint: {
      errors_present: false,
      fatals_present: false,
      notices_present: false,
      warnings_present: false,
      lints: { e_sub_cert_aia_missing: false },
      version: 3,
    },
  };
}

export function hostService() {
  return {
    port: 443,
    transport_protocol: "TCP",
    service_name: "HTTP",
    extended_service_name: "HTTPS",
    _decoded: "http",
    truncated: false,
    source_ip: "167.94.138.120",
    perspective_id: "PERSPECTIVE_NTT",
    observed_at: "2024-01-02T03:04:05.123456789Z",
    software: [
      { uniform_resource_identifier: "cpe:2.3:a:f5:nginx:*:*:*:*:*:*:*:*", vendor: "F5", product: "nginx" },
    ],
    banner: "HTTP/1.1 200 OK\r\nServer: nginx",
    certificate: FP,
    _encoding: { banner: "DISPLAY_UTF8", certificate: "DISPLAY_HEX" },
    http: {
      request: { method: "GET", uri: "https://93.184.216.34/", headers: { User_Agent: ["Mozilla/5.0"] } },
      response: {
        protocol: "HTTP/1.1",
        status_code: 200,
        status_reason: "OK",
        body: "<html></html>",
        body_size: 13,
        headers: { Server: ["nginx"], Set_Cookie: ["<REDACTED>"] },
        html_tags: ["<title>Example</title>"],
        _encoding: { body: "DISPLAY_UTF8" },
      },
      body_hash: "sha1:c3ab8ff13720e8ad9047dd39466b3c8974e592c2",
    },
    tls: {
      version_selected: "TLSv1_3",
      cipher_selected: "TLS_AES_128_GCM_SHA256",
      certificates: {
        leaf_fp_sha_256: FP,
        chain_fps_sha_256: [FP2],
        leaf_data: {
          pubkey_algorithm: "RSA",
          pubkey_bit_size: 2048,
          subject_dn: "CN=example.com",
          issuer_dn: "C=US, O=Example CA, CN=Example CA R1",
          names: ["example.com"],
          tbs_fingerprint: FP2,
        },
      },
    },
  };
}

export function hostDocument() {
  return {
    ip: "93.184.216.34",
    last_updated_at: "2024-01-02T03:04:05.123Z",
    autonomous_system_updated_at: "2024-01-01T00:00:00Z",
    autonomous_system: {
      asn: 15133,
      bgp_prefix: "93.184.216.0/24",
      country_code: "US",
      name: "EDGECAST",
      description: "EDGECAST",
    },
    location_updated_at: "2024-01-01T00:00:00Z",
    location: {
      continent: "North America",
      country: "United States",
      country_code: "US",
      postal_code: "90001",
      registered_country: "United States",
      registered_country_code: "US",
      timezone: "America/Los_Angeles",
      coordinates: { latitude: 34.05, longitude: -118.24 },
      city: "Los Angeles",
      province: "California",
    },
    services: [
      hostService(),
      {
        port: 53,
        transport_protocol: "UDP",
        service_name: "DNS",
        extended_service_name: "DNS",
        _decoded: "dns",
        truncated: false,
        source_ip: "2602:80d:1000::1",
        perspective_id: "PERSPECTIVE_TATA",
        observed_at: "2024-01-02T03:04:05Z",
        software: [],
        banner: "",
        _encoding: {},
        dns: { server_type: "FORWARDING" },
      },
    ],
  };
}

/** Names every plain object inherits: a closed set must refuse each of them. */
export const PROTOTYPE_NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty"] as const;
