import { describe, expect, it } from "vitest";
import { refusal, rowsOf, run, runFailure } from "./fixture";

const T = "ipv4.20261031";
const C = "certificates.20261031";

describe("subqueries", () => {
  it("IN (SELECT ...) and NOT IN test membership", async () => {
    expect(
      await rowsOf(`SELECT ip FROM ${T} WHERE ip IN (SELECT ip FROM ${T} WHERE protocols = '22/ssh')`),
    ).toEqual([["10.0.0.1"], ["192.168.1.1"]]);
    expect(
      await rowsOf(
        `SELECT ip FROM ${T} WHERE location.country NOT IN (SELECT location.country FROM ${T} WHERE ip LIKE '10.%')`,
      ),
    ).toEqual([["1.1.1.1"], ["8.8.8.8"], ["203.0.113.5"]]);
  });

  it("a scalar subquery gives its one value, NULL when empty", async () => {
    expect(
      await rowsOf(
        `SELECT ip FROM ${T} WHERE autonomous_system.asn = (SELECT MAX(autonomous_system.asn) FROM ${T})`,
      ),
    ).toEqual([["192.168.1.1"]]);
    expect(await rowsOf(`SELECT (SELECT ip FROM ${T} WHERE ip = 'none')`)).toEqual([[null]]);
  });

  it("a scalar subquery with more than one row fails the run", async () => {
    expect(await runFailure(`SELECT (SELECT ip FROM ${T})`)).toBe(
      "Scalar subquery produced more than one element",
    );
  });

  it("EXISTS is true when the subquery has a row", async () => {
    expect(
      await rowsOf(
        `SELECT COUNT(*) FROM ${T} WHERE EXISTS (SELECT 1 FROM ${C} WHERE validation.nss.valid = FALSE)`,
      ),
    ).toEqual([[6]]);
    expect(await rowsOf(`SELECT COUNT(*) FROM ${T} WHERE NOT EXISTS (SELECT 1 FROM ${C})`)).toEqual([[0]]);
  });

  it("runs each subquery once, before the main scan", async () => {
    const answer = await run(
      `SELECT ip FROM ${T} WHERE ip IN (SELECT ip FROM ${T} WHERE location.country = 'US')`,
    );
    expect(answer.rows).toEqual([["1.1.1.1"], ["8.8.8.8"]]);
    expect(answer.source.requests).toHaveLength(2);
  });

  it("refuses a correlated reference at its position", () => {
    expect(
      refusal(`SELECT ip FROM ${T} WHERE EXISTS (SELECT 1 FROM ${C} WHERE fingerprint_sha256 = ip)`),
    ).toBe("correlated subqueries are not supported at [1:107]");
  });

  it("refuses an IN subquery of more than one column", () => {
    expect(refusal(`SELECT ip FROM ${T} WHERE ip IN (SELECT ip, ip FROM ${T})`)).toBe(
      "IN subquery has 2 columns; it must have one at [1:36]",
    );
  });

  it("reads a derived table in FROM", async () => {
    const answer = await run(
      `SELECT d.c, d.n FROM (SELECT location.country AS c, COUNT(*) AS n FROM ${T} GROUP BY c) AS d WHERE d.n > 1 ORDER BY c`,
    );
    expect(answer.columns.map((c) => c.name)).toEqual(["c", "n"]);
    expect(answer.rows).toEqual([
      ["DE", 2],
      ["US", 2],
    ]);
  });

  it("derived tables keep timestamps and arrays", async () => {
    expect(
      await rowsOf(
        `SELECT t, a FROM (SELECT last_updated_at AS t, SPLIT(ip, '.') AS a FROM ${T} WHERE ip = '1.1.1.1')`,
      ),
    ).toEqual([["2026-10-31T10:00:00.000Z", ["1", "1", "1", "1"]]]);
  });
});

describe("UNION", () => {
  it("UNION ALL keeps every row; ORDER BY and LIMIT apply to the whole", async () => {
    expect(
      await rowsOf(
        `SELECT ip FROM ${T} WHERE ip LIKE '10.%' UNION ALL SELECT fingerprint_sha256 FROM ${C} WHERE fingerprint_sha256 < 'b'`,
      ),
    ).toEqual([["10.0.0.1"], ["10.0.0.2"], ["aa11"]]);
    expect(
      await rowsOf(
        `SELECT ip AS x FROM ${T} UNION ALL SELECT fingerprint_sha256 FROM ${C} ORDER BY x DESC LIMIT 2`,
      ),
    ).toEqual([["dd44"], ["cc33"]]);
  });

  it("UNION DISTINCT removes duplicates", async () => {
    expect(await rowsOf(`SELECT location.country FROM ${T} UNION DISTINCT SELECT 'US'`)).toEqual([
      ["US"],
      ["DE"],
      [null],
      ["JP"],
    ]);
  });

  it("refuses members with different column counts or types", () => {
    expect(refusal(`SELECT ip FROM ${T} UNION ALL SELECT ip, ip FROM ${T}`)).toBe(
      "Queries in UNION ALL have mismatched column count; query 1 has 1 columns, query 2 has 2 columns at [1:1]",
    );
    expect(refusal(`SELECT ip FROM ${T} UNION ALL SELECT 1`)).toBe(
      "Column 1 in UNION ALL has incompatible types: STRING, INTEGER at [1:1]",
    );
  });
});
