import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { estimateRegexProgram } from "../src/regex-size";

describe("a pattern's program size, estimated from its text", () => {
  it.each([
    "(?is).{0,999}#",
    "(?is).{0,999}.{0,999}#",
    "(?i)wordpress",
    "<title>(.*)</title>",
    String.raw`\.1\d$`,
    "(?i)welcome|login",
    "^(1|11|111)*(2|22)*$",
    "[a-z]{1,1000}#",
    "(?:a{0,30}){0,30}#",
    String.raw`^SSH-2\.0-([A-Za-z]+)`,
    "",
    "a{5,}",
    "a{2,5}?",
    String.raw`\Qa.b\E+`,
    "(?P<x>ab)|c",
    "[[:alpha:]]+",
    String.raw`\p{Greek}+\pL`,
    String.raw`\x{41}\x41`,
    "[]a][^]a]b",
    "(((a)))",
    String.raw`[\d\s]{3,7}`,
    String.raw`\pN{1,100}`,
  ])("%j is at least the compiled size and at most twice it", (pattern) => {
    const compiled = RE2JS.compile(pattern).programSize();
    const estimate = estimateRegexProgram(pattern);
    expect(estimate).toBeGreaterThanOrEqual(compiled);
    expect(estimate).toBeLessThanOrEqual(2 * compiled + 10);
  });

  it("multiplies counted repetitions without expanding them", () => {
    expect(estimateRegexProgram(`(?is)${".{0,999}".repeat(120)}#`)).toBe(120 * 1998 + 3);
    expect(estimateRegexProgram("(x{1000}){1000}")).toBe(1_002_002);
  });

  it("measures malformed text without failing (compiling reports the error)", () => {
    for (const text of ["(", ")", "[", "\\", "a{", "a{1,", "(?", "(?P<", "\\Q", "\\x{", "\\p{"])
      expect(estimateRegexProgram(text)).toBeGreaterThan(0);
  });
});
