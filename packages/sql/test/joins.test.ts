import { describe, expect, it } from "vitest";
import { MemorySource, numberRows, refusal, rowsOf, runFailure, withLimit } from "./fixture";

const T = "ipv4.20261031";
const C = "certificates.20261031";
const HOST_IPS = ["1.1.1.1", "8.8.8.8", "10.0.0.1", "10.0.0.2", "192.168.1.1", "203.0.113.5"];

describe("joins that are accepted", () => {
  it("an INNER JOIN matches on the ON equality", async () => {
    expect(
      await rowsOf(
        `SELECT a.ip, b.autonomous_system.asn FROM ${T} a JOIN ipv4.20261030 b ON a.ip = b.ip WHERE a.location.country = 'DE'`,
      ),
    ).toEqual([
      ["10.0.0.1", 3320],
      ["10.0.0.2", null],
    ]);
  });

  it("a LEFT JOIN keeps the rows without a match, with NULLs", async () => {
    expect(
      await rowsOf(
        `SELECT a.ip, c.fingerprint_sha256 FROM ${T} a LEFT JOIN ${C} c ON a.ip = c.fingerprint_sha256`,
      ),
    ).toEqual(HOST_IPS.map((ip) => [ip, null]));
  });

  it("a LEFT JOIN applies the rest of ON to decide what matches", async () => {
    expect(
      await rowsOf(
        `SELECT a.ip, b.ip FROM ${T} a LEFT JOIN ${T} b ON a.ip = b.ip AND b.location.country = 'US' WHERE a.ip LIKE '1%'`,
      ),
    ).toEqual([
      ["1.1.1.1", "1.1.1.1"],
      ["10.0.0.1", null],
      ["10.0.0.2", null],
      ["192.168.1.1", null],
    ]);
  });

  it("a repeated field in ON matches when one element does, without flattening", async () => {
    expect(
      await rowsOf(
        `SELECT a.ip, b.ip FROM ${T} a LEFT JOIN ipv4.20261030 b ON a.ip = b.ip AND b.services.port = 22 WHERE a.ip LIKE '1%'`,
      ),
    ).toEqual([
      ["1.1.1.1", null],
      ["10.0.0.1", "10.0.0.1"],
      ["10.0.0.2", null],
      ["192.168.1.1", "192.168.1.1"],
    ]);
  });

  it("joins on an unnested repeated field", async () => {
    const sql = `SELECT a.ip, c.fingerprint_sha256 FROM ${T} a, UNNEST(a.services) s, UNNEST(s.tls.certificate.names) n
      JOIN ${C} c ON n = REGEXP_EXTRACT(c.parsed.subject_dn, r'CN=(.*)')`;
    expect(await rowsOf(sql)).toEqual([
      ["1.1.1.1", "aa11"],
      ["8.8.8.8", "bb22"],
      ["203.0.113.5", "cc33"],
    ]);
  });

  it("USING joins on the named columns, which then need no qualifier", async () => {
    expect(
      await rowsOf(
        `SELECT ip, b.location.country FROM ${T} a JOIN ipv4.20261030 b USING (ip) WHERE ip = '8.8.8.8'`,
      ),
    ).toEqual([["8.8.8.8", "US"]]);
  });

  it("a comma join takes its equality from WHERE", async () => {
    expect(
      await rowsOf(`SELECT a.ip, b.ip FROM ${T} a, ipv4.20261030 b WHERE a.ip = b.ip AND a.ip = '1.1.1.1'`),
    ).toEqual([["1.1.1.1", "1.1.1.1"]]);
  });

  it("joins a derived table", async () => {
    expect(
      await rowsOf(
        `SELECT a.ip, d.n FROM ${T} a JOIN (SELECT location.country AS c, COUNT(*) AS n FROM ${T} GROUP BY c) d ON a.location.country = d.c WHERE a.ip LIKE '10.%'`,
      ),
    ).toEqual([
      ["10.0.0.1", 2],
      ["10.0.0.2", 2],
    ]);
  });
});

describe("joins that are refused", () => {
  it.each([
    [`SELECT a.ip FROM ${T} a, ${T} b, ${T} c, ${T} d`, 4, 35],
    [`SELECT a.ip FROM ${T} a, ${T} b`, 2, 35],
    [`SELECT a.ip FROM ${T} a CROSS JOIN ${T} b`, 2, 45],
    [`SELECT a.ip FROM ${T} a JOIN ${T} b ON 1 = 1`, 2, 39],
    [`SELECT a.ip FROM ${T} a JOIN ${T} b ON a.ip > b.ip`, 2, 39],
    [`SELECT a.ip FROM ${T} a JOIN ${T} b ON a.ip = a.ip`, 2, 39],
    [`SELECT a.ip FROM ${T} a, ${T} b, ${T} c WHERE a.ip = b.ip`, 3, 52],
  ])("%s: a join without a condition", (sql, tables, column) => {
    expect(refusal(sql)).toBe(
      `a join of ${tables} tables without a join condition is not allowed at [1:${column}]`,
    );
  });

  it("refuses RIGHT and FULL joins", () => {
    expect(refusal(`SELECT a.ip FROM ${T} a RIGHT JOIN ${T} b ON a.ip = b.ip`)).toBe(
      "RIGHT JOIN is not supported; swap the tables and use LEFT JOIN at [1:18]",
    );
    expect(refusal(`SELECT a.ip FROM ${T} a FULL OUTER JOIN ${T} b ON a.ip = b.ip`)).toBe(
      "FULL JOIN is not supported; use INNER or LEFT JOIN at [1:18]",
    );
  });

  it("refuses more tables than SQL_LIMITS.maxJoinedTables", () => {
    const tables = ["a", "b", "c", "d", "e"]
      .map((alias, i) => (i === 0 ? `${T} a` : `JOIN ${T} ${alias} ON a.ip = ${alias}.ip`))
      .join(" ");
    expect(refusal(`SELECT a.ip FROM ${tables}`)).toMatch(/^a query may join at most 4 tables/);
  });

  it("refuses a join key on a repeated field that nothing flattens", () => {
    expect(
      refusal(
        `SELECT a.ip FROM ${T} a JOIN ${C} c ON a.services.tls.certificate.names = c.fingerprint_sha256`,
      ),
    ).toBe(
      "a join condition must compare fields that are not repeated; UNNEST or FLATTEN the repeated field first at [1:39]",
    );
  });
});

describe("join bounds", () => {
  it("fails when the build side holds more than SQL_LIMITS.maxHeldBytes bytes", async () => {
    const source = new MemorySource({ numbers: numberRows(50) });
    const message = await withLimit("maxHeldBytes", 2_000, () =>
      runFailure("SELECT a.n FROM numbers.20261031 a JOIN numbers.20261030 b ON a.n = b.n", { source }),
    );
    expect(message).toBe(
      "the query needs more than 2000 bytes held in memory by ORDER BY, GROUP BY, DISTINCT and JOIN (SQL_LIMITS.maxHeldBytes); narrow the query",
    );
  });

  it("fails when a join produces more than SQL_LIMITS.maxJoinRows rows", async () => {
    const source = new MemorySource({ numbers: numberRows(20) });
    const message = await withLimit("maxJoinRows", 50, () =>
      runFailure("SELECT a.n FROM numbers.20261031 a JOIN numbers.20261030 b ON a.parity = b.parity", {
        source,
      }),
    );
    expect(message).toBe(
      "the query needs more than 50 rows from one JOIN (SQL_LIMITS.maxJoinRows); narrow the query",
    );
  });
});
