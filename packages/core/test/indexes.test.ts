import { describe, expect, it } from "vitest";
import {
  INDEX_ID_KINDS,
  V1_INDEXES,
  documentIdSchema,
  domainSchema,
  indexParamsSchema,
  ipAddressSchema,
  ipv4Schema,
  normalizeDocumentId,
  sha256FingerprintSchema,
  v1IndexSchema,
} from "../src/index";
import { FP, FP_UPPER, PROTOTYPE_NAMES } from "./fixtures";
import { accepts, rejects } from "./schema-assertions";

describe("v1 indexes", () => {
  it("has exactly ipv4, websites and certificates, each with an id kind", () => {
    expect(V1_INDEXES).toEqual(["ipv4", "websites", "certificates"]);
    expect(Object.keys(INDEX_ID_KINDS)).toEqual([...V1_INDEXES]);
    expect(INDEX_ID_KINDS.certificates).toBe("sha256 fingerprint");
  });

  it("refuses an index outside the three", () => {
    rejects(v1IndexSchema, "hosts");
    rejects(indexParamsSchema, { index: "IPV4" });
    accepts(indexParamsSchema, { index: "websites" });
  });

  it.each(PROTOTYPE_NAMES)("refuses the inherited name %s as an index", (name) => {
    rejects(v1IndexSchema, name);
    rejects(indexParamsSchema, { index: name }, ["index"]);
  });
});

describe("ipv4Schema", () => {
  it.each(["0.0.0.0", "8.8.8.8", "255.255.255.255", "93.184.216.34"])("accepts %s", (ip) => {
    accepts(ipv4Schema, ip);
  });
  it.each(["256.1.1.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.04", "a.b.c.d", " 1.2.3.4", "::1", ""])(
    "refuses %j",
    (ip) => rejects(ipv4Schema, ip),
  );
});

describe("ipAddressSchema", () => {
  it.each(["1.2.3.4", "::1", "2001:db8::1", "2001:DB8::1", "::ffff:1.2.3.4"])("accepts %s", (ip) => {
    accepts(ipAddressSchema, ip);
  });
  it.each(["1.2.3.256", "1::2::3", "example.com", "", "2001:db8::g"])("refuses %j", (ip) =>
    rejects(ipAddressSchema, ip),
  );
});

describe("domainSchema", () => {
  it.each([
    "example.com",
    "WWW.Example.COM",
    "a-b.c-d.io",
    "xn--bcher-kva.example",
    "localhost",
    "1password.com",
  ])("accepts %s", (domain) => {
    accepts(domainSchema, domain);
  });
  it.each([
    "",
    "-a.com",
    "a-.com",
    "a..com",
    ".com",
    "a.com.",
    "under_score.com",
    "1.2.3.4",
    "*.example.com",
  ])("refuses %j", (domain) => rejects(domainSchema, domain));
  it("refuses a label over 63 characters and a name over 253", () => {
    rejects(domainSchema, `${"a".repeat(64)}.com`);
    accepts(domainSchema, `${"a".repeat(63)}.com`);
    const long = Array.from({ length: 64 }, () => "abc").join(".");
    expect(long.length).toBe(255);
    rejects(domainSchema, long);
  });
});

describe("sha256FingerprintSchema", () => {
  it("accepts 64 hex characters in either case", () => {
    accepts(sha256FingerprintSchema, FP);
    accepts(sha256FingerprintSchema, FP_UPPER);
  });
  it("refuses non-hex, short and long fingerprints", () => {
    rejects(sha256FingerprintSchema, `${FP.slice(0, 63)}g`);
    rejects(sha256FingerprintSchema, FP.slice(0, 63));
    rejects(sha256FingerprintSchema, `${FP}0`);
  });
});

describe("documentIdSchema", () => {
  it("validates the id kind of each index", () => {
    accepts(documentIdSchema("ipv4"), "8.8.8.8");
    rejects(documentIdSchema("ipv4"), "example.com");
    accepts(documentIdSchema("websites"), "example.com");
    rejects(documentIdSchema("websites"), "8.8.8.8");
    accepts(documentIdSchema("certificates"), FP);
    rejects(documentIdSchema("certificates"), "example.com");
  });
  it("normalizes domains and fingerprints to lower case for cache keys", () => {
    expect(normalizeDocumentId("certificates", FP_UPPER)).toBe(FP);
    expect(normalizeDocumentId("websites", "Example.COM")).toBe("example.com");
    expect(normalizeDocumentId("ipv4", "8.8.8.8")).toBe("8.8.8.8");
  });
});
