// The queue consumer always returns: a job ends within its time limit plus a few seconds
// whatever its query or its storage does, so the queue delivers the next job at once.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { JOB_GRACE_MS } from "../src/jobs/handlers";
import { harness, seedDatasetAndSnapshots } from "./snapshots-fixture";
import { call } from "./support/requests";

beforeAll(() => seedDatasetAndSnapshots(1));

/** The default time limit of a query job (wrangler.jsonc sets no QUERY_TIMEOUT_MS). */
const LIMIT_MS = 30_000;

const chain = (n: number, select: string, tail = "") =>
  `SELECT ${select} FROM ipv4 t0 ${Array.from(
    { length: n - 1 },
    (_, i) => `JOIN ipv4 t${i + 1} ON t${i}.location.continent = t${i + 1}.location.continent`,
  ).join(" ")} ${tail}`;
const inflated = (column: string, characters: number) =>
  `REGEXP_REPLACE(${column}, r'', '${"x".repeat(characters)}')`;
const HUGE_PATTERN = `(?is)${".{0,999}".repeat(30)}#`;

/** The worst queries seen, in the order sent, and whether the origin refuses them before queueing. */
const WORST: { query: string; refused: boolean }[] = [
  {
    query: `SELECT ip FROM ipv4 WHERE REGEXP_MATCH(services.http.response.body, r'${HUGE_PATTERN}') OR REGEXP_MATCH(services.banner, r'${HUGE_PATTERN}')`,
    refused: true,
  },
  { query: `SELECT ${inflated("ip", 2_000)} FROM ipv4`, refused: false },
  { query: chain(2, `${inflated("t0.ip", 1_400)} AS x`, "ORDER BY x DESC LIMIT 5000"), refused: false },
  // Runs into its time limit.
  { query: chain(4, "COUNT(*)"), refused: false },
];

async function start(query: string): Promise<Response> {
  return call("POST", "/api/v1/query", { body: { query } });
}

/** Polls a job until it is no longer pending, or `withinMs` has passed (then it answers pending). */
async function ended(jobId: string, withinMs: number): Promise<Record<string, unknown>> {
  const started = Date.now();
  for (;;) {
    const status = await (await call("GET", `/api/v1/query/${jobId}`)).json<Record<string, unknown>>();
    if (status.status !== "pending" || Date.now() - started > withinMs) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the queue consumer", () => {
  it(
    "after the worst queries, each ended within its limit plus 5 s, SELECT 1 succeeds within seconds",
    { timeout: 4 * (LIMIT_MS + 10_000) },
    async () => {
      for (const { query, refused } of WORST) {
        const sent = Date.now();
        const res = await start(query);
        expect(res.status).toBe(refused ? 400 : 200);
        if (refused) continue;
        const { job_id: jobId } = await res.json<{ job_id: string }>();
        const status = await ended(jobId, LIMIT_MS + 5_000);
        expect(["success", "error"]).toContain(status.status);
        expect(Date.now() - sent).toBeLessThan(LIMIT_MS + 5_000);
      }
      const sent = Date.now();
      const res = await start("SELECT 1 AS one");
      expect(res.status).toBe(200);
      const status = await ended((await res.json<{ job_id: string }>()).job_id, 5_000);
      expect(status.status).toBe("success");
      expect(Date.now() - sent).toBeLessThan(5_000);
    },
  );

  it("ends a job whose storage never answers at its limit plus the grace, and returns", async () => {
    const limitMs = 1_000;
    // Every read of a snapshot table hangs; the catalog (snapshot_days, snapshot_meta) answers.
    const hanging = {
      bind: () => hanging,
      first: () => new Promise<never>(() => undefined),
      all: () => new Promise<never>(() => undefined),
      raw: () => new Promise<never>(() => undefined),
      run: () => new Promise<never>(() => undefined),
    };
    const snapshots = new Proxy(env.SNAPSHOTS, {
      get(target, property) {
        if (property === "prepare")
          return (sql: string) => (/_rows\b/.test(sql) ? hanging : target.prepare(sql));
        const value: unknown = Reflect.get(target, property);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const h = harness({ QUERY_TIMEOUT_MS: String(limitMs), SNAPSHOTS: snapshots });
    const res = await h.fetch("POST", "/api/v1/query", { query: "SELECT ip FROM ipv4" });
    const { job_id: jobId } = await res.json<{ job_id: string }>();

    const started = Date.now();
    const outcome = await h.deliver();
    const elapsed = Date.now() - started;

    expect(elapsed).toBeGreaterThanOrEqual(limitMs + JOB_GRACE_MS - 100);
    expect(elapsed).toBeLessThan(limitMs + 5_000);
    expect(outcome.retryMessages).toEqual([]);
    expect(outcome.explicitAcks).toHaveLength(1);
    const status = await (await h.fetch("GET", `/api/v1/query/${jobId}`)).json<Record<string, unknown>>();
    expect(status).toMatchObject({ status: "error", error_message: "the job exceeded its 1 s time limit" });
  });
});
