import { regexToGlobs } from "../src/regex-globs";
import { describe, expect, it } from "vitest";
import { parseTimeInterval } from "../src/dates";
import { formatIpv4, parseIpv4, parseIpv4Range } from "../src/ipv4";
import { ftsString, trailingWildcardPrefix, wildcardToGlob, wildcardToLike } from "../src/patterns";

const NOW = Date.UTC(2026, 10, 22, 12, 34, 56, 789); // a Sunday
const H = 3_600_000;
const D = 24 * H;

describe("dates", () => {
  const CASES: [string, number, number][] = [
    ["2020", Date.UTC(2020, 0, 1), Date.UTC(2021, 0, 1) - 1],
    ["2020-02", Date.UTC(2020, 1, 1), Date.UTC(2020, 2, 1) - 1],
    ["2020-02-29", Date.UTC(2020, 1, 29), Date.UTC(2020, 2, 1) - 1],
    ["2020-01-01T10:00", Date.UTC(2020, 0, 1, 10), Date.UTC(2020, 0, 1, 10, 1) - 1],
    ["2020-01-01T10:00:05Z", Date.UTC(2020, 0, 1, 10, 0, 5), Date.UTC(2020, 0, 1, 10, 0, 6) - 1],
    ["2020-01-01 10:00:05", Date.UTC(2020, 0, 1, 10, 0, 5), Date.UTC(2020, 0, 1, 10, 0, 6) - 1],
    ["2020-01-01T10:00:05.5Z", Date.UTC(2020, 0, 1, 10, 0, 5, 500), Date.UTC(2020, 0, 1, 10, 0, 5, 599)],
    [
      "2020-01-01T10:00:05.123456789Z",
      Date.UTC(2020, 0, 1, 10, 0, 5, 123),
      Date.UTC(2020, 0, 1, 10, 0, 5, 123),
    ],
    ["2020-01-01T10:00:00+02:00", Date.UTC(2020, 0, 1, 8), Date.UTC(2020, 0, 1, 8, 0, 1) - 1],
    ["2020-01-01T10:00:00-0130", Date.UTC(2020, 0, 1, 11, 30), Date.UTC(2020, 0, 1, 11, 30, 1) - 1],
    ["now", NOW, NOW],
    ["NOW", NOW, NOW],
    ["now-1d", NOW - D, NOW - D],
    ["now+2h", NOW + 2 * H, NOW + 2 * H],
    ["now-2H", NOW - 2 * H, NOW - 2 * H],
    ["now-30m", NOW - 30 * 60_000, NOW - 30 * 60_000],
    ["now-10s", NOW - 10_000, NOW - 10_000],
    ["now-1w", NOW - 7 * D, NOW - 7 * D],
    ["now-1M", Date.UTC(2026, 9, 22, 12, 34, 56, 789), Date.UTC(2026, 9, 22, 12, 34, 56, 789)],
    ["now-1y", Date.UTC(2025, 10, 22, 12, 34, 56, 789), Date.UTC(2025, 10, 22, 12, 34, 56, 789)],
    ["now-1d-12h", NOW - 36 * H, NOW - 36 * H],
    ["now/d", Date.UTC(2026, 10, 22), Date.UTC(2026, 10, 23) - 1],
    ["now-1d/d", Date.UTC(2026, 10, 21), Date.UTC(2026, 10, 22) - 1],
    ["now/h", Date.UTC(2026, 10, 22, 12), Date.UTC(2026, 10, 22, 13) - 1],
    ["now/w", Date.UTC(2026, 10, 16), Date.UTC(2026, 10, 23) - 1],
    ["now/M", Date.UTC(2026, 10, 1), Date.UTC(2026, 11, 1) - 1],
    ["now/y", Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1) - 1],
    ["2020-01-31||+1M", Date.UTC(2020, 2, 2), Date.UTC(2020, 2, 2)],
    ["2020-01-15||/M", Date.UTC(2020, 0, 1), Date.UTC(2020, 1, 1) - 1],
  ];
  it.each(CASES)("%j covers [%i, %i]", (text, low, high) => {
    expect(parseTimeInterval(text, NOW)).toEqual({ low, high });
  });

  it.each([
    "2020-13-01",
    "2020-00-10",
    "2021-02-29",
    "2020-04-31",
    "2020-01-01T24:00",
    "2020-01-01T10:60",
    "2020-01-01T10:00:60",
    "2020-01-01T10:00+25:00",
    "20-01-01",
    "yesterday",
    "now-",
    "now-1",
    "now-1x",
    "now/q",
    "now/d/d",
    "2020-01-01||",
    "2020||+1d||+1d",
    "",
  ])("%j is not a date", (text) => {
    expect(parseTimeInterval(text, NOW)).toBeNull();
  });
});

describe("ipv4", () => {
  it.each([
    ["0.0.0.0", 0],
    ["1.2.3.4", 16909060],
    ["255.255.255.255", 4294967295],
    ["10.0.0.1", 167772161],
  ] as const)("%s is %i and formats back", (text, value) => {
    expect(parseIpv4(text)).toBe(value);
    expect(formatIpv4(value)).toBe(text);
  });

  it.each(["256.1.1.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.-1", "a.b.c.d", " 1.2.3.4", ""])(
    "%j is not an IPv4 address",
    (text) => {
      expect(parseIpv4(text)).toBeNull();
    },
  );

  it.each([
    ["1.2.3.4/32", 16909060, 16909060],
    ["1.2.3.4/24", 16909056, 16909311],
    ["10.0.0.0/8", 167772160, 184549375],
    ["0.0.0.0/0", 0, 4294967295],
    ["128.0.0.0/1", 2147483648, 4294967295],
  ] as const)("CIDR %s covers [%i, %i]", (text, low, high) => {
    expect(parseIpv4Range(text)).toEqual({ low, high });
  });

  it.each(["1.2.3.0/33", "1.2.3.0/", "1.2.3.0/08", "1.2.3.0/-1", "1.2.3.0/24/1"])(
    "%j is not a CIDR block",
    (text) => {
      expect(parseIpv4Range(text)).toBeNull();
    },
  );
});

describe("patterns", () => {
  it.each([
    ["abc", "abc", "abc"],
    ["a*b?c", "a%b_c", "a*b?c"],
    ["50%_off", "50\\%\\_off", "50%_off"],
    ["a\\*b\\?c\\\\", "a*b?c\\\\", "a[*]b[?]c\\"],
    ["[x]", "[x]", "[[]x]"],
  ])("wildcard %j is LIKE %j and GLOB %j", (pattern, like, glob) => {
    expect(wildcardToLike(pattern)).toBe(like);
    expect(wildcardToGlob(pattern)).toBe(glob);
  });

  it.each([
    ["ngin*", "ngin"],
    ["a\\*b*", "a*b"],
    ["*", ""],
    ["a*b*", null],
    ["a?*", null],
    ["abc", null],
    ["abc\\*", null],
  ])("trailing-wildcard prefix of %j is %j", (pattern, prefix) => {
    expect(trailingWildcardPrefix(pattern)).toBe(prefix);
  });

  it("quotes full-text terms as one FTS5 string", () => {
    expect(ftsString('say "hi" OR x')).toBe('"say ""hi"" OR x"');
  });

  it.each([
    ["abc", "abc", false, false],
    ["^abc$", "abc", true, true],
    ["a.c", "a?c", false, false],
    ["a.*c", "a*c", false, false],
    ["a.+c", "a?*c", false, false],
    ["a.{3}", "a???", false, false],
    ["a.{2,}", "a??*", false, false],
    ["[a-z]{2}x", "[a-z][a-z]x", false, false],
    ["[^0-9]", "[^0-9]", false, false],
    ["[\\d.]", "[0-9.]", false, false],
    ["\\d\\w", "[0-9][A-Za-z0-9_]", false, false],
    ["a\\.b\\*\\[", "a.b[*][[]", false, false],
    ["cost\\$$", "cost$", false, true],
  ])("regex /%s/ is GLOB %j", (source, body, start, end) => {
    expect(regexToGlobs(source)).toEqual([{ body, start, end }]);
  });

  it.each([
    ["a|b", ["a", "b"]],
    ["(ab)", ["ab"]],
    ["(?:ab)c", ["abc"]],
    ["a?", ["", "a"]],
    ["colou?r", ["colour", "color"].reverse()],
    ["a{2,3}", ["aa", "aaa"]],
    ["\\s", ["[ \t\r\n]"]],
    ["(co|llc)? ?x", ["x", " x", "cox", "co x", "llcx", "llc x"]],
    [".*?(exe|ps1)", ["*exe", "*ps1"]],
    ["<8-12>", ["[8-9]", "1[0-2]"]],
    ["<1001-9999>", ["100[1-9]", "10[1-9][0-9]", "1[1-9][0-9][0-9]", "[2-9][0-9][0-9][0-9]"]],
  ])("regex /%s/ expands to the GLOB patterns %j", (source, bodies) => {
    expect(new Set(regexToGlobs(source)?.map((pattern) => pattern.body))).toEqual(new Set(bodies));
  });

  it.each(["a+", "a*", "[a-z]+", "\\b", "a^b", "[abc", "[]", "x{2,}", "(?=a)", "(a|b){1,20}"])(
    "regex /%s/ has no GLOB form",
    (source) => {
      expect(regexToGlobs(source)).toBeNull();
    },
  );

  it("a regex that would expand past the limit has no GLOB form", () => {
    expect(regexToGlobs("(a|b|c|d)(e|f|g|h)(i|j|k|l)(m|n|o|p)(q|r|s|t)")).toBeNull();
  });
});
