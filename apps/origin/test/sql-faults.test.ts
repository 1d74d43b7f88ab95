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
        expect(String(status.error_message)).toMatch(/time limit|more than|longer than|rows/);
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
