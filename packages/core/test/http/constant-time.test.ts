import { describe, expect, it } from "vitest";
import { bytesEqual, secretsEqual } from "../../src/http";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("secretsEqual", () => {
  it("compares strings of any length", async () => {
    expect(await secretsEqual("sgs_abc", "sgs_abc")).toBe(true);
    expect(await secretsEqual("sgs_abc", "sgs_abd")).toBe(false);
    expect(await secretsEqual("sgs_abc", "sgs_ab")).toBe(false);
    expect(await secretsEqual("", "x")).toBe(false);
  });
});

describe("bytesEqual", () => {
  it("compares byte strings", () => {
    expect(bytesEqual(bytes("mac-1"), bytes("mac-1"))).toBe(true);
    expect(bytesEqual(bytes("mac-1"), bytes("mac-2"))).toBe(false);
    expect(bytesEqual(bytes("mac-1"), bytes("mac-10"))).toBe(false);
    expect(bytesEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true);
  });
});
