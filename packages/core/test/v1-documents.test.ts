import { describe, expect, it } from "vitest";
import {
  certificateDocumentSchema,
  ipv4DocumentSchema,
  v1DocumentSchema,
  viewParamsSchema,
  websiteDocumentSchema,
} from "../src/index";
import { FP, certificateDocument } from "./fixtures";
import { accepts, rejects } from "./schema-assertions";

describe("certificate document", () => {
  it("accepts every field of the spec and keeps fields it does not list", () => {
    const doc = accepts(certificateDocumentSchema, { ...certificateDocument(), future_field: { a: 1 } });
    expect(doc.future_field).toEqual({ a: 1 });
    expect(doc.parsed.extensions?.basic_constraints?.is_ca).toBe(false);
  });

  it("accepts an older document with only raw and the core parsed fields", () => {
    const { parsed } = certificateDocument();
    const { extensions: _e, tbs_noct_fingerprint: _t, __expanded_names: _n, ...core } = parsed;
    accepts(certificateDocumentSchema, { raw: certificateDocument().raw, parsed: core });
  });

  it("accepts an ECDSA key in place of RSA", () => {
    const doc = certificateDocument();
    const { rsa_public_key: _rsa, ...keyInfo } = doc.parsed.subject_key_info;
    accepts(certificateDocumentSchema, {
      ...doc,
      parsed: {
        ...doc.parsed,
        subject_key_info: { ...keyInfo, ecdsa_public_key: { curve: "P-256", length: 256 } },
      },
    });
  });

  it("refuses a missing parsed, a non-hex fingerprint and non-base64 raw", () => {
    const { parsed: _p, ...noParsed } = certificateDocument();
    rejects(certificateDocumentSchema, noParsed, ["parsed"]);
    const doc = certificateDocument();
    rejects(
      certificateDocumentSchema,
      { ...doc, parsed: { ...doc.parsed, fingerprint_sha256: "x".repeat(64) } },
      ["parsed", "fingerprint_sha256"],
    );
    rejects(certificateDocumentSchema, { ...doc, raw: "not base64!" }, ["raw"]);
  });

  it("refuses wrong types in validation, zlint, ct and validity", () => {
    const doc = certificateDocument();
    rejects(
      certificateDocumentSchema,
      { ...doc, validation: { nss: { ...doc.validation.nss, valid: "yes" } } },
      ["validation", "nss", "valid"],
    );
    rejects(certificateDocumentSchema, { ...doc, zlint: { ...doc.zlint, lints: { e_x: "fail" } } });
    rejects(certificateDocumentSchema, {
      ...doc,
      ct: { log: { added_to_ct_at: "yesterday", ct_to_censys_at: "x", index: 1 } },
    });
    rejects(
      certificateDocumentSchema,
      {
        ...doc,
        parsed: { ...doc.parsed, validity: { start: "2024-01-01T00:00:00Z", end: "2024-04-01T00:00:00Z" } },
      },
      ["parsed", "validity", "length"],
    );
  });
});

describe("ipv4 and website documents", () => {
  it("ipv4 documents carry ip and <port>/<protocol> protocols and keep other fields", () => {
    accepts(ipv4DocumentSchema, {
      ip: "8.8.8.8",
      protocols: ["53/dns", "443/https"],
      location: { country: "United States", latitude: 37.75, longitude: -97.82 },
      autonomous_system: { asn: 15169, name: "GOOGLE" },
      updated_at: "2024-01-02T03:04:05Z",
      "443": { https: { tls: {} } },
    });
    rejects(ipv4DocumentSchema, { ip: "8.8.8.8", protocols: ["https"] }, ["protocols", 0]);
    rejects(ipv4DocumentSchema, { ip: "8.8.8.256", protocols: [] }, ["ip"]);
  });

  it("website documents carry a domain", () => {
    accepts(websiteDocumentSchema, { domain: "example.com", alexa_rank: 3, protocols: ["443/https"] });
    rejects(websiteDocumentSchema, { alexa_rank: 3 }, ["domain"]);
  });

  it("v1DocumentSchema picks the schema of the index", () => {
    accepts(v1DocumentSchema("certificates"), certificateDocument());
    rejects(v1DocumentSchema("ipv4"), certificateDocument());
  });
});

describe("view parameters", () => {
  it("check the id against its index's id kind", () => {
    accepts(viewParamsSchema, { index: "ipv4", id: "8.8.8.8" });
    accepts(viewParamsSchema, { index: "certificates", id: FP });
    accepts(viewParamsSchema, { index: "websites", id: "example.com" });
    rejects(viewParamsSchema, { index: "ipv4", id: FP }, ["id"]);
    rejects(viewParamsSchema, { index: "certificates", id: "8.8.8.8" }, ["id"]);
    rejects(viewParamsSchema, { index: "hosts", id: "8.8.8.8" }, ["index"]);
  });
});
