import { env } from "cloudflare:workers";
import { queryResultsPageSchema } from "@scangate/core";
import { SQL_LIMITS } from "@scangate/sql";
import { beforeAll, describe, expect, it } from "vitest";
import { databaseState, harness, publishedDays, seedDatasetAndSnapshots } from "./snapshots-fixture";

/**
 * What the job routes accept and refuse. POST /api/v1/query and /api/v1/export plan the SQL with
 * `@scangate/sql` against the published snapshot tables before anything is stored or queued; the
 * engine evaluates the query itself and reads rows through fixed, parameterised scans, so no
 * text of the user's ever reaches a database. Statements, tables and functions outside the
 * dialect are refused with 400 `query could not be parsed` and the reason in `detail`.
 */

beforeAll(() => seedDatasetAndSnapshots(2));

interface Tables {
  /** The newest and the previous ipv4 table, and the newest certificates table. */
  t: string;
  u: string;
  c: string;
}

async function tables(): Promise<Tables> {
  const days = await publishedDays();
  const [older, newest] = days.slice(-2);
  expect(older && newest).toBeTruthy();
  return { t: `ipv4.${newest}`, u: `ipv4.${older}`, c: `certificates.${newest}` };
}

/** Fills in {T} and {U} (two ipv4 tables; {T_UPPER} the first in capitals) and {C} (certificates). */
function withTables(sql: string, { t, u, c }: Tables): string {
  return sql
    .replaceAll("{T_UPPER}", t.toUpperCase())
    .replaceAll("{T}", t)
    .replaceAll("{U}", u)
    .replaceAll("{C}", c);
}

const ACCEPTED: [string, string][] = [
  [
    "a plain select with dotted nested fields",
    `SELECT ip, location.country FROM "{T}" WHERE autonomous_system.asn > 5 LIMIT 3`,
  ],
  ["backtick names", "SELECT `location.country` FROM `{T}`"],
  ["a legacy [bracketed] table", "SELECT ip FROM [{T}] LIMIT 2"],
  ["an inner join", `SELECT a.ip FROM "{T}" a JOIN "{U}" b ON a.ip = b.ip`],
  ["a left join with USING", `SELECT a.ip FROM "{T}" a LEFT JOIN "{U}" b USING (ip)`],
  ["a CTE", `WITH a AS (SELECT * FROM "{T}") SELECT count(*) FROM a`],
  [
    "two CTEs, the second reading the first",
    `WITH a AS (SELECT ip FROM "{T}"), b AS (SELECT ip FROM a) SELECT * FROM b`,
  ],
  [
    "aggregates with GROUP BY, HAVING, ORDER BY",
    `SELECT location.country, count(*) AS n FROM "{T}" GROUP BY 1 HAVING count(*) > 1 ORDER BY n DESC`,
  ],
  ["DISTINCT and UNION", `SELECT DISTINCT ip FROM "{T}" UNION SELECT ip FROM "{U}"`],
  [
    "CASE, CAST, LIKE, IN (subquery)",
    `SELECT CASE WHEN ip LIKE '1%' THEN 'a' ELSE 'b' END, CAST(ip AS STRING) FROM "{T}" WHERE ip IN (SELECT ip FROM "{U}")`,
  ],
  ["UNNEST of a REPEATED field", `SELECT t.ip, p FROM "{T}" AS t, UNNEST(t.protocols) AS p`],
  ["a condition on a repeated record", `SELECT ip FROM "{T}" WHERE services.port = 22`],
  ["date functions and string escapes", `SELECT DATE(last_updated_at), 'it\\'s', "it's" FROM "{T}"`],
  ["a certificates table", `SELECT parsed.fingerprint_sha256 FROM "{C}" WHERE validation.nss.valid = true`],
  ["a trailing semicolon and comments", `SELECT ip -- the address\nFROM "{T}"; /* done */`],
  ["table names in any case", `SELECT ip FROM "{T_UPPER}"`],
  ["a query that reads no table", "SELECT 1"],
];

describe("job SQL: what it accepts", () => {
  it.each(ACCEPTED)("accepts and runs %s", async (_what, template) => {
    const h = harness();
    const res = await h.fetch("POST", "/api/v1/query", { query: withTables(template, await tables()) });
    expect(res.status).toBe(200);
    const { job_id } = await res.json<{ job_id: string }>();
    await h.deliver();
    const page = await (await h.fetch("GET", `/api/v1/query/${job_id}/1`)).json<Record<string, unknown>>();
    expect(page, JSON.stringify(page)).not.toHaveProperty("status");
    expect(queryResultsPageSchema.parse(page).rows.length).toBeGreaterThan(0);
  });
});

const SELECT_EXPECTED = (word: string) =>
  new RegExp(`^Syntax error: Expected keyword SELECT but got identifier ${word} at \\[1:\\d+\\]$`);
const NO_TABLE = (name: string) => new RegExp(`^Not found: Table ${name.replaceAll(".", "\\.")} at `);
const NO_FUNCTION = (name: string) => new RegExp(`^Function not found: ${name} at \\[1:8\\]$`);

/**
 * Statements the routes must refuse, with the reason they give. Each goes through POST
 * /api/v1/query and POST /api/v1/export and must come back 400 `query could not be parsed`
 * with both databases and the bucket exactly as they were and nothing queued.
 */
const REFUSED: [string, string, RegExp][] = [
  // ---- anything but one query ----
  [
    "a second statement after a semicolon",
    `SELECT ip FROM "{T}"; DROP TABLE "{T}"`,
    /^Syntax error: Expected end of input but got identifier DROP/,
  ],
  [
    "a second statement after a comment",
    `SELECT ip FROM "{T}" /* x */; DELETE FROM "{T}"`,
    /^Syntax error: Expected end of input but got identifier DELETE/,
  ],
  ["DROP TABLE", `DROP TABLE "{T}"`, SELECT_EXPECTED("DROP")],
  ["DELETE", `DELETE FROM "{T}"`, SELECT_EXPECTED("DELETE")],
  ["INSERT", `INSERT INTO "{T}" (ip) VALUES ('6.6.6.6')`, SELECT_EXPECTED("INSERT")],
  ["UPDATE", `UPDATE "{T}" SET ip = 'x'`, SELECT_EXPECTED("UPDATE")],
  ["REPLACE", `REPLACE INTO "{T}" (ip) VALUES ('6.6.6.6')`, SELECT_EXPECTED("REPLACE")],
  ["CREATE TABLE", "CREATE TABLE evil (x)", SELECT_EXPECTED("CREATE")],
  ["CREATE TABLE AS SELECT", `CREATE TABLE evil AS SELECT * FROM "{T}"`, SELECT_EXPECTED("CREATE")],
  ["ALTER TABLE", `ALTER TABLE "{T}" RENAME TO evil`, SELECT_EXPECTED("ALTER")],
  [
    "CREATE TRIGGER",
    `CREATE TRIGGER t AFTER INSERT ON "{T}" BEGIN DELETE FROM "{T}"; END`,
    SELECT_EXPECTED("CREATE"),
  ],
  ["ATTACH", "ATTACH DATABASE 'file:evil.db' AS evil", SELECT_EXPECTED("ATTACH")],
  ["DETACH", "DETACH DATABASE main", SELECT_EXPECTED("DETACH")],
  ["PRAGMA writable_schema", "PRAGMA writable_schema = ON", SELECT_EXPECTED("PRAGMA")],
  ["PRAGMA table_info", `PRAGMA table_info("{T}")`, SELECT_EXPECTED("PRAGMA")],
  ["VACUUM INTO", "VACUUM INTO '/tmp/evil.db'", SELECT_EXPECTED("VACUUM")],
  ["BEGIN", "BEGIN TRANSACTION", SELECT_EXPECTED("BEGIN")],
  ["EXPLAIN", `EXPLAIN SELECT * FROM "{T}"`, SELECT_EXPECTED("EXPLAIN")],
  [
    "a write hidden in a CTE",
    `WITH d AS (DELETE FROM "{T}" RETURNING *) SELECT * FROM d`,
    SELECT_EXPECTED("DELETE"),
  ],
  ["plain garbage", "this is not sql", SELECT_EXPECTED("this")],

  // ---- tables that are not published snapshot tables ----
  ["sqlite_master", "SELECT * FROM sqlite_master", NO_TABLE("sqlite_master")],
  ["sqlite_schema", "SELECT name FROM sqlite_schema", NO_TABLE("sqlite_schema")],
  ["sqlite_temp_master", "SELECT name FROM sqlite_temp_master", NO_TABLE("sqlite_temp_master")],
  ["a schema-qualified sqlite_master", "SELECT * FROM main.sqlite_master", NO_TABLE("main.sqlite_master")],
  ["a schema-qualified snapshot table", `SELECT * FROM main."{T}"`, /^Syntax error: Expected end of input/],
  ["a table of the main database", "SELECT * FROM jobs", NO_TABLE("jobs")],
  [
    "a table of the main database in a subquery",
    `SELECT ip FROM "{T}" WHERE ip IN (SELECT api_id FROM account_usage)`,
    NO_TABLE("account_usage"),
  ],
  [
    "a table of the main database in EXISTS",
    `SELECT ip FROM "{T}" WHERE EXISTS (SELECT 1 FROM host_history)`,
    NO_TABLE("host_history"),
  ],
  [
    "sqlite_master in ORDER BY",
    `SELECT ip FROM "{T}" ORDER BY (SELECT count(*) FROM sqlite_master)`,
    NO_TABLE("sqlite_master"),
  ],
  [
    "sqlite_master in LIMIT",
    `SELECT ip FROM "{T}" LIMIT (SELECT count(*) FROM sqlite_master)`,
    /^Syntax error: Expected an integer LIMIT/,
  ],
  [
    "sqlite_master in a UNION",
    `SELECT ip FROM "{T}" UNION SELECT name FROM sqlite_master`,
    NO_TABLE("sqlite_master"),
  ],
  [
    "sqlite_master through a CTE",
    "WITH x AS (SELECT * FROM sqlite_master) SELECT * FROM x",
    NO_TABLE("sqlite_master"),
  ],
  [
    "sqlite_master behind a CTE of the same name in another scope",
    "SELECT * FROM (WITH sqlite_master AS (SELECT 1) SELECT * FROM sqlite_master), sqlite_master",
    NO_TABLE("sqlite_master"),
  ],
  [
    "a CTE named by a string",
    `WITH "{T}" AS (SELECT 1 AS ip) SELECT ip FROM "{T}"`,
    /^Syntax error: Expected a name for the WITH clause but got string literal/,
  ],
  ["a snapshot table that is not published", 'SELECT * FROM "ipv4.20991231"', NO_TABLE("ipv4.20991231")],
  ["an unknown series", "SELECT * FROM hosts.hosts", NO_TABLE("hosts.hosts")],
  [
    "a self-referencing CTE",
    `WITH r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r) SELECT * FROM r, "{T}"`,
    NO_TABLE("r"),
  ],
  [
    "a recursive CTE",
    `WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r, "{T}"`,
    /^WITH RECURSIVE is not supported/,
  ],

  // ---- SQLite's functions and table functions do not exist here ----
  [
    "a table function argument reading sqlite_master",
    "SELECT * FROM json_each((SELECT group_concat(name) FROM sqlite_master))",
    /^Table-valued function not found: json_each/,
  ],
  [
    "json_each over a REPEATED field",
    `SELECT t.ip, p.value FROM "{T}" AS t, json_each(t.protocols) AS p`,
    /^Table-valued function not found: json_each/,
  ],
  [
    "pragma table functions",
    `SELECT * FROM pragma_table_info('{T}')`,
    /^Table-valued function not found: pragma_table_info/,
  ],
  ["load_extension", `SELECT load_extension('/tmp/evil.so') FROM "{T}"`, NO_FUNCTION("LOAD_EXTENSION")],
  ["readfile", `SELECT readfile('/etc/passwd') FROM "{T}"`, NO_FUNCTION("READFILE")],
  ["writefile", `SELECT writefile('/tmp/evil', ip) FROM "{T}"`, NO_FUNCTION("WRITEFILE")],
  ["fts3_tokenizer", `SELECT fts3_tokenizer('simple') FROM "{T}"`, NO_FUNCTION("FTS3_TOKENIZER")],
  ["sqlite_version", `SELECT sqlite_version() FROM "{T}"`, NO_FUNCTION("SQLITE_VERSION")],
  ["zeroblob", `SELECT zeroblob(1000000000) FROM "{T}"`, NO_FUNCTION("ZEROBLOB")],
  ["randomblob", `SELECT randomblob(8) FROM "{T}"`, NO_FUNCTION("RANDOMBLOB")],
  ["typeof", `SELECT typeof(ip) FROM "{T}"`, NO_FUNCTION("TYPEOF")],
  ["json_extract", `SELECT json_extract(protocols, '$[0]') FROM "{T}"`, NO_FUNCTION("JSON_EXTRACT")],

  // ---- names, parameters and syntax ----
  [
    "a quote inside a backtick identifier",
    `SELECT \`x" FROM sqlite_master --\` FROM "{T}"`,
    /^Unrecognized name: x" FROM sqlite_master -- at \[1:8\]$/,
  ],
  [
    "a bound parameter",
    `SELECT ip FROM "{T}" WHERE ip = ?`,
    /^Syntax error: Query parameters are not supported/,
  ],
  [
    "a named parameter",
    `SELECT ip FROM "{T}" WHERE ip = @ip`,
    /^Syntax error: Query parameters are not supported/,
  ],
  [
    "a SQLite named parameter",
    `SELECT ip FROM "{T}" WHERE ip = :ip`,
    /^Syntax error: Illegal input character ":"/,
  ],
  [
    "NATURAL JOIN",
    `SELECT * FROM "{T}" NATURAL JOIN "{U}"`,
    /^Syntax error: Expected keyword ON or USING but got end of input/,
  ],
  [
    "an unterminated string",
    `SELECT ip FROM "{T}" WHERE ip = 'open`,
    /^Syntax error: Unclosed string literal/,
  ],

  // ---- work the engine does not take on ----
  [
    "a window function",
    `SELECT ip, row_number() OVER (PARTITION BY location.country ORDER BY ip) FROM "{T}"`,
    /^Analytic functions \(OVER\) are not supported/,
  ],
  [
    "a cartesian product",
    `SELECT count(*) FROM "{T}" a, "{U}" b`,
    /^a join of 2 tables without a join condition is not allowed/,
  ],
  [
    "a join on an inequality alone",
    `SELECT count(*) FROM "{T}" a JOIN "{U}" b ON a.ip > b.ip`,
    /without a join condition is not allowed/,
  ],
  [
    "a RIGHT JOIN",
    `SELECT a.ip FROM "{T}" a RIGHT JOIN "{U}" b ON a.ip = b.ip`,
    /^RIGHT JOIN is not supported/,
  ],
  [
    "a FULL JOIN",
    `SELECT a.ip FROM "{T}" a FULL OUTER JOIN "{U}" b ON a.ip = b.ip`,
    /^FULL JOIN is not supported/,
  ],
  [
    "a correlated subquery",
    `SELECT ip FROM "{T}" a WHERE EXISTS (SELECT 1 FROM "{U}" b WHERE b.ip = a.ip)`,
    /correlated subqueries are not supported/,
  ],
  [
    "a regular expression that is not a literal",
    `SELECT ip FROM "{T}" WHERE REGEXP_MATCH(ip, location.country)`,
    /^REGEXP_MATCH needs its regular expression as a string literal/,
  ],
  [
    "the cross product of two repeated fields",
    `SELECT services.port, protocols FROM "{T}"`,
    /^Cannot query the cross product of repeated fields services and protocols/,
  ],
  [
    "a query longer than the limit",
    `SELECT ip FROM "{T}" WHERE ip IN (${"'1',".repeat(SQL_LIMITS.maxLength / 4)}'1')`,
    new RegExp(`^query is longer than ${SQL_LIMITS.maxLength} characters$`),
  ],
  [
    "nesting deep enough to exhaust a recursive parser",
    `SELECT ${"(".repeat(5000)}1${")".repeat(5000)} FROM "{T}"`,
    new RegExp(`^query is nested more than ${SQL_LIMITS.maxDepth} levels deep`),
  ],
];

describe("job SQL: what it refuses", () => {
  it(`has at least 30 refused statements (${REFUSED.length})`, () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(30);
  });

  it.each(REFUSED)("refuses %s, changing nothing and queueing nothing", async (_what, template, reason) => {
    const sql = withTables(template, await tables());
    const h = harness();
    const before = await databaseState();
    for (const path of ["/api/v1/query", "/api/v1/export"]) {
      const res = await h.fetch("POST", path, { query: sql });
      expect(res.status, path).toBe(400);
      const body = await res.json<Record<string, unknown>>();
      expect(body).toMatchObject({ error_code: 400, error: "query could not be parsed" });
      expect(String(body.detail)).toMatch(reason);
    }
    expect(h.queue.sent).toEqual([]);
    expect(await databaseState()).toEqual(before);
  });
});

/** A SNAPSHOTS binding that records the text of every statement prepared or executed on it. */
function recordingDatabase(db: D1Database): { db: D1Database; statements: string[] } {
  const statements: string[] = [];
  const recording = new Proxy(db, {
    get(target, key) {
      if (key === "prepare" || key === "exec") {
        return (sql: string) => {
          statements.push(sql);
          return key === "prepare" ? target.prepare(sql) : target.exec(sql);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: recording, statements };
}

describe("job SQL: the user's text never reaches a database", () => {
  // A marker in every place user text can be: string literals (with the quote and backslash
  // tricks SQLite and BigQuery read differently), patterns, aliases.
  const MARKER = "zq9marker";
  const QUERIES = [
    // BigQuery reads \' as a quote inside the string: one string literal, no UNION.
    `SELECT ip FROM "{T}" WHERE ip = '${MARKER}\\' UNION SELECT sql FROM sqlite_master --'`,
    `SELECT ip FROM "{T}" WHERE location.country = "${MARKER}'; DROP TABLE jobs; --"`,
    `SELECT ip FROM "{T}" WHERE ip LIKE '%${MARKER}%' OR REGEXP_MATCH(ip, r'${MARKER}\\d')`,
    `SELECT ip AS \`${MARKER}; DELETE FROM jobs --\` FROM "{T}" WHERE services.banner CONTAINS '${MARKER}'`,
  ];

  it("runs SQL-looking strings as plain values, and prepares no statement holding any of it", async () => {
    const names = await tables();
    const recording = recordingDatabase(env.SNAPSHOTS);
    const h = harness({ SNAPSHOTS: recording.db });
    const before = await databaseState();
    const ids: string[] = [];
    for (const query of QUERIES) {
      const res = await h.fetch("POST", "/api/v1/query", { query: withTables(query, names) });
      expect(res.status, query).toBe(200);
      ids.push((await res.json<{ job_id: string }>()).job_id);
    }
    await h.deliver();
    for (const id of ids) {
      // Each ran to success: the strings matched no host, and nothing else ran.
      const page = queryResultsPageSchema.parse(await (await h.fetch("GET", `/api/v1/query/${id}/1`)).json());
      expect(page.rows).toEqual([]);
    }
    expect(recording.statements.length).toBeGreaterThan(QUERIES.length);
    for (const statement of recording.statements) {
      expect(statement).not.toContain(MARKER);
      expect(statement).not.toMatch(/sqlite_master|DROP|DELETE/i);
    }
    // Only the jobs' own records were added: one job row and one (empty) result page each.
    const after = await databaseState();
    expect(after["main:jobs"]).toBe(before["main:jobs"]! + QUERIES.length);
    expect(after["r2:objects"]).toBe(before["r2:objects"]! + QUERIES.length);
    const unchanged = (state: Record<string, number>) =>
      Object.fromEntries(
        Object.entries(state).filter(([key]) => key !== "main:jobs" && key !== "r2:objects"),
      );
    expect(unchanged(after)).toEqual(unchanged(before));
  });
});
