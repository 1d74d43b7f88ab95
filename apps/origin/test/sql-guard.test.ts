import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { checkSnapshotQuery } from "../src/jobs/sql-guard";
import { tokenizeSqlite } from "../src/jobs/sql-lexer";
import { readPublishedTables } from "../src/snapshots/catalog";
import { databaseState, harness, seedDatasetAndSnapshots } from "./snapshots-fixture";

beforeAll(() => seedDatasetAndSnapshots(2));

const T = "ipv4.20240515";
const U = "ipv4.20240514";
const C = "certificates.20240515";
const published = new Set([T, U, C]);

/** Accepted forms; {T} and {U} are two ipv4 tables ({T_UPPER} the first in capitals), {C} a certificates table. */
const ACCEPTED: [string, string][] = [
  [
    "a plain select with quoted dotted columns",
    `SELECT ip, "location.country" FROM "{T}" WHERE "autonomous_system.asn" > 5 LIMIT 3`,
  ],
  ["backtick identifiers", `SELECT \`location.country\` FROM \`{T}\``],
  ["an inner join", `SELECT a.ip FROM "{T}" a JOIN "{U}" b ON a.ip = b.ip`],
  ["a left join with USING", `SELECT a.ip FROM "{T}" a LEFT JOIN "{U}" b USING (ip)`],
  ["a CTE", `WITH a AS (SELECT * FROM "{T}") SELECT count(*) FROM a`],
  [
    "two CTEs, the second reading the first",
    `WITH a AS (SELECT ip FROM "{T}"), b AS (SELECT ip FROM a) SELECT * FROM b`,
  ],
  [
    "aggregates with GROUP BY, HAVING, ORDER BY",
    `SELECT "location.country", count(*) AS n FROM "{T}" GROUP BY 1 HAVING count(*) > 1 ORDER BY n DESC`,
  ],
  ["DISTINCT and UNION", `SELECT DISTINCT ip FROM "{T}" UNION SELECT ip FROM "{U}"`],
  [
    "a window function",
    `SELECT ip, row_number() OVER (PARTITION BY "location.country" ORDER BY ip) FROM "{T}"`,
  ],
  [
    "CASE, CAST, LIKE, IN (subquery)",
    `SELECT CASE WHEN ip LIKE '1%' THEN 'a' ELSE 'b' END, CAST(ip AS TEXT) FROM "{T}" WHERE ip IN (SELECT ip FROM "{U}")`,
  ],
  ["json_each over a REPEATED column", `SELECT t.ip, p.value FROM "{T}" AS t, json_each(t."protocols") AS p`],
  ["date functions and string escapes", `SELECT strftime('%Y', "last_updated_at"), 'it''s' FROM "{T}"`],
  ["a certificates table", `SELECT "parsed.fingerprint_sha256" FROM "{C}" WHERE "validation.nss.valid" = 1`],
  ["a trailing semicolon and comments", `SELECT ip -- the address\nFROM "{T}"; /* done */`],
  ["table names in any case", `SELECT ip FROM "{T_UPPER}"`],
];

/** Fills in the placeholders of a statement. */
function withTables(sql: string, t: string, u: string, c: string): string {
  return sql
    .replaceAll("{T_UPPER}", t.toUpperCase())
    .replaceAll("{T}", t)
    .replaceAll("{U}", u)
    .replaceAll("{C}", c);
}

describe("SQL guard: what it accepts", () => {
  for (const [what, template] of ACCEPTED) {
    it(`accepts ${what}`, () => {
      const result = checkSnapshotQuery(withTables(template, T, U, C), published);
      expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
    });
  }

  it("runs the regenerated SQL, which holds no comments and names the tables read", () => {
    const result = checkSnapshotQuery(
      `SELECT ip /* x */ FROM "${T}" a JOIN "${U}" b USING (ip) -- y`,
      published,
    );
    if (!result.ok) throw new Error(result.reason);
    expect(result.query.tables).toEqual([U, T].sort());
    expect(tokenizeSqlite(result.query.sql)!.some((t) => t.kind === "comment")).toBe(false);
    expect(checkSnapshotQuery(result.query.sql, published)).toEqual(result);
  });
});

describe("SQL guard: accepted SQL runs", () => {
  it("runs every accepted form to success on the snapshot database", async () => {
    const tables = await readPublishedTables(env.SNAPSHOTS);
    const [u, t] = (tables.bySeries.get("ipv4") ?? []).slice(-2);
    const c = (tables.bySeries.get("certificates") ?? []).at(-1);
    const h = harness();
    const jobs: [string, string][] = [];
    for (const [what, template] of ACCEPTED) {
      const res = await h.fetch("POST", "/api/v1/query", { query: withTables(template, t!, u!, c!) });
      expect(res.status, what).toBe(200);
      jobs.push([what, (await res.json<{ job_id: string }>()).job_id]);
    }
    await h.deliver();
    for (const [what, id] of jobs) {
      const status = await (await h.fetch("GET", `/api/v1/query/${id}`)).json<Record<string, unknown>>();
      expect(status, what).toMatchObject({ status: "success" });
    }
  });
});

/**
 * Statements the guard must refuse. Each goes through POST /api/v1/query and POST
 * /api/v1/export and must come back 400 `query could not be parsed` with both databases and
 * the bucket exactly as they were.
 */
const REFUSED: [string, string][] = [
  // {T} and {U} stand for two published ipv4 tables of the seeded dataset.
  ["a second statement after a semicolon", `SELECT ip FROM "{T}"; DROP TABLE "{T}"`],
  ["a second statement after a comment", `SELECT ip FROM "{T}" /* x */; DELETE FROM "{T}"`],
  ["DROP TABLE", `DROP TABLE "{T}"`],
  ["DELETE", `DELETE FROM "{T}"`],
  ["INSERT", `INSERT INTO "{T}" (ip) VALUES ('6.6.6.6')`],
  ["UPDATE", `UPDATE "{T}" SET ip = 'x'`],
  ["REPLACE", `REPLACE INTO "{T}" (ip) VALUES ('6.6.6.6')`],
  ["CREATE TABLE", "CREATE TABLE evil (x)"],
  ["CREATE TABLE AS SELECT", `CREATE TABLE evil AS SELECT * FROM "{T}"`],
  ["ALTER TABLE", `ALTER TABLE "{T}" RENAME TO evil`],
  ["CREATE TRIGGER", `CREATE TRIGGER t AFTER INSERT ON "{T}" BEGIN DELETE FROM "{T}"; END`],
  ["ATTACH", "ATTACH DATABASE 'file:evil.db' AS evil"],
  ["DETACH", "DETACH DATABASE main"],
  ["PRAGMA writable_schema", "PRAGMA writable_schema = ON"],
  ["PRAGMA table_info", `PRAGMA table_info("{T}")`],
  ["VACUUM INTO", "VACUUM INTO '/tmp/evil.db'"],
  ["BEGIN", "BEGIN TRANSACTION"],
  ["EXPLAIN", `EXPLAIN SELECT * FROM "{T}"`],
  ["a write hidden in a CTE", `WITH d AS (DELETE FROM "{T}" RETURNING *) SELECT * FROM d`],
  ["sqlite_master", "SELECT * FROM sqlite_master"],
  ["sqlite_schema", "SELECT name FROM sqlite_schema"],
  ["sqlite_temp_master", "SELECT name FROM sqlite_temp_master"],
  ["a schema-qualified sqlite_master", "SELECT * FROM main.sqlite_master"],
  ["a schema-qualified snapshot table", `SELECT * FROM main."{T}"`],
  ["a table of the main database", "SELECT * FROM jobs"],
  [
    "a table of the main database in a subquery",
    `SELECT ip FROM "{T}" WHERE ip IN (SELECT api_id FROM account_usage)`,
  ],
  [
    "a table of the main database in EXISTS",
    `SELECT ip FROM "{T}" WHERE EXISTS (SELECT 1 FROM host_history)`,
  ],
  ["sqlite_master in ORDER BY", `SELECT ip FROM "{T}" ORDER BY (SELECT count(*) FROM sqlite_master)`],
  ["sqlite_master in LIMIT", `SELECT ip FROM "{T}" LIMIT (SELECT count(*) FROM sqlite_master)`],
  ["sqlite_master in a UNION", `SELECT ip FROM "{T}" UNION SELECT name FROM sqlite_master`],
  ["sqlite_master through a CTE", "WITH x AS (SELECT * FROM sqlite_master) SELECT * FROM x"],
  [
    "sqlite_master behind a CTE of the same name in another scope",
    "SELECT * FROM (WITH sqlite_master AS (SELECT 1) SELECT * FROM sqlite_master), sqlite_master",
  ],
  ["a CTE named like a published table", `WITH "{T}" AS (SELECT 1 AS ip) SELECT ip FROM "{T}"`],
  [
    "a table function argument reading sqlite_master",
    "SELECT * FROM json_each((SELECT group_concat(name) FROM sqlite_master))",
  ],
  ["a snapshot table that is not published", 'SELECT * FROM "ipv4.20991231"'],
  ["pragma table functions", `SELECT * FROM pragma_table_info('{T}')`],
  ["load_extension", `SELECT load_extension('/tmp/evil.so') FROM "{T}"`],
  ["readfile", `SELECT readfile('/etc/passwd') FROM "{T}"`],
  ["writefile", `SELECT writefile('/tmp/evil', ip) FROM "{T}"`],
  ["fts3_tokenizer", `SELECT fts3_tokenizer('simple') FROM "{T}"`],
  ["sqlite_version", `SELECT sqlite_version() FROM "{T}"`],
  ["zeroblob", `SELECT zeroblob(1000000000) FROM "{T}"`],
  [
    "a backslash escape that SQLite does not know",
    `SELECT ip FROM "{T}" WHERE ip = 'x\\' UNION SELECT sql FROM sqlite_master --'`,
  ],
  ["a quote inside a backtick identifier", `SELECT \`x" FROM sqlite_master --\` FROM "{T}"`],
  ["a bound parameter", `SELECT ip FROM "{T}" WHERE ip = ?`],
  ["a named parameter", `SELECT ip FROM "{T}" WHERE ip = :ip`],
  [
    "a recursive CTE",
    `WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r, "{T}"`,
  ],
  [
    "a self-referencing CTE without RECURSIVE",
    `WITH r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r) SELECT * FROM r, "{T}"`,
  ],
  ["NATURAL JOIN, which the parser would misread", `SELECT * FROM "{T}" NATURAL JOIN "{U}"`],
  ["a query that reads no table", "SELECT 1"],
  ["plain garbage", "this is not sql"],
  ["an unterminated string", `SELECT ip FROM "{T}" WHERE ip = 'open`],
];

describe("SQL guard: what it refuses", () => {
  it(`has at least 30 refused statements (${REFUSED.length})`, () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(30);
  });

  for (const [what, template] of REFUSED) {
    it(`refuses ${what}, changing nothing`, async () => {
      const tables = await readPublishedTables(env.SNAPSHOTS);
      const [u, t] = (tables.bySeries.get("ipv4") ?? []).slice(-2);
      expect(t && u).toBeTruthy();
      const sql = template.replaceAll("{T}", t!).replaceAll("{U}", u!);
      expect(checkSnapshotQuery(sql, tables.names).ok).toBe(false);
      const h = harness();
      const before = await databaseState();
      for (const path of ["/api/v1/query", "/api/v1/export"]) {
        const res = await h.fetch("POST", path, { query: sql });
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ error_code: 400, error: "query could not be parsed" });
      }
      expect(h.queue.sent).toEqual([]);
      expect(await databaseState()).toEqual(before);
    });
  }

  it("refuses queries longer than the limit before parsing", () => {
    const sql = `SELECT ip FROM "${T}" WHERE ip IN (${"'1',".repeat(7000)}'1')`;
    const result = checkSnapshotQuery(sql, published);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain("longer than");
  });

  it("refuses nesting deep enough to exhaust the parser instead of crashing", () => {
    const sql = `SELECT ${"(".repeat(5000)}1${")".repeat(5000)} FROM "${T}"`;
    expect(checkSnapshotQuery(sql, published).ok).toBe(false);
  });
});

describe("SQLite tokenizer used as the guard's second opinion", () => {
  it("reads strings the way SQLite does: a backslash is an ordinary character", () => {
    const tokens = tokenizeSqlite(`SELECT 'a\\' , "b""c" -- d\n/* e */`)!;
    expect(tokens.filter((t) => t.kind !== "space").map((t) => [t.kind, t.text])).toEqual([
      ["word", "SELECT"],
      ["string", "'a\\'"],
      ["punct", ","],
      ["identifier", '"b""c"'],
      ["comment", "-- d"],
      ["comment", "/* e */"],
    ]);
  });

  it("reports an unterminated string", () => {
    expect(tokenizeSqlite("SELECT 'open")).toBeNull();
  });
});
