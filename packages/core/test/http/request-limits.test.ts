import { describe, expect, it } from "vitest";
import { CURSOR_MAX_CHARS, REQUEST_TARGET_MAX_CHARS, SEARCH_QUERY_MAX_CHARS } from "../../src/index";
import { requestLimitProblem } from "../../src/http/index";

const BASE = "http://edge.test";

describe("requestLimitProblem", () => {
  it("accepts a request target of exactly the limit and refuses one character more", () => {
    const prefix = "/api/v1/account?pad=";
    const at = BASE + prefix + "a".repeat(REQUEST_TARGET_MAX_CHARS - prefix.length);
    expect(requestLimitProblem(at)).toBeUndefined();
    expect(requestLimitProblem(`${at}a`)).toBe(`request URL exceeds ${REQUEST_TARGET_MAX_CHARS} characters`);
  });

  for (const [name, max] of [
    ["q", SEARCH_QUERY_MAX_CHARS],
    ["cursor", CURSOR_MAX_CHARS],
  ] as const) {
    it(`accepts a ${name} of ${max} characters and refuses ${max + 1}, in any of its repeats`, () => {
      expect(requestLimitProblem(`${BASE}/api/v2/hosts/search?${name}=${"a".repeat(max)}`)).toBeUndefined();
      expect(
        requestLimitProblem(`${BASE}/api/v2/hosts/search?${name}=x&${name}=${"a".repeat(max + 1)}`),
      ).toBe(`${name} exceeds ${max} characters`);
    });
  }

  it("counts a parameter decoded, as the routes read it", () => {
    // 4,500 characters as sent, 1,500 decoded.
    expect(requestLimitProblem(`${BASE}/s?q=${"%41".repeat(1_500)}`)).toBeUndefined();
  });

  it("leaves other parameters to their routes", () => {
    expect(requestLimitProblem(`${BASE}/s?fields=${"a".repeat(5000)}`)).toBeUndefined();
  });
});
