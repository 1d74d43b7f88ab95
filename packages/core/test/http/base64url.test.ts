import { describe, expect, it } from "vitest";
import { fromBase64Url, toBase64Url } from "../../src/http";

describe("base64url", () => {
  it("encodes without padding, with - and _ for + and /", () => {
    expect(toBase64Url(new Uint8Array([0xfb, 0xff]))).toBe("-_8");
    expect(toBase64Url(new Uint8Array([0xfb, 0xff, 0xbf]).buffer)).toBe("-_-_");
    expect(toBase64Url(new Uint8Array(0))).toBe("");
  });

  it("decodes what it encodes", () => {
    const bytes = crypto.getRandomValues(new Uint8Array(33));
    for (let length = 0; length <= bytes.length; length++) {
      const part = bytes.slice(0, length);
      expect(fromBase64Url(toBase64Url(part))).toEqual(part);
    }
  });

  it.each([
    ["padding", "-_8="],
    ["standard base64 characters", "+/8"],
    ["an impossible length", "abcde"],
    ["whitespace", "ab cd"],
  ])("refuses %s", (_, text) => {
    expect(fromBase64Url(text)).toBeNull();
  });
});

describe("toBase64Url of a view", () => {
  it("encodes only the bytes the view covers", () => {
    const whole = new Uint8Array([1, 2, 3, 0xfb, 0xff, 4]);
    expect(toBase64Url(whole.subarray(3, 5))).toBe("-_8");
  });
});
