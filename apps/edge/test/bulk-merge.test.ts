import { describe, expect, it } from "vitest";
import { mergeBulk, splitBulkAnswer, UNKNOWN_CERTIFICATE_ENTRY } from "../src/cache/bulk-merge";

describe("bulk merge", () => {
  it("keeps every requested spelling once, in order, and fills missing entries as unknown", async () => {
    const entries = new Map([["aa", '{"n":1}']]);
    expect(await mergeBulk(["AA", "bb", "AA", "aa"], entries).text()).toBe(
      `{"AA":{"n":1},"bb":${JSON.stringify(UNKNOWN_CERTIFICATE_ENTRY)},"aa":{"n":1}}`,
    );
    // Keys other than ASCII keep their characters too.
    expect(await mergeBulk(["é", "aa"], entries).text()).toBe(
      `{"é":${JSON.stringify(UNKNOWN_CERTIFICATE_ENTRY)},"aa":{"n":1}}`,
    );
  });

  it("splits an upstream answer into known, unknown and absent entries", () => {
    const split = splitBulkAnswer(["a", "b", "c"], {
      a: { parsed: {} },
      b: { error: "x", error_type: "unknown", status: "error" },
    });
    expect(split.get("a")).toEqual({ text: '{"parsed":{}}', unknown: false, present: true });
    expect(split.get("b")?.unknown).toBe(true);
    expect(split.get("c")).toMatchObject({ unknown: true, present: false });
  });
});
