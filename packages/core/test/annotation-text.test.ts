import { describe, expect, it } from "vitest";
import {
  annotatedDocumentId,
  COMMENT_CONTROL_CHARACTERS,
  commentWriteSchema,
  controlCharacterIn,
  tagWriteSchema,
} from "../src/index";
import { canonicalIpAddress } from "../src/ip-address";

// What the tag and comment schemas accept: lengths in characters, no control characters, and
// one stored spelling per host.

const emoji = "\ud83d\ude00";

describe("controlCharacterIn", () => {
  it("names the first C0, DEL or C1 character as U+XXXX", () => {
    const cases: Array<[string, string]> = [
      ["hunt-\u0000", "U+0000"],
      ["a\tb", "U+0009"],
      ["\u001b[31m", "U+001B"],
      ["x\u007f", "U+007F"],
      ["x\u0080", "U+0080"],
      ["x\u009f\u0000", "U+009F"],
    ];
    for (const [text, code] of cases) expect(controlCharacterIn(text), JSON.stringify(text)).toBe(code);
  });
  it("is null for text without one, at the edges of the ranges too", () => {
    for (const text of ["", "plain", " ~", "\u00a0", "\u00e9", emoji, "\u2028", "\ufffd"]) {
      expect(controlCharacterIn(text), JSON.stringify(text)).toBeNull();
    }
  });
  it("skips the allowed ones: a comment's tab, LF and CR, not VT, FF or NEL", () => {
    expect(controlCharacterIn("a\tb\r\nc\n", COMMENT_CONTROL_CHARACTERS)).toBeNull();
    expect(controlCharacterIn("a\tb\u000bc", COMMENT_CONTROL_CHARACTERS)).toBe("U+000B");
    expect(controlCharacterIn("a\u000c", COMMENT_CONTROL_CHARACTERS)).toBe("U+000C");
    expect(controlCharacterIn("a\u0085", COMMENT_CONTROL_CHARACTERS)).toBe("U+0085");
  });
});

describe("tag names and comments count characters (code points)", () => {
  it("a tag name is at most 64 characters, emoji counted as one", () => {
    expect(tagWriteSchema.safeParse({ name: emoji.repeat(64) }).success).toBe(true);
    expect(tagWriteSchema.safeParse({ name: emoji.repeat(65) }).error?.issues[0]?.message).toBe(
      "name must be at most 64 characters",
    );
  });
  it("a comment is at most 4,096 characters, emoji counted as one", () => {
    expect(commentWriteSchema.safeParse({ contents: emoji.repeat(2049) }).success).toBe(true);
    expect(commentWriteSchema.safeParse({ contents: emoji.repeat(4096) }).success).toBe(true);
    expect(commentWriteSchema.safeParse({ contents: emoji.repeat(4097) }).error?.issues[0]?.message).toBe(
      "contents must be at most 4096 characters",
    );
    expect(commentWriteSchema.safeParse({ contents: "x".repeat(4097) }).success).toBe(false);
  });
});

describe("tag names and comments hold no control characters", () => {
  it("a tag name with one is refused, naming it", () => {
    const parsed = tagWriteSchema.safeParse({ name: "hunt-\u0000" });
    expect(parsed.error?.issues[0]?.message).toBe("name must not hold control characters (U+0000)");
    expect(tagWriteSchema.safeParse({ name: "a\tb" }).success).toBe(false);
    // Whitespace around the name is trimmed before the check.
    expect(tagWriteSchema.safeParse({ name: "\thunt\n" }).data?.name).toBe("hunt");
  });
  it("a comment keeps tab and line breaks and refuses the rest", () => {
    expect(commentWriteSchema.safeParse({ contents: "a\r\n\tb\n" }).data?.contents).toBe("a\r\n\tb\n");
    expect(commentWriteSchema.safeParse({ contents: "a\u0007" }).error?.issues[0]?.message).toBe(
      "contents must not hold control characters other than tab and line breaks (U+0007)",
    );
  });
});

describe("canonicalIpAddress (RFC 5952)", () => {
  const cases: Array<[string, string]> = [
    ["2001:DB8::1", "2001:db8::1"],
    ["2001:0db8:0:0:0:0:0:1", "2001:db8::1"],
    ["2001:0DB8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    // The longest run of zeros; the first of equal runs; never one zero group alone.
    ["2001:0:0:1:0:0:0:1", "2001:0:0:1::1"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"],
    ["0:0:0:0:0:0:0:0", "::"],
    ["0:0:0:0:0:0:0:1", "::1"],
    ["1:0:0:0:0:0:0:0", "1::"],
    // IPv4-mapped, however written; other embedded IPv4 in hex.
    ["::FFFF:192.0.2.1", "::ffff:192.0.2.1"],
    ["::ffff:c000:0201", "::ffff:192.0.2.1"],
    ["0:0:0:0:0:ffff:0:0", "::ffff:0.0.0.0"],
    ["::ffff:1", "::ffff:1"],
    ["::1.2.3.4", "::102:304"],
    ["64:ff9b::192.0.2.1", "64:ff9b::c000:201"],
    // IPv4 as it is.
    ["192.0.2.1", "192.0.2.1"],
  ];
  for (const [spelled, canonical] of cases) {
    it(`${spelled} → ${canonical}`, () => {
      expect(canonicalIpAddress(spelled)).toBe(canonical);
      expect(canonicalIpAddress(canonical)).toBe(canonical);
    });
  }

  it("is how annotations name a host; a fingerprint is lowercased", () => {
    expect(annotatedDocumentId("hosts", "2001:0DB8::0:1")).toBe("2001:db8::1");
    expect(annotatedDocumentId("hosts", "192.0.2.1")).toBe("192.0.2.1");
    expect(annotatedDocumentId("certificates", "AB".repeat(32))).toBe("ab".repeat(32));
    expect(() => annotatedDocumentId("hosts", "2001:db8::1::2")).toThrow(/Invalid IP address/);
  });
});
