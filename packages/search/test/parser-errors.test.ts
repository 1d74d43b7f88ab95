import { describe, expect, it } from "vitest";
import { MAX_NESTING, MAX_QUERY_LENGTH, QueryError, parseQuery, type Dialect } from "../src/index";

function parseError(input: string, dialect: Dialect): QueryError {
  const result = parseQuery(input, dialect);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} not to parse`);
  expect(result.error).toBeInstanceOf(QueryError);
  return result.error;
}

// input, position, token, a part of the message
type ErrorCase = [string, number, string, string];

const SHARED: ErrorCase[] = [
  ["port: 22)", 8, ")", 'unexpected ")" at position 8'],
  [":", 0, ":", 'a field name is missing before ":" at position 0'],
  [" : ", 1, ":", 'a field name is missing before ":" at position 1'],
  ["a and :b", 6, ":", 'a field name is missing before ":" at position 6'],
  [")", 0, ")", 'unexpected ")" at position 0'],
  ["a )", 2, ")", 'unexpected ")" at position 2'],
  ["()", 1, ")", 'unexpected ")" at position 1'],
  ["(port: 22", 0, "(", 'unbalanced "(" at position 0'],
  ["a and (b or c", 6, "(", 'unbalanced "(" at position 6'],
  ["((a)", 0, "(", 'unbalanced "(" at position 0'],
  ["services: (port: 22", 10, "(", 'unbalanced "(" at position 10'],
  ["same_service(port: 22", 12, "(", 'unbalanced "(" at position 12'],
  ['name: "abc', 6, '"abc', "unterminated quoted phrase starting at position 6"],
  ['"abc', 0, '"abc', "unterminated quoted phrase starting at position 0"],
  ['name: "abc\\"', 6, '"abc\\"', "unterminated quoted phrase"],
  ["a and", 2, "and", 'expected a term after "and" at position 2'],
  ["a AND", 2, "AND", 'expected a term after "AND" at position 2'],
  ["a or ", 2, "or", 'expected a term after "or" at position 2'],
  ["a &&", 2, "&&", 'expected a term after "&&" at position 2'],
  ["a ||", 2, "||", 'expected a term after "||" at position 2'],
  ["not", 0, "not", 'expected a term after "not" at position 0'],
  ["a and not", 6, "not", 'expected a term after "not" at position 6'],
  ["!", 0, "!", 'expected a term after "!" at position 0'],
  ["and a", 0, "and", 'unexpected "and" at position 0'],
  ["or", 0, "or", 'unexpected "or" at position 0'],
  ["a and or b", 6, "or", 'unexpected "or" at position 6'],
  ["a || && b", 5, "&&", 'unexpected "&&" at position 5'],
  ["a - b", 2, "-", 'expected a term right after "-" at position 2'],
  ["a +", 2, "+", 'expected a term right after "+" at position 2'],
  ["port:", 5, "", 'expected a value for "port" at position 5, but the query ends'],
  ["port: ", 6, "", 'expected a value for "port" at position 6'],
  ["(port:)", 6, ")", 'expected a value for "port" at position 6, found ")"'],
  ["port: and", 6, "and", 'expected a value for "port" at position 6, found "and"'],
  ["port: or x", 6, "or", 'found "or"'],
  ["port >", 6, "", 'expected a value for "port" at position 6'],
  ["port > )", 7, ")", 'found ")"'],
  ["port > 5*", 7, "5*", "a comparison takes a single value"],
  ["port: [1 TO]", 11, "]", 'expected a range bound at position 11, found "]" (write * for an open end)'],
  ["port: [ TO 5]", 8, "TO", 'missing lower bound before "TO" at position 8'],
  ["port: [1 5]", 9, "5", 'expected "TO" in the range at position 9, found "5"'],
  ["port: [1 TO 5", 6, "[", "unterminated range starting at position 6"],
  ["port: [1 TO", 6, "[", "unterminated range starting at position 6"],
  ["port: [1", 6, "[", "unterminated range starting at position 6"],
  ["port: [1 TO 5 6]", 14, "6", 'expected "]" or "}" to close the range at position 14, found "6"'],
  ["port: [1 TO 5) ", 13, ")", 'expected "]" or "}" to close the range at position 13'],
  ["port: [a* TO 5]", 7, "a*", "a range bound cannot hold a wildcard"],
  ["port: []", 7, "]", "expected a range bound at position 7"],
  ["[1 TO 5]", 0, "[", "a range or set needs a field"],
  ["{22, 80}", 0, "{", "a range or set needs a field"],
  ["name: /abc", 6, "/abc", "unterminated regular expression starting at position 6"],
  ["name: //", 6, "//", "empty regular expression at position 6"],
  ["/abc", 0, "/abc", "unterminated regular expression"],
  ["foo~2", 3, "~", 'unsupported operator "~" at position 3'],
  ["name: foo~", 9, "~", 'unsupported operator "~" at position 9'],
  ["foo^bar", 3, "^", 'unsupported operator "^" at position 3'],
  ["name: abc\\", 9, "\\", 'nothing to escape after "\\" at position 9'],
  ["a..b: x", 0, "a..b", 'invalid field name "a..b" at position 0'],
  [".a: x", 0, ".a", 'invalid field name ".a"'],
  ['_exists_: "a b"', 10, '"a b"', "_exists_ takes a field name"],
  ["a ] b", 2, "]", 'unexpected "]" at position 2'],
  ["a } b", 2, "}", 'unexpected "}" at position 2'],
  ["a , b", 2, ",", 'unexpected "," at position 2'],
];

describe("parseQuery: malformed queries in either dialect", () => {
  for (const dialect of ["v1", "v2"] as const) {
    it.each(SHARED)(`${dialect}: %j fails at position %i on %j`, (input, position, token, message) => {
      const error = parseError(input, dialect);
      expect(error.position).toBe(position);
      expect(error.token).toBe(token);
      expect(error.message).toContain(message);
    });
  }
});

describe("parseQuery: dialect-specific errors", () => {
  const V1_ONLY: ErrorCase[] = [
    ["name = x", 5, "=", '"=" (exact match) is v2 syntax at position 5'],
    ["port: {22, 80}", 9, ",", "sets like {22, 80} are v2 syntax, at position 9"],
    ["port: {22}", 9, "}", 'expected "TO" in the range at position 9, found "}"'],
  ];
  it.each(V1_ONLY)("v1: %j fails at position %i on %j", (input, position, token, message) => {
    const error = parseError(input, "v1");
    expect(error.position).toBe(position);
    expect(error.token).toBe(token);
    expect(error.message).toContain(message);
  });

  const V2_ONLY: ErrorCase[] = [
    ["name: `abc", 6, "`abc", "unterminated backtick value starting at position 6"],
    ["name: 'abc", 6, "'abc", "unterminated quoted value starting at position 6"],
    ["foo^2", 3, "^", 'unsupported operator "^" at position 3'],
    ["port: {22, }", 11, "}", 'expected a value at position 11, found "}"'],
    ["port: {22,,80}", 10, ",", 'expected a value at position 10, found ","'],
    ["port: {22, 80", 6, "{", 'unterminated set starting at position 6: missing "}"'],
    ["port: {22 80}", 10, "80", 'expected "TO" in the range at position 10'],
    ["port: {*}", 7, "*", 'a set holds values, not "*"'],
    ["port = (22)", 7, "(", 'expected a value for "port" at position 7, found "("'],
  ];
  it.each(V2_ONLY)("v2: %j fails at position %i on %j", (input, position, token, message) => {
    const error = parseError(input, "v2");
    expect(error.position).toBe(position);
    expect(error.token).toBe(token);
    expect(error.message).toContain(message);
  });
});

describe("parseQuery: size limits", () => {
  it(`refuses queries longer than ${MAX_QUERY_LENGTH} characters`, () => {
    const error = parseError("a ".repeat(MAX_QUERY_LENGTH), "v2");
    expect(error.position).toBe(MAX_QUERY_LENGTH);
    expect(error.message).toContain("query is too long");
  });

  it(`accepts ${MAX_NESTING} levels of parentheses and refuses one more at the extra "("`, () => {
    expect(parseQuery(`${"(".repeat(MAX_NESTING)}a${")".repeat(MAX_NESTING)}`, "v2").ok).toBe(true);
    const error = parseError(`${"(".repeat(MAX_NESTING + 1)}a${")".repeat(MAX_NESTING + 1)}`, "v2");
    expect(error.position).toBe(MAX_NESTING);
    expect(error.token).toBe("(");
    expect(error.message).toContain("query nests too deeply");
  });

  it("counts negations toward the nesting limit", () => {
    const error = parseError(`${"not ".repeat(MAX_NESTING + 1)}a`, "v1");
    expect(error.position).toBe(MAX_NESTING * 4);
    expect(error.token).toBe("not");
  });
});

describe("a colon without a field", () => {
  it("is searched for as text when quoted, in both dialects", () => {
    for (const dialect of ["v1", "v2"] as const) {
      expect(parseQuery('":"', dialect)).toMatchObject({ ok: true, value: { type: "text" } });
    }
  });
});
