import { describe, expect, it } from "vitest";
import {
  accountLastLoginSchema,
  accountTimestampSchema,
  httpUrlSchema,
  integerParam,
  isoTimestampSchema,
  parseRfc3339Nanos,
  rfc3339Schema,
  scanResultIdSchema,
  scanTimestampSchema,
  stringListParamSchema,
} from "../src/index";
import { accepts, rejects } from "./schema-assertions";

describe("rfc3339Schema", () => {
  it.each([
    "2024-01-02T03:04:05Z",
    "2024-01-02T03:04:05.1Z",
    "2024-01-02T03:04:05.123456789Z",
    "2024-01-02t03:04:05+05:30",
    "2024-02-29T23:59:59-08:00",
  ])("accepts %s", (value) => {
    accepts(rfc3339Schema, value);
  });
  it.each([
    "2024-01-02T03:04:05.1234567890Z",
    "2024-01-02T03:04:05",
    "2024-01-02 03:04:05Z",
    "2024-02-30T00:00:00Z",
    "2023-02-29T00:00:00Z",
    "2024-13-01T00:00:00Z",
    "2024-01-01T24:00:00Z",
    "2024-01-01T00:00:00+24:00",
    "yesterday",
  ])("refuses %j", (value) => rejects(rfc3339Schema, value));
});

describe("parseRfc3339Nanos", () => {
  it("keeps nanosecond precision in the epoch-nanos string", () => {
    expect(parseRfc3339Nanos("2024-01-02T03:04:05.123456789Z")).toEqual({
      ms: Date.UTC(2024, 0, 2, 3, 4, 5, 123),
      nanos: `${Date.UTC(2024, 0, 2, 3, 4, 5) / 1000}123456789`,
    });
  });
  it("gives equal results for one instant written with different offsets", () => {
    expect(parseRfc3339Nanos("2024-01-02T05:34:05.5+02:30")).toEqual(
      parseRfc3339Nanos("2024-01-02T03:04:05.500000000Z"),
    );
  });
  it("handles instants before 1970", () => {
    expect(parseRfc3339Nanos("1969-12-31T23:59:59.5Z")).toEqual({ ms: -500, nanos: "-500000000" });
  });
  it("returns null for a malformed timestamp", () => {
    expect(parseRfc3339Nanos("2024-01-02")).toBeNull();
  });
});

describe("other timestamp formats", () => {
  it("account timestamps are YYYY-MM-DD hh:mm:ss, last_login may carry microseconds", () => {
    accepts(accountTimestampSchema, "2024-01-02 03:04:05");
    rejects(accountTimestampSchema, "2024-01-02T03:04:05");
    rejects(accountTimestampSchema, "2024-01-02 03:04:05.123456");
    accepts(accountLastLoginSchema, "2024-01-02 03:04:05.123456");
    rejects(accountLastLoginSchema, "2024-01-02 03:04:05.1234567");
  });
  it("scan timestamps are YYYYMMDDThhmmss and result ids YYYYMMDDThhmm", () => {
    accepts(scanTimestampSchema, "20240102T030405");
    rejects(scanTimestampSchema, "20240102T0304");
    accepts(scanResultIdSchema, "20240102T0304");
    rejects(scanResultIdSchema, "2024-01-02T0304");
  });
  it("document timestamps accept ISO 8601 with or without an offset", () => {
    accepts(isoTimestampSchema, "2024-01-02T03:04:05Z");
    accepts(isoTimestampSchema, "2024-01-02 03:04:05");
    rejects(isoTimestampSchema, "Jan 2 2024");
  });
  it("URLs are absolute http(s)", () => {
    accepts(httpUrlSchema, "https://scangate.example/api/v1/data/ipv4");
    rejects(httpUrlSchema, "/api/v1/data/ipv4");
    rejects(httpUrlSchema, "ftp://scangate.example/x");
  });
});

describe("query parameters", () => {
  it("integerParam parses digit strings and refuses empty, fractional and out-of-range values", () => {
    const schema = integerParam(1, 10);
    expect(accepts(schema, "7")).toBe(7);
    expect(accepts(schema, 7)).toBe(7);
    rejects(schema, "");
    rejects(schema, "1.5");
    rejects(schema, "0");
    rejects(schema, "11");
    rejects(schema, "ten");
  });
  it("string lists accept a repeated or comma-separated parameter", () => {
    expect(accepts(stringListParamSchema, "ip")).toEqual(["ip"]);
    expect(accepts(stringListParamSchema, ["ip", "location.country, services.port"])).toEqual([
      "ip",
      "location.country",
      "services.port",
    ]);
  });
});
