import { describe, expect, it } from "vitest";
import { SQL_LIMITS } from "../src/limits";
import { refusal, rowsOf, runFailure } from "./fixture";

const T = "ipv4.20261031";

async function value(expression: string): Promise<unknown> {
  const rows = await rowsOf(`SELECT ${expression}`);
  return rows[0]?.[0];
}

describe("scalar functions", () => {
  it.each([
    ["LOWER('AbC')", "abc"],
    ["UPPER('AbC')", "ABC"],
    ["LENGTH('héllo')", 5],
    ["CONCAT('a', 'b', 'c')", "abc"],
    ["CONCAT('a', NULL)", null],
    ["'a' || 'b'", "ab"],
    ["SUBSTR('abcdef', 2, 3)", "bcd"],
    ["SUBSTRING('abcdef', -2)", "ef"],
    ["TRIM('  x  ')", "x"],
    ["LTRIM('xxay', 'x')", "ay"],
    ["RTRIM('  x  ')", "  x"],
    ["REPLACE('a.b.c', '.', '-')", "a-b-c"],
    ["STARTS_WITH('censys', 'cen')", true],
    ["ENDS_WITH('censys', 'sys')", true],
    ["STRPOS('abcabc', 'ca')", 3],
    ["INSTR('abc', 'z')", 0],
    ["LEFT('abcdef', 2)", "ab"],
    ["RIGHT('abcdef', 2)", "ef"],
    ["SPLIT('a,b,,c')", ["a", "b", "", "c"]],
    ["SPLIT('a.b', '.')", ["a", "b"]],
    ["ARRAY_LENGTH(SPLIT('a.b.c', '.'))", 3],
    ["IFNULL(NULL, 'x')", "x"],
    ["COALESCE(NULL, NULL, 3)", 3],
    ["NULLIF(1, 1)", null],
    ["IF(1 < 2, 'yes', 'no')", "yes"],
    ["ABS(-3)", 3],
    ["ROUND(2.5)", 3],
    ["ROUND(-2.5)", -3],
    ["ROUND(3.14159, 2)", 3.14],
    ["FLOOR(2.7)", 2],
    ["CEIL(2.1)", 3],
    ["CEILING(2.1)", 3],
    ["MOD(7, 3)", 1],
    ["SAFE_DIVIDE(1, 0)", null],
    ["SAFE_DIVIDE(1, 4)", 0.25],
    ["7 / 2", 3.5],
    ["REGEXP_MATCH('host-42', r'\\d+')", true],
    ["REGEXP_CONTAINS('host', r'^\\d+$')", false],
    ["REGEXP_EXTRACT('host-42', r'-(\\d+)')", "42"],
    ["REGEXP_EXTRACT('host-42', r'\\d')", "4"],
    ["REGEXP_REPLACE('a1b22', r'(\\d+)', r'<\\1>')", "a<1>b<22>"],
    ["TIMESTAMP('2026-10-31 12:00:00')", "2026-10-31T12:00:00.000Z"],
    ["TIMESTAMP('2026-10-31T14:00:00+02:00')", "2026-10-31T12:00:00.000Z"],
    ["DATE(TIMESTAMP('2026-10-31 23:59:59'))", "2026-10-31"],
    ["STRING(42)", "42"],
    ["STRING(TIMESTAMP('2026-10-31'))", "2026-10-31 00:00:00 UTC"],
    ["INTEGER('17')", 17],
    ["INTEGER('x')", null],
    ["FLOAT('2.5')", 2.5],
    ["CAST('12' AS INT64)", 12],
    ["CAST(1.5 AS INT64)", 2],
    ["CAST(1 AS FLOAT64)", 1],
    ["CAST('true' AS BOOL)", true],
    ["CAST(7 AS STRING)", "7"],
    ["CAST('2026-10-01' AS TIMESTAMP)", "2026-10-01T00:00:00.000Z"],
    ["SAFE_CAST('x' AS INT64)", null],
  ])("%s is %j", async (expression, expected) => {
    expect(await value(expression)).toEqual(expected);
  });

  it("evaluates IF, CASE and COALESCE lazily, so a guarded division never fails", async () => {
    expect(await value("IF(0 = 0, NULL, 1 / 0)")).toBeNull();
    expect(await value("CASE WHEN 1 = 1 THEN 'a' ELSE CAST(1 / 0 AS STRING) END")).toBe("a");
    expect(await value("COALESCE(1, 1 / 0)")).toBe(1);
  });

  it("CURRENT_TIMESTAMP() and NOW() are the query's start, the same for every row", async () => {
    const now = () => Date.parse("2026-10-31T12:00:00Z");
    expect(await rowsOf("SELECT CURRENT_TIMESTAMP(), NOW()", { now })).toEqual([
      ["2026-10-31T12:00:00.000Z", "2026-10-31T12:00:00.000Z"],
    ]);
  });

  it("fails the run on a division by zero and on a bad CAST", async () => {
    expect(await runFailure("SELECT 1 / 0")).toBe("division by zero");
    expect(await runFailure("SELECT MOD(1, 0)")).toBe("division by zero");
    expect(await runFailure("SELECT CAST('x' AS INT64)")).toBe("Bad int64 value: x");
    expect(await runFailure("SELECT TIMESTAMP('soon')")).toBe("Invalid timestamp: 'soon'");
  });
});

describe("the function table", () => {
  it.each(["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "frobnicate"])(
    "%s is not a function (own-key lookup)",
    (name) => {
      expect(refusal(`SELECT ${name}(ip) FROM ${T}`)).toBe(
        `Function not found: ${name.toUpperCase()} at [1:8]`,
      );
    },
  );

  it("refuses a wrong number or type of arguments", () => {
    expect(refusal("SELECT LOWER()")).toBe("No matching signature for function LOWER at [1:8]");
    expect(refusal("SELECT LOWER('a', 'b')")).toBe(
      "No matching signature for function LOWER for argument types: STRING, STRING at [1:8]",
    );
    expect(refusal("SELECT LOWER(1)")).toBe(
      "No matching signature for function LOWER for argument types: INT64 at [1:8]",
    );
    expect(refusal(`SELECT SUM(ip) FROM ${T}`)).toBe(
      "No matching signature for aggregate function SUM for argument types: STRING at [1:8]",
    );
    expect(refusal("SELECT IF(1 = 1, 'a', 2)")).toBe(
      "No matching signature for function IF for argument types: BOOL, STRING, INT64 at [1:8]",
    );
  });

  it("refuses analytic functions", () => {
    expect(refusal(`SELECT COUNT(*) OVER () FROM ${T}`)).toBe(
      "Analytic functions (OVER) are not supported at [1:8]",
    );
  });

  it("refuses unknown CAST types", () => {
    expect(refusal("SELECT CAST(1 AS DECIMAL256)")).toBe("Type not found: DECIMAL256 at [1:8]");
  });
});

describe("regular expressions (RE2)", () => {
  it("refuses a pattern that is not a literal, a pattern that does not parse, and one that is too long", () => {
    expect(refusal(`SELECT REGEXP_MATCH(ip, ip) FROM ${T}`)).toBe(
      "REGEXP_MATCH needs its regular expression as a string literal at [1:25]",
    );
    expect(refusal(`SELECT REGEXP_MATCH(ip, '(') FROM ${T}`)).toBe(
      "Cannot parse regular expression: missing closing ): `(` at [1:25]",
    );
    expect(refusal(`SELECT REGEXP_MATCH(ip, 'a(?=b)') FROM ${T}`)).toMatch(
      /^Cannot parse regular expression: invalid or unsupported Perl syntax/,
    );
    const long = "a".repeat(SQL_LIMITS.maxRegexLength + 1);
    expect(refusal(`SELECT REGEXP_MATCH(ip, '${long}') FROM ${T}`)).toBe(
      `Cannot parse regular expression: longer than ${SQL_LIMITS.maxRegexLength} characters (SQL_LIMITS.maxRegexLength) at [1:25]`,
    );
  });

  it("refuses extraction with more than one capturing group", () => {
    expect(refusal("SELECT REGEXP_EXTRACT('ab', '(a)(b)')")).toBe(
      "Regular expressions passed into extraction functions must not have more than 1 capturing group at [1:29]",
    );
  });

  it("matches a pattern that backtracking engines take exponential time on, in linear time", async () => {
    const started = Date.now();
    expect(await value(`REGEXP_MATCH('${"a".repeat(5000)}b', r'^(a+)+$')`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("LIKE and CONTAINS", () => {
  it.each([
    ["'10.0.0.1' LIKE '10.%'", true],
    ["'1.1.1.1' LIKE '1_1_1_1'", true],
    ["'1x1' LIKE '1.1'", false],
    ["'HTTP' LIKE 'http'", false],
    ["'a+b' LIKE 'a+b'", true],
    ["'100%' LIKE '100\\\\%'", true],
    ["'1000' LIKE '100\\\\%'", false],
    ["'multi\\nline' LIKE 'multi%'", true],
    ["'abc' NOT LIKE 'a%'", false],
    ["'Censys' CONTAINS 'ens'", true],
    ["'Censys' CONTAINS 'ENS'", false],
  ])("%s is %s", async (expression, expected) => {
    expect(await value(expression)).toBe(expected);
  });

  it("refuses a non-literal pattern and too many wildcards", () => {
    expect(refusal(`SELECT ip FROM ${T} WHERE ip LIKE ip`)).toBe(
      "LIKE needs its pattern as a string literal at [1:44]",
    );
    const pattern = "%".repeat(SQL_LIMITS.maxLikeWildcards + 1);
    expect(refusal(`SELECT ip FROM ${T} WHERE ip LIKE '${pattern}'`)).toBe(
      `LIKE pattern has more than ${SQL_LIMITS.maxLikeWildcards} wildcards (SQL_LIMITS.maxLikeWildcards) at [1:44]`,
    );
  });
});

describe("aggregate functions", () => {
  it("compute over the rows, skipping NULLs", async () => {
    expect(
      await rowsOf(
        `SELECT COUNT(*), COUNT(autonomous_system.asn), COUNT(DISTINCT location.country), EXACT_COUNT_DISTINCT(location.country), SUM(autonomous_system.asn), AVG(autonomous_system.asn), MIN(ip), MAX(last_updated_at), COUNTIF(location.country = 'US'), ANY_VALUE(location.city) FROM ${T}`,
      ),
    ).toEqual([[6, 5, 3, 3, 98833, 19766.6, "1.1.1.1", "2026-10-31T23:59:59.000Z", 2, "San Francisco"]]);
  });

  it("concatenate strings with GROUP_CONCAT and STRING_AGG", async () => {
    expect(
      await rowsOf(
        `SELECT GROUP_CONCAT(location.country), STRING_AGG(location.country, ' / '), STRING_AGG(DISTINCT location.country) FROM ${T}`,
      ),
    ).toEqual([["US,US,DE,DE,JP", "US / US / DE / DE / JP", "US,DE,JP"]]);
  });

  it("LOGICAL_AND and LOGICAL_OR combine booleans", async () => {
    expect(
      await rowsOf(
        `SELECT LOGICAL_AND(autonomous_system.asn > 1000), LOGICAL_OR(location.country = 'JP') FROM ${T}`,
      ),
    ).toEqual([[true, true]]);
  });

  it("accept legacy COUNT(DISTINCT x, n) and count exactly", async () => {
    expect(await rowsOf(`SELECT COUNT(DISTINCT location.country, 1) FROM ${T}`)).toEqual([[3]]);
    expect(refusal(`SELECT COUNT(location.country, 1) FROM ${T}`)).toBe(
      "No matching signature for aggregate function COUNT for argument types: STRING, INT64 at [1:8]",
    );
  });

  it("refuse an aggregate of an aggregate and an aggregate in WHERE", () => {
    expect(refusal(`SELECT SUM(COUNT(*)) FROM ${T}`)).toBe(
      "Aggregations of aggregations are not allowed at [1:12]",
    );
    expect(refusal(`SELECT ip FROM ${T} WHERE COUNT(*) > 1`)).toBe(
      "Aggregate function COUNT not allowed in WHERE clause at [1:36]",
    );
  });
});
