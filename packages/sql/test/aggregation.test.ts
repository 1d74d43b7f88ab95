import { describe, expect, it } from "vitest";
import { refusal, rowsOf } from "./fixture";

const T = "ipv4.20261031";

describe("GROUP BY", () => {
  it("groups by an expression, an alias or an ordinal, in first-seen order", async () => {
    const expected = [
      ["US", 2],
      ["DE", 2],
      [null, 1],
      ["JP", 1],
    ];
    expect(await rowsOf(`SELECT location.country, COUNT(*) FROM ${T} GROUP BY location.country`)).toEqual(
      expected,
    );
    expect(await rowsOf(`SELECT location.country AS c, COUNT(*) FROM ${T} GROUP BY c`)).toEqual(expected);
    expect(await rowsOf(`SELECT location.country, COUNT(*) FROM ${T} GROUP BY 1`)).toEqual(expected);
    expect(
      await rowsOf(`SELECT a.location.country, COUNT(*) FROM ${T} a GROUP EACH BY location.country`),
    ).toEqual(expected);
  });

  it("computes with grouped values and aggregates in the select list", async () => {
    expect(
      await rowsOf(
        `SELECT LOWER(location.country) || '!', COUNT(*) * 10 FROM ${T} WHERE location.country IS NOT NULL GROUP BY location.country`,
      ),
    ).toEqual([
      ["us!", 20],
      ["de!", 20],
      ["jp!", 10],
    ]);
  });

  it("refuses a select item that is neither grouped nor aggregated", () => {
    expect(refusal(`SELECT ip, COUNT(*) FROM ${T}`)).toBe(
      "SELECT list expression references column ip which is neither grouped nor aggregated at [1:8]",
    );
    expect(refusal(`SELECT location.country, ip FROM ${T} GROUP BY 1`)).toBe(
      "SELECT list expression references column ip which is neither grouped nor aggregated at [1:26]",
    );
    expect(refusal(`SELECT COUNT(*) FROM ${T} GROUP BY location.country ORDER BY ip`)).toBe(
      "ORDER BY clause expression references column ip which is neither grouped nor aggregated at [1:71]",
    );
  });

  it("refuses an ordinal out of range", () => {
    expect(refusal(`SELECT ip FROM ${T} GROUP BY 2`)).toBe("GROUP BY position 2 is out of range at [1:39]");
  });

  it("groups by a whole array value (a nested repeated field)", async () => {
    expect(
      await rowsOf(
        `SELECT services.tls.certificate.names, COUNT(*) FROM ${T} WHERE services.port = 443 GROUP BY 1`,
      ),
    ).toEqual([
      [["one.one.one.one", "cloudflare-dns.com"], 1],
      [["dns.google"], 1],
      [[], 1],
    ]);
  });

  it("HAVING filters groups, by aggregate or by alias", async () => {
    expect(
      await rowsOf(`SELECT location.country, COUNT(*) FROM ${T} GROUP BY 1 HAVING COUNT(*) > 1`),
    ).toEqual([
      ["US", 2],
      ["DE", 2],
    ]);
    expect(
      await rowsOf(
        `SELECT location.country, MAX(autonomous_system.asn) AS top FROM ${T} GROUP BY 1 HAVING top > 10000 ORDER BY top`,
      ),
    ).toEqual([
      ["US", 15169],
      [null, 64512],
    ]);
  });

  it("orders by an aggregate that is not selected", async () => {
    expect(
      await rowsOf(
        `SELECT location.country FROM ${T} GROUP BY 1 ORDER BY MIN(autonomous_system.asn) DESC LIMIT 2`,
      ),
    ).toEqual([[null], ["US"]]);
  });
});

describe("aggregates without GROUP BY", () => {
  it("give one row, even over no rows: COUNT 0, the others NULL", async () => {
    expect(
      await rowsOf(
        `SELECT COUNT(*), COUNT(ip), SUM(autonomous_system.asn), MAX(ip), STRING_AGG(ip) FROM ${T} WHERE ip = 'none'`,
      ),
    ).toEqual([[0, 0, null, null, null]]);
  });

  it("HAVING alone makes the query aggregate", async () => {
    expect(await rowsOf(`SELECT COUNT(*) FROM ${T} HAVING COUNT(*) > 100`)).toEqual([]);
  });
});

describe("DISTINCT", () => {
  it("keeps the first of equal rows", async () => {
    expect(await rowsOf(`SELECT DISTINCT location.country FROM ${T}`)).toEqual([
      ["US"],
      ["DE"],
      [null],
      ["JP"],
    ]);
    expect(await rowsOf(`SELECT DISTINCT location.country FROM ${T} ORDER BY 1 DESC LIMIT 2`)).toEqual([
      ["US"],
      ["JP"],
    ]);
  });

  it("refuses ORDER BY of a column it does not select", () => {
    expect(refusal(`SELECT DISTINCT location.country FROM ${T} ORDER BY ip`)).toBe(
      "ORDER BY of a SELECT DISTINCT must name one of its columns at [1:62]",
    );
  });
});
