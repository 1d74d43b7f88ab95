import { beforeAll, describe, expect, it } from "vitest";
import { planJobSql } from "../src/jobs/job-sql";
import { env } from "cloudflare:workers";
import { describeSqlError } from "@scangate/sql";
import { harness, seedDatasetAndSnapshots, type Harness } from "./snapshots-fixture";

/**
 * The fault suite of query jobs: the worst queries the planner accepts run while other routes
 * are probed. Every probe must be answered, some while the job is still running (the job
 * yields between bounded slices of work, so it cannot hold the isolate), and every job must end
 * within its time limit plus 5 s, as `error` with a message saying why, or as `success`.
 *
 * The test dataset is small (160 hosts), so the worst queries here multiply it: joins on
 * low-cardinality keys make millions of rows from it, which is what a cartesian product of the
 * 100,000-host dataset would be at a smaller scale.
 */

const LIMIT_MS = 1_500;

/** One low-cardinality key joined n times: about (hosts per continent)^n rows. */
function chain(n: number, select: string, where = ""): string {
  const aliases = Array.from({ length: n }, (_, i) => `t${i}`);
  const joins = aliases
    .slice(1)
    .map((alias, i) => `JOIN ipv4 ${alias} ON ${aliases[i]}.location.continent = ${alias}.location.continent`)
    .join(" ");
  return `SELECT ${select} FROM ipv4 t0 ${joins}${where ? ` WHERE ${where}` : ""}`;
}

const nested = (depth: number) => `${"(1 + ".repeat(depth)}t0.services_count${")".repeat(depth)}`;

/**
 * Catastrophic patterns for a backtracking engine: RE2's work is the value's length times the
 * program's size, and each `.{0,999}` is about 2,000 instructions. Thirty of them compiled for
 * seconds and then took seconds per response body; the largest that is accepted is one.
 */
const HUGE_PATTERN = `(?is)${".{0,999}".repeat(30)}#`;
const LARGEST_PATTERN = "(?is).{0,999}.{0,400}#";

/** Every row made 2,000 characters longer for each character of an ip (about 32,000 each). */
const inflated = (column: string, characters: number) =>
  `REGEXP_REPLACE(${column}, r'', '${"x".repeat(characters)}')`;

const WORST: [string, string][] = [
  ["a four-way join producing millions of rows", chain(4, "COUNT(*)")],
  ["group_concat over a three-way join", chain(3, "GROUP_CONCAT(t2.ip)")],
  [
    "a pathological regular expression over a join",
    chain(3, "COUNT(*)", "REGEXP_MATCH(CONCAT(t0.ip, t1.ip, t2.ip), r'^(1|11|111)*(2|22)*$')"),
  ],
  [
    "a pathological LIKE over a join",
    chain(3, "COUNT(*)", "CONCAT(t0.ip, t1.ip, t2.ip) LIKE '%1%1%1%1%1%1%1%1%1%1%1%1%1%2'"),
  ],
  ["a deeply nested expression over a join", chain(3, `SUM(${nested(60)})`)],
  [
    "a flattened repeated field sorted without a limit over a join",
    chain(2, "t0.ip, t1.services.banner", "t1.services.port > 0") + " ORDER BY 2",
  ],
  [
    "the largest accepted pattern over response bodies and banners",
    `SELECT ip FROM ipv4 WHERE REGEXP_MATCH(services.http.response.body, r'${LARGEST_PATTERN}') OR REGEXP_MATCH(services.banner, r'${LARGEST_PATTERN}')`,
  ],
  [
    "the largest accepted pattern over a join",
    chain(3, "COUNT(*)", `REGEXP_MATCH(CONCAT(t0.ip, t1.ip, t2.ip), r'${LARGEST_PATTERN}')`),
  ],
  ["every row inflated by an empty pattern's replacement", `SELECT ${inflated("ip", 2_000)} FROM ipv4`],
  ["inflated rows over a join", chain(2, inflated("t0.ip", 2_000))],
  [
    "a sort of 5,000 inflated rows",
    chain(2, `${inflated("t0.ip", 1_400)} AS x`) + " ORDER BY x DESC LIMIT 5000",
  ],
];

interface Probe {
  path: string;
  status: number;
  /** Whether the job was still running when the probe's answer arrived. */
  duringJob: boolean;
}

async function startJob(h: Harness, query: string): Promise<string> {
  const res = await h.fetch("POST", "/api/v1/query", { query });
  expect(res.status).toBe(200);
  return (await res.json<{ job_id: string }>()).job_id;
}

beforeAll(() => seedDatasetAndSnapshots(1));

describe("the worst accepted queries", () => {
  it.each(WORST)("%s is accepted by the planner", async (_name, sql) => {
    const planned = await planJobSql(env.SNAPSHOTS, sql);
    expect(planned.ok ? "accepted" : describeSqlError(planned.error)).toBe("accepted");
  });

  it.each(WORST)(
    "%s: other routes keep answering and the job ends within its limit plus 5 s",
    { timeout: 20_000 },
    async (_name, sql) => {
      const h = harness({ QUERY_TIMEOUT_MS: String(LIMIT_MS) });
      const jobId = await startJob(h, sql);
      const started = Date.now();
      let running = true;
      const consumer = h.deliver().finally(() => {
        running = false;
      });
      const probes: Probe[] = [];
      const paths = ["/api/v1/account", "/api/v2/hosts/search?q=services.port%3A22&per_page=5"];
      while (running) {
        // A client's next request reaches workerd through its sockets, which the runtime reads
        // between timer events. These probes are calls inside the isolate instead, and back to
        // back they would never let the event loop reach its sockets or timers (the job's pause
        // included): a load no client could make. One millisecond between rounds restores it.
        await new Promise((resolve) => setTimeout(resolve, 1));
        for (const path of paths) {
          const res = await h.fetch("GET", path);
          await res.arrayBuffer();
          probes.push({ path, status: res.status, duringJob: running });
        }
      }
      await consumer;
      const elapsed = Date.now() - started;

      expect(probes.every((p) => p.status === 200)).toBe(true);
      // Answered while the job was running, not queued behind it.
      expect(probes.filter((p) => p.duringJob).length).toBeGreaterThanOrEqual(2);
      expect(elapsed).toBeLessThan(LIMIT_MS + 5_000);

      const status = await (await h.fetch("GET", `/api/v1/query/${jobId}`)).json<Record<string, unknown>>();
      expect(["success", "error"]).toContain(status.status);
      if (status.status === "error") {
        expect(String(status.error_message)).toMatch(/time limit|more than|longer than|larger than|rows/);
      }
    },
  );
});

describe("queries whose cost is known to be unbounded at the start", () => {
  it.each([
    [
      "a cartesian join",
      "select count(*) from ipv4 a, ipv4 b, ipv4 c, ipv4 d",
      /a join of 4 tables without a join condition/,
    ],
    [
      "a cross join",
      "select count(*) from ipv4 a cross join ipv4 b",
      /a join of 2 tables without a join condition/,
    ],
    [
      "a correlated subquery over the largest table",
      "select ip from ipv4 a where a.services_count > (select avg(b.services_count) from ipv4 b where b.location.country = a.location.country)",
      /correlated subqueries are not supported/,
    ],
    [
      "a regular expression that is not a literal",
      "select ip from ipv4 where regexp_match(ip, ip)",
      /literal/,
    ],
    ["a LIKE pattern that is not a literal", "select ip from ipv4 where ip like ip", /literal/],
    [
      "a catastrophic pattern over response bodies",
      `SELECT ip FROM ipv4 WHERE REGEXP_MATCH(services.http.response.body, r'${HUGE_PATTERN}')`,
      /^Cannot parse regular expression: pattern too large - compile failed \(59943 instructions, more than 3000: SQL_LIMITS.maxRegexProgram\) at \[1:/,
    ],
    [
      "the same pattern over bodies or banners",
      `SELECT ip FROM ipv4 WHERE REGEXP_MATCH(services.http.response.body, r'${HUGE_PATTERN}') OR REGEXP_MATCH(services.banner, r'${HUGE_PATTERN}')`,
      /pattern too large/,
    ],
    [
      "a pattern just past the bound",
      `SELECT ip FROM ipv4 WHERE REGEXP_MATCH(ip, r'(?s).{0,999}.{0,999}')`,
      /pattern too large - compile failed \(3998 instructions/,
    ],
    [
      "a LIKE pattern past the bound",
      `SELECT ip FROM ipv4 WHERE ip LIKE '%${"x".repeat(3_100)}%'`,
      /LIKE pattern: pattern too large/,
    ],
    [
      "a backreference, which RE2 does not have",
      String.raw`SELECT ip FROM ipv4 WHERE REGEXP_MATCH(ip, r'(\d)\1')`,
      /invalid escape sequence/,
    ],
    [
      "a lookahead, which RE2 does not have",
      "SELECT ip FROM ipv4 WHERE REGEXP_MATCH(ip, r'1(?=2)')",
      /unsupported Perl syntax/,
    ],
    [
      "a lookbehind, which RE2 does not have",
      "SELECT ip FROM ipv4 WHERE REGEXP_MATCH(ip, r'(?<=1)2')",
      /invalid named capture/,
    ],
  ])("%s is refused with a 400 before it is queued", async (_name, query, detail) => {
    const h = harness();
    const res = await h.fetch("POST", "/api/v1/query", { query });
    expect(res.status).toBe(400);
    const body = await res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ error_code: 400, error: "query could not be parsed" });
    expect(String(body.detail)).toMatch(detail);
    expect(h.queue.sent).toEqual([]);
  });
});

/** Runs one job through the consumer (limits as given) and answers its status body. */
async function jobOutcome(
  query: string,
  overrides: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const h = harness(overrides);
  const jobId = await startJob(h, query);
  await h.deliver();
  return (await h.fetch("GET", `/api/v1/query/${jobId}`)).json<Record<string, unknown>>();
}

describe("work and memory a query builds are counted", () => {
  it("a pattern's work over a long value is charged before it runs, and past one row's bound the job ends", async () => {
    const status = await jobOutcome(
      `SELECT ip FROM ipv4 WHERE REGEXP_MATCH(${inflated("ip", 300)}, r'${LARGEST_PATTERN}')`,
    );
    expect(status).toMatchObject({ status: "error" });
    expect(String(status.error_message)).toMatch(
      /^REGEXP_MATCH over a value of \d+ characters with a pattern of 2801 instructions needs more than 8000000 steps of work \(SQL_LIMITS.maxRowSteps\); narrow the input or simplify the pattern$/,
    );
  });

  it("REGEXP_REPLACE(ip, r'', 2,000 characters) over every host ends as error at the page bound", async () => {
    const sent = Date.now();
    const status = await jobOutcome(`SELECT ${inflated("ip", 2_000)} FROM ipv4`);
    expect(Date.now() - sent).toBeLessThan(30_000 + 5_000);
    expect(status).toMatchObject({
      status: "error",
      error_message: `a result page (1000 rows) is larger than ${4 * 1024 * 1024} bytes; select fewer or shorter values, or use an export job`,
    });
  });

  it("a sort of 5,000 rows of 22,000 characters ends as error instead of holding them", async () => {
    const status = await jobOutcome(
      chain(2, `${inflated("t0.ip", 1_400)} AS x`) + " ORDER BY x DESC LIMIT 5000",
    );
    expect(status).toMatchObject({
      status: "error",
      error_message: `the query needs more than ${32 * 1024 * 1024} bytes held in memory by ORDER BY, GROUP BY, DISTINCT and JOIN (SQL_LIMITS.maxHeldBytes); narrow the query`,
    });
  });

  it("a page of 1,000 inflated rows past 4 MiB ends as error", async () => {
    const status = await jobOutcome(chain(2, inflated("t0.ip", 2_000)));
    expect(status).toMatchObject({
      status: "error",
      error_message: `a result page (1000 rows) is larger than ${4 * 1024 * 1024} bytes; select fewer or shorter values, or use an export job`,
    });
  });

  it("a result past QUERY_MAX_BYTES ends as error, points at exports and keeps no pages", async () => {
    const status = await jobOutcome(chain(2, "t0.ip"), { QUERY_MAX_BYTES: "30000" });
    expect(status).toMatchObject({
      status: "error",
      error_message: "the result is larger than 30000 bytes; narrow the query or use an export job",
    });
    const pages = await env.EXPORTS.list({ prefix: `query-results/${String(status.job_id)}/` });
    expect(pages.objects).toEqual([]);
  });
});
