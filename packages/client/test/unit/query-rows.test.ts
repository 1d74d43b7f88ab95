import type { SchemaField } from "@scangate/core";
import { describe, expect, it } from "vitest";
import { typeCell, typeRow } from "../../src/query-rows";

describe("typeRow", () => {
  it("names each cell by its schema field and converts it by the field type", () => {
    const fields: SchemaField[] = [
      { name: "ip", type: "STRING", mode: "REQUIRED" },
      { name: "port", type: "INTEGER", mode: "NULLABLE" },
      { name: "ratio", type: "FLOAT", mode: "NULLABLE" },
      { name: "trusted", type: "BOOLEAN", mode: "NULLABLE" },
      { name: "seen", type: "TIMESTAMP", mode: "NULLABLE" },
      { name: "missing", type: "STRING", mode: "NULLABLE" },
    ];
    const row = {
      f: [
        { v: "10.0.0.1" },
        { v: "443" },
        { v: "0.25" },
        { v: "true" },
        { v: "2026-01-02 03:04:05 UTC" },
        { v: null },
      ],
    };
    expect(typeRow(fields, row)).toEqual({
      ip: "10.0.0.1",
      port: 443,
      ratio: 0.25,
      trusted: true,
      seen: new Date("2026-01-02T03:04:05Z"),
      missing: null,
    });
  });
});

describe("typeCell", () => {
  it("keeps integers beyond 2^53 exact as bigint", () => {
    expect(typeCell("INTEGER", "NULLABLE", "9007199254740993")).toBe(9007199254740993n);
  });
  it("reads BigQuery-style epoch-second timestamps and ISO 8601", () => {
    expect(typeCell("TIMESTAMP", "NULLABLE", "1.7E9")).toEqual(new Date(1_700_000_000_000));
    expect(typeCell("TIMESTAMP", "NULLABLE", "2026-01-02T03:04:05.5+01:00")).toEqual(
      new Date("2026-01-02T02:04:05.500Z"),
    );
  });
  it("reads booleans spelled as words or digits", () => {
    expect(typeCell("BOOLEAN", "NULLABLE", "FALSE")).toBe(false);
    expect(typeCell("BOOLEAN", "NULLABLE", "1")).toBe(true);
  });
  it("types each item of a REPEATED field sent as a JSON array", () => {
    expect(typeCell("INTEGER", "REPEATED", '[22, "80", null]')).toEqual([22, 80, null]);
  });
  it("keeps a value that does not read as its type as the original string", () => {
    expect(typeCell("INTEGER", "NULLABLE", "12abc")).toBe("12abc");
    expect(typeCell("FLOAT", "NULLABLE", "")).toBe("");
    expect(typeCell("BOOLEAN", "NULLABLE", "maybe")).toBe("maybe");
    expect(typeCell("TIMESTAMP", "NULLABLE", "yesterday")).toBe("yesterday");
  });
});
