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
    // Text beyond ASCII: a precomposed "é" is not "e" and a combining accent, nor one emoji another.
    expect(textsEqual("\u00e9", "e\u0301")).toBe(false);
    expect(textsEqual("\ud83d\ude00", "\ud83d\ude01")).toBe(false);
  });
});
