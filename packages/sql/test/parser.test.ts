import { describe, expect, it } from "vitest";
import type { Expr, FromItem, Query, Select } from "../src/ast";
import { describeSqlError } from "../src/errors";
import { SQL_LIMITS } from "../src/limits";
import { parseQuery } from "../src/parser";

function parse(text: string): Query {
  const result = parseQuery(text);
  if (!result.ok)
    throw new Error(`expected ${JSON.stringify(text)} to parse: ${describeSqlError(result.error)}`);
  return result.value;
}

function select(text: string): Select {
  const query = parse(text);
  if (query.kind !== "select") throw new Error("expected a SELECT");
  return query;
}

function refusal(text: string): string {
  const result = parseQuery(text);
  if (result.ok) throw new Error(`expected ${JSON.stringify(text)} to be refused`);
  return describeSqlError(result.error);
}

function tableOf(from: FromItem | null): string {
  if (from?.kind !== "table") throw new Error(`expected a table, got ${from?.kind}`);
  return from.name;
}

function where(text: string): Expr {
  const where = select(`SELECT ip FROM t WHERE ${text}`).where;
  if (!where) throw new Error("no WHERE");
  return where;
}

describe("table names", () => {
  it.each([
    ["ipv4.20261031", "ipv4.20261031"],
    ["[ipv4.20261031]", "ipv4.20261031"],
    ["`ipv4.20261031`", "ipv4.20261031"],
    ['"ipv4.20261031"', "ipv4.20261031"],
    ["ipv4", "ipv4"],
    ["certificates.certificates", "certificates.certificates"],
    ["censys-io.ipv4.20261031", "censys-io.ipv4.20261031"],
    ["`censys-io`.ipv4.20261031", "censys-io.ipv4.20261031"],
  ])("%s names table %s", (written, name) => {
    expect(tableOf(select(`SELECT ip FROM ${written}`).from)).toBe(name);
  });

  it("keeps the alias after a table name", () => {
    const from = select("SELECT a.ip FROM ipv4.20261031 AS a").from;
    expect(from).toMatchObject({ kind: "table", name: "ipv4.20261031", alias: "a" });
    expect(select("SELECT a.ip FROM [ipv4.20261031] a").from).toMatchObject({ alias: "a" });
  });
});

describe("names and literals", () => {
  it("reads dotted, backticked and bracketed field paths as parts", () => {
    const items = select("SELECT location.country, `location.city`, a.services.port FROM t").items;
    expect(items.map((i) => (i.kind === "expr" && i.expr.kind === "column" ? i.expr.parts : null))).toEqual([
      ["location", "country"],
      ["location", "city"],
      ["a", "services", "port"],
    ]);
  });

  it("allows keywords after the first part of a path", () => {
    expect(select("SELECT t.end, x.order FROM t").items).toHaveLength(2);
  });

  it("reads single- and double-quoted strings (legacy SQL allows both) with escapes", () => {
    expect(where(`a = "it's"`)).toMatchObject({ right: { value: "it's" } });
    expect(where(`a = 'say \\'hi\\''`)).toMatchObject({ right: { value: "say 'hi'" } });
    expect(where(`a = 'tab\\there'`)).toMatchObject({ right: { value: "tab\there" } });
    expect(where(`a = '''multi 'quoted' line'''`)).toMatchObject({ right: { value: "multi 'quoted' line" } });
  });

  it("keeps backslashes of raw strings", () => {
    expect(where(`REGEXP_MATCH(a, r'\\d+\\.\\d+')`)).toMatchObject({ args: [{}, { value: "\\d+\\.\\d+" }] });
    expect(where(`REGEXP_MATCH(a, R"(?i)x\\b")`)).toMatchObject({ args: [{}, { value: "(?i)x\\b" }] });
  });

  it("reads numbers, booleans, NULL and negative literals", () => {
    const items = select("SELECT 1, 2.5, 1e3, -4, TRUE, false, NULL FROM t").items;
    expect(items.map((i) => (i.kind === "expr" && i.expr.kind === "literal" ? i.expr.value : "?"))).toEqual([
      1,
      2.5,
      1000,
      -4,
      true,
      false,
      null,
    ]);
  });

  it("reads typed literals as calls", () => {
    expect(where("t > TIMESTAMP '2026-10-01'")).toMatchObject({ right: { kind: "call", name: "TIMESTAMP" } });
  });
});

describe("comments and statements", () => {
  it("skips --, # and /* */ comments and trailing semicolons", () => {
    const query = select("#legacySQL\nSELECT ip -- the address\nFROM /* daily */ ipv4 # end\n;;");
    expect(tableOf(query.from)).toBe("ipv4");
  });

  it("refuses a second statement", () => {
    expect(refusal("SELECT 1; SELECT 2")).toBe("only one statement is allowed at [1:11]");
  });

  it("refuses an empty query", () => {
    expect(refusal("  -- nothing\n")).toBe(
      "Syntax error: Expected keyword SELECT but got end of input at [2:1]",
    );
    expect(refusal("   ")).toBe("query is empty");
  });
});

describe("operators", () => {
  it("reads legacy CONTAINS and NOT CONTAINS", () => {
    expect(where("a CONTAINS 'x'")).toMatchObject({ kind: "binary", op: "CONTAINS" });
    expect(where("a NOT CONTAINS 'x'")).toMatchObject({
      kind: "unary",
      op: "NOT",
      operand: { op: "CONTAINS" },
    });
  });

  it("reads IS [NOT] NULL, NOT (x IS NULL), IN, BETWEEN, LIKE and their negations", () => {
    expect(where("a IS NOT NULL")).toMatchObject({ kind: "is_null", negated: true });
    expect(where("NOT (a IS NULL)")).toMatchObject({
      kind: "unary",
      operand: { kind: "is_null", negated: false },
    });
    expect(where("a NOT IN (1, 2)")).toMatchObject({
      kind: "in",
      negated: true,
      list: [{ value: 1 }, { value: 2 }],
    });
    expect(where("a IN (SELECT b FROM u)")).toMatchObject({ kind: "in", query: { kind: "select" } });
    expect(where("a NOT BETWEEN 1 AND 5")).toMatchObject({ kind: "between", negated: true });
    expect(where("a NOT LIKE '%x%'")).toMatchObject({ kind: "like", negated: true });
    expect(where("a <> 1")).toMatchObject({ op: "!=" });
    expect(where("a IS TRUE")).toMatchObject({ op: "=", right: { value: true } });
  });

  it("binds AND tighter than OR and NOT tighter than AND", () => {
    expect(where("a = 1 OR b = 2 AND NOT c = 3")).toMatchObject({
      op: "OR",
      right: { op: "AND", right: { kind: "unary", op: "NOT" } },
    });
  });

  it("binds * tighter than +", () => {
    expect(where("a + b * c = 1")).toMatchObject({ left: { op: "+", right: { op: "*" } } });
  });

  it("reads CASE, CAST, IF and LEFT", () => {
    const items = select(
      "SELECT CASE WHEN a THEN 1 ELSE 2 END, CASE a WHEN 1 THEN 'x' END, CAST(a AS INT64), SAFE_CAST(a AS STRING), IF(a, 1, 2), LEFT(a, 2) FROM t",
    ).items;
    expect(items.map((i) => (i.kind === "expr" ? i.expr.kind : ""))).toEqual([
      "case",
      "case",
      "cast",
      "cast",
      "call",
      "call",
    ]);
  });

  it("marks COUNT(*), COUNT(DISTINCT x) and OVER", () => {
    const items = select("SELECT COUNT(*), COUNT(DISTINCT ip, 1000), RANK() OVER (ORDER BY a) FROM t").items;
    expect(items[0]).toMatchObject({ expr: { name: "COUNT", star: true } });
    expect(items[1]).toMatchObject({ expr: { name: "COUNT", distinct: true, args: [{}, { value: 1000 }] } });
    expect(items[2]).toMatchObject({ expr: { name: "RANK", over: true } });
  });
});

describe("clauses", () => {
  it("reads GROUP EACH BY, HAVING, ORDER BY with NULLS and LIMIT/OFFSET", () => {
    const query = select(
      "SELECT a, COUNT(*) c FROM t GROUP EACH BY a HAVING c > 1 ORDER BY c DESC NULLS LAST, 1 LIMIT 10 OFFSET 5",
    );
    expect(query.groupBy).toHaveLength(1);
    expect(query.having).not.toBeNull();
    expect(query.orderBy).toMatchObject([{ descending: true, nulls: "LAST" }, { expr: { value: 1 } }]);
    expect(query).toMatchObject({ limit: 10, offset: 5 });
  });

  it("expands WITH into derived tables", () => {
    const query = select("WITH hosts AS (SELECT ip FROM ipv4) SELECT h.ip FROM hosts h");
    expect(query.from).toMatchObject({ kind: "derived", alias: "h", query: { kind: "select" } });
  });

  it("reads UNION ALL with an ORDER BY for the whole", () => {
    expect(parse("SELECT a FROM t UNION ALL SELECT a FROM u ORDER BY 1 LIMIT 3")).toMatchObject({
      kind: "union",
      distinct: false,
      queries: [{}, {}],
      limit: 3,
    });
  });

  it("reads joins, UNNEST WITH OFFSET and legacy FLATTEN", () => {
    expect(select("SELECT 1 FROM a JOIN b ON a.x = b.x LEFT OUTER JOIN c USING (y)").from).toMatchObject({
      kind: "join",
      type: "LEFT",
      using: ["y"],
      left: { kind: "join", type: "INNER" },
    });
    expect(select("SELECT s.port FROM ipv4, UNNEST(services) AS s WITH OFFSET i").from).toMatchObject({
      kind: "join",
      type: "COMMA",
      right: { kind: "unnest", alias: "s", offsetAlias: "i", path: { parts: ["services"] } },
    });
    expect(
      select("SELECT ip FROM FLATTEN([ipv4.20261031], services) WHERE services.port = 80").from,
    ).toMatchObject({
      kind: "flatten",
      source: { kind: "table", name: "ipv4.20261031" },
      field: { parts: ["services"] },
    });
  });
});

describe("errors say what and where", () => {
  it.each([
    ["SELECT ip FROM ipv4 WHERE", "Syntax error: Expected an expression but got end of input at [1:26]"],
    ["SELECT 'abc FROM t", "Syntax error: Unclosed string literal at [1:8]"],
    ["SELECT ip FROM\nipv4 WHERE ip = = 1", 'Syntax error: Expected an expression but got "=" at [2:17]'],
    ["SELECT ip FROM t WHERE a = ?", "Syntax error: Query parameters are not supported at [1:28]"],
    ["SELECT NET.IP_FROM_STRING(ip) FROM t", "Function not found: NET.IP_FROM_STRING at [1:8]"],
    ["SELECT a FROM t WHERE a = 'x\\q'", "Syntax error: Illegal escape sequence: \\q at [1:29]"],
    ["SELECT a FROM t /* open", "Syntax error: Unclosed comment at [1:17]"],
    ["SELECT a FROM t OMIT RECORD IF a", "OMIT RECORD IF is not supported at [1:17]"],
    ["SELECT a FROM t INTERSECT SELECT a FROM u", "INTERSECT is not supported at [1:17]"],
    ["SELECT a FROM t LIMIT -1", 'Syntax error: Expected an integer LIMIT but got "-" at [1:23]'],
    ["SELECT a FROM t b c", "Syntax error: Expected end of input but got identifier c at [1:19]"],
    ["SELECT a FROM t JOIN u", "Syntax error: Expected keyword ON or USING but got end of input at [1:23]"],
    ["UPDATE t SET a = 1", "Syntax error: Expected keyword SELECT but got identifier UPDATE at [1:1]"],
    [
      "SELECT a FROM t; DROP TABLE t",
      "Syntax error: Expected end of input but got identifier DROP at [1:18]",
    ],
  ])("%s", (text, message) => {
    expect(refusal(text)).toBe(message);
  });
});

describe("text bounds", () => {
  it("refuses text longer than the limit before reading it", () => {
    expect(refusal(`SELECT ip FROM t WHERE a = '${"x".repeat(SQL_LIMITS.maxLength)}'`)).toBe(
      `query is longer than ${SQL_LIMITS.maxLength} characters`,
    );
  });

  it("refuses nesting deeper than the limit, parentheses or NOT or CASE alike", () => {
    const depth = SQL_LIMITS.maxDepth + 1;
    expect(refusal(`SELECT ${"(".repeat(depth)}1${")".repeat(depth)} FROM t`)).toMatch(
      /nested more than 64 levels/,
    );
    expect(refusal(`SELECT a FROM t WHERE ${"NOT ".repeat(depth)} a`)).toMatch(/nested more than 64 levels/);
    expect(refusal(`SELECT ${"CASE WHEN a THEN ".repeat(depth)}1${" END".repeat(depth)} FROM t`)).toMatch(
      /nested more than 64 levels/,
    );
    expect(refusal(`SELECT a FROM t WHERE a IN ${"(SELECT a FROM t WHERE a IN ".repeat(40)}`)).toMatch(
      /nested more than|more than 16 SELECTs/,
    );
  });

  it("accepts nesting up to the limit", () => {
    const depth = 20;
    expect(parseQuery(`SELECT ${"(".repeat(depth)}1${")".repeat(depth)} FROM t`).ok).toBe(true);
  });

  it("refuses more expressions than the limit", () => {
    const terms = Array.from({ length: SQL_LIMITS.maxNodes / 2 }, () => "a=1").join(" OR ");
    expect(refusal(`SELECT a FROM t WHERE ${terms}`)).toMatch(/more than 4000 expressions/);
  });

  it("refuses IN lists longer than the limit", () => {
    const list = Array.from({ length: SQL_LIMITS.maxInList + 1 }, (_, i) => i).join(",");
    expect(refusal(`SELECT a FROM t WHERE a IN (${list})`)).toMatch(/at most 1000 values/);
  });

  it("refuses joining more tables than the limit", () => {
    const tables = Array.from({ length: SQL_LIMITS.maxJoinedTables + 1 }, (_, i) => `t t${i}`).join(", ");
    expect(refusal(`SELECT 1 FROM ${tables}`)).toMatch(/join at most 4 tables/);
  });

  it("gives the same answer for the same text every time", () => {
    const text = `SELECT ${"CASE WHEN a THEN ".repeat(500)}1${" END".repeat(500)} FROM t`;
    expect(refusal(text)).toBe(refusal(text));
  });
});
