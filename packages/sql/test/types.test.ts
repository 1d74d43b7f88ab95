import { describe, expect, it } from "vitest";
import { refusal, rowsOf } from "./fixture";

const T = "ipv4.20261031";

async function value(expression: string): Promise<unknown> {
  return (await rowsOf(`SELECT ${expression}`))[0]?.[0];
}

describe("comparing TIMESTAMPs with text", () => {
  it.each([
    ["'2026-10-15'", ["1.1.1.1", "8.8.8.8", "203.0.113.5"]],
    ["'2026-10-31 10:00:00'", ["203.0.113.5"]],
    ["'2026-10-31T11:00:00+02:00'", ["1.1.1.1", "203.0.113.5"]],
    ["'2026-10-31T10:00:00Z'", ["203.0.113.5"]],
  ])("reads the literal %s as a timestamp", async (literal, ips) => {
    expect((await rowsOf(`SELECT ip FROM ${T} WHERE last_updated_at > ${literal}`)).map((r) => r[0])).toEqual(
      ips,
    );
  });

  it("compares with TIMESTAMP() and BETWEEN", async () => {
    expect(
      await rowsOf(
        `SELECT ip FROM ${T} WHERE last_updated_at BETWEEN '2026-10-01' AND TIMESTAMP('2026-10-30 08:00:00')`,
      ),
    ).toEqual([["8.8.8.8"], ["10.0.0.1"]]);
  });

  it("refuses a literal that is not a timestamp", () => {
    expect(refusal(`SELECT ip FROM ${T} WHERE last_updated_at > 'yesterday'`)).toBe(
      'Could not cast literal "yesterday" to type TIMESTAMP at [1:54]',
    );
    expect(refusal(`SELECT ip FROM ${T} WHERE last_updated_at IN ('2026-13-01')`)).toBe(
      'Could not cast literal "2026-13-01" to type TIMESTAMP at [1:56]',
    );
  });
});

describe("static types", () => {
  it("refuses comparing a STRING column with a number, in BigQuery's words", () => {
    expect(refusal(`SELECT ip FROM ${T} WHERE ip = 1`)).toBe(
      "No matching signature for operator = for argument types: STRING, INT64 at [1:36]",
    );
    expect(refusal(`SELECT ip FROM ${T} WHERE autonomous_system.asn < 'x'`)).toBe(
      "No matching signature for operator < for argument types: INT64, STRING at [1:36]",
    );
    expect(refusal(`SELECT ip FROM ${T} WHERE ip IN (1, 2)`)).toBe(
      "No matching signature for operator IN for argument types: STRING, INT64 at [1:36]",
    );
    expect(refusal("SELECT 'a' + 1")).toBe(
      "No matching signature for operator + for argument types: STRING, INT64 at [1:8]",
    );
  });

  it("compares INTEGER with FLOAT", async () => {
    expect(await value("1 = 1.0")).toBe(true);
    expect(await value("2 > 1.5")).toBe(true);
  });

  it("refuses a WHERE that is not a condition", () => {
    expect(refusal(`SELECT ip FROM ${T} WHERE ip`)).toBe(
      "WHERE clause should return type BOOL, but returns STRING at [1:36]",
    );
  });
});

describe("CASE", () => {
  it("compares its operand with each WHEN, and reads conditions without one", async () => {
    expect(
      await rowsOf(
        `SELECT CASE location.country WHEN 'US' THEN 'us' WHEN 'DE' THEN 'de' ELSE 'other' END, CASE WHEN autonomous_system.asn > 10000 THEN 1 END FROM ${T} WHERE ip IN ('1.1.1.1', '10.0.0.1', '10.0.0.2', '203.0.113.5')`,
      ),
    ).toEqual([
      ["us", 1],
      ["de", null],
      ["de", null],
      ["other", null],
    ]);
  });

  it("refuses branches of incompatible types", () => {
    expect(refusal("SELECT CASE WHEN TRUE THEN 'a' ELSE 1 END")).toBe(
      "No matching signature for operator CASE for argument types: STRING, INT64 at [1:8]",
    );
  });
});

describe("NULL", () => {
  it.each([
    ["NULL AND FALSE", false],
    ["NULL AND TRUE", null],
    ["NULL OR TRUE", true],
    ["NULL OR FALSE", null],
    ["NOT NULL", null],
    ["NULL = NULL", null],
    ["1 IN (NULL, 1)", true],
    ["1 IN (NULL, 2)", null],
    ["1 NOT IN (NULL, 2)", null],
    ["NULL IS NULL", true],
    ["NOT (NULL IS NULL)", false],
    ["1 + NULL", null],
    ["CASE WHEN NULL THEN 1 ELSE 2 END", 2],
  ])("%s is %s", async (expression, expected) => {
    expect(await value(expression)).toBe(expected);
  });

  it("a row whose condition is NULL is not selected", async () => {
    expect(await rowsOf(`SELECT ip FROM ${T} WHERE location.country != 'US'`)).toEqual([
      ["10.0.0.1"],
      ["10.0.0.2"],
      ["203.0.113.5"],
    ]);
    expect(
      await rowsOf(`SELECT ip FROM ${T} WHERE NOT (location.country IS NULL) AND location.country = 'JP'`),
    ).toEqual([["203.0.113.5"]]);
  });
});

describe("ORDER BY", () => {
  it("puts NULLs first ascending and last descending", async () => {
    expect((await rowsOf(`SELECT location.country FROM ${T} ORDER BY 1`)).map((r) => r[0])).toEqual([
      null,
      "DE",
      "DE",
      "JP",
      "US",
      "US",
    ]);
    expect((await rowsOf(`SELECT location.country FROM ${T} ORDER BY 1 DESC`)).map((r) => r[0])).toEqual([
      "US",
      "US",
      "JP",
      "DE",
      "DE",
      null,
    ]);
    expect(
      (await rowsOf(`SELECT location.country FROM ${T} ORDER BY 1 NULLS LAST`)).map((r) => r[0]),
    ).toEqual(["DE", "DE", "JP", "US", "US", null]);
  });

  it("keeps the input order of equal rows (stable)", async () => {
    expect((await rowsOf(`SELECT ip FROM ${T} ORDER BY location.country DESC`)).map((r) => r[0])).toEqual([
      "1.1.1.1",
      "8.8.8.8",
      "203.0.113.5",
      "10.0.0.1",
      "10.0.0.2",
      "192.168.1.1",
    ]);
  });

  it("orders by an expression that is not selected, with OFFSET and LIMIT", async () => {
    expect(await rowsOf(`SELECT ip FROM ${T} ORDER BY autonomous_system.asn DESC LIMIT 2 OFFSET 1`)).toEqual([
      ["8.8.8.8"],
      ["1.1.1.1"],
    ]);
  });

  it("orders TIMESTAMPs in time order", async () => {
    expect(
      await rowsOf(`SELECT ip FROM ${T} WHERE last_updated_at IS NOT NULL ORDER BY last_updated_at LIMIT 2`),
    ).toEqual([["192.168.1.1"], ["10.0.0.1"]]);
  });
});
