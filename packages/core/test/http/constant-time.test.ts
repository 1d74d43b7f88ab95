import { describe, expect, it } from "vitest";
import { secretsEqual, textsEqual } from "../../src/http";

describe("secretsEqual", () => {
  it("compares strings of any length", async () => {
    expect(await secretsEqual("sgs_abc", "sgs_abc")).toBe(true);
    expect(await secretsEqual("sgs_abc", "sgs_abd")).toBe(false);
    expect(await secretsEqual("sgs_abc", "sgs_ab")).toBe(false);
    expect(await secretsEqual("", "x")).toBe(false);
  });
});

describe("textsEqual", () => {
  it("compares strings code unit by code unit", () => {
    expect(textsEqual("mac-1", "mac-1")).toBe(true);
    expect(textsEqual("mac-1", "mac-2")).toBe(false);
    expect(textsEqual("mac-1", "mac-10")).toBe(false);
    expect(textsEqual("", "")).toBe(true);
    // Not a byte comparison that folds code units: "é" (one unit) is not "e" plus an accent.
    expect(textsEqual("\u00e9", "e\u0301")).toBe(false);
    expect(textsEqual("\ud83d\ude00", "\ud83d\ude01")).toBe(false);
  });
});
