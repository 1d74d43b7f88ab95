import { env } from "cloudflare:workers";
import {
  QUERY_RESULTS_PAGE_SIZE,
  QUERY_RESULTS_RETENTION_MS,
  queryJobSchema,
  queryResultsPageSchema,
  v1ErrorSchema,
  type QueryJob,
  type QueryResultsPage,
} from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { readSnapshotSources } from "../src/snapshots/publish";
import { endOfDay } from "../src/snapshots/build";
import {
  databaseState,
  harness,
  publishedDays,
  seedDatasetAndSnapshots,
  type Harness,
} from "./snapshots-fixture";
import { basicAuth } from "./support/requests";

beforeAll(() => seedDatasetAndSnapshots(4));

interface HostDoc {
  ip: string;
  location: { country?: string; country_code: string; continent?: string };
  autonomous_system?: { asn: number };
  services: unknown[];
}

/** The host documents the ipv4 table of `day` was built from. */
async function hostsOn(day: string): Promise<HostDoc[]> {
  const sources = await readSnapshotSources(env.DB);
  const at = endOfDay(day);
  return sources.hostHistory
    .filter((row) => row.validFrom <= at && (row.validTo === null || row.validTo > at))
    .map((row) => JSON.parse(row.doc) as HostDoc);
}

/** The newest day's ipv4 table and the host documents it was built from. */
async function latestHosts() {
  const days = await publishedDays();
  const day = days.at(-1)!;
  return { table: `ipv4.${day}`, docs: await hostsOn(day), days };
}

/** Pairs of hosts of two lists on the same continent: the rows of a join on it. */
function sameContinent(left: HostDoc[], right: HostDoc[]): [string, string][] {
  return left.flatMap((a) =>
    right
      .filter((b) => a.location.continent != null && b.location.continent === a.location.continent)
      .map((b): [string, string] => [a.ip, b.ip]),
  );
}

async function start(h: Harness, query: string): Promise<QueryJob> {
  const res = await h.fetch("POST", "/api/v1/query", { query });
  expect(res.status).toBe(200);
  return queryJobSchema.parse(await res.json());
}

function json(res: Response): Promise<Record<string, unknown>> {
  return res.json<Record<string, unknown>>();
}

/** A job status that ended as error, saying why. */
function expectFailure(status: Record<string, unknown>, reason: string): void {
  expect(status.status).toBe("error");
  expect(String(status.error_message)).toContain(reason);
  expect(status).not.toHaveProperty("error");
}

const PAGE_NOT_FOUND = { error_code: 404, error: "page not found" };

describe("POST /api/v1/query", () => {
  it("starts a pending job that echoes the SQL as submitted", async () => {
    const h = harness();
    const { table } = await latestHosts();
    const query = `select ip from "${table}"   -- all of them`;
    const job = await start(h, query);
    expect(job.job_id).toMatch(/^job_[0-9a-f]{32}$/);
    expect(job).toEqual({ status: "pending", job_id: job.job_id, configuration: { query } });
    expect(h.queue.sent).toEqual([{ job_id: job.job_id }]);
  });

  it("refuses a body that is not JSON, lacks the query, or has an empty one, queueing nothing", async () => {
    const h = harness();
    const before = await databaseState();
    for (const body of ["not json", {}, { query: "" }, { query: 42 }, [1, 2]]) {
      const res = await h.fetch("POST", "/api/v1/query", body);
      expect(res.status).toBe(400);
      expect(v1ErrorSchema.parse(await res.json()).error_code).toBe(400);
    }
    expect(h.queue.sent).toEqual([]);
    expect(await databaseState()).toEqual(before);
  });

  it("answers 400 query could not be parsed with the reason and its position for SQL the engine refuses", async () => {
    const h = harness();
    const { table } = await latestHosts();
    const before = await databaseState();
    // The query, the reason, and where: the text the position points at, its line and column.
    const refusals: [string, string, string, number, number][] = [
      ["SELECT * FROM sqlite_master", "Not found: Table sqlite_master", "sqlite_master", 1, 15],
      // A wrong argument count is found before the job is queued, not when it runs.
      [
        `SELECT abs(1, 2) FROM "${table}"`,
        "No matching signature for function ABS for argument types: INT64, INT64",
        "abs",
        1,
        8,
      ],
      [`SELECT ip\nFROM "${table}"\nWHERE nosuchcol = 1`, "Unrecognized name: nosuchcol", "nosuchcol", 3, 7],
    ];
    for (const [query, reason, at, line, column] of refusals) {
      const res = await h.fetch("POST", "/api/v1/query", { query });
      expect(res.status, query).toBe(400);
      expect(await res.json()).toEqual({
        error_code: 400,
        error: "query could not be parsed",
        detail: `${reason} at [${line}:${column}]`,
        position: query.indexOf(at),
        line,
        column,
      });
    }
    expect(h.queue.sent).toEqual([]);
    expect(await databaseState()).toEqual(before);
  });
});

describe("query job lifecycle", () => {
  it("is pending until the consumer runs it, then success with typed, one-indexed pages", async () => {
    const h = harness();
    const { table, docs } = await latestHosts();
    const job = await start(
      h,
      `SELECT ip, location.country, autonomous_system.asn, services_count FROM "${table}" ORDER BY ip`,
    );
    const pending = await h.fetch("GET", `/api/v1/query/${job.job_id}`);
    expect(await pending.json()).toEqual({
      status: "pending",
      job_id: job.job_id,
      configuration: job.configuration,
    });
    // A page asked for before the job is done answers the status body.
    const early = await h.fetch("GET", `/api/v1/query/${job.job_id}/1`);
    expect(early.status).toBe(200);
    expect(await early.json()).toEqual({
      status: "pending",
      job_id: job.job_id,
      configuration: job.configuration,
    });

    const outcome = await h.deliver();
    expect(outcome.explicitAcks).toHaveLength(1);
    expect(outcome.retryMessages).toEqual([]);

    const done = await h.fetch("GET", `/api/v1/query/${job.job_id}`);
    expect(await done.json()).toEqual({
      status: "success",
      job_id: job.job_id,
      configuration: job.configuration,
    });

    const res = await h.fetch("GET", `/api/v1/query/${job.job_id}/1`);
    expect(res.status).toBe(200);
    const page: QueryResultsPage = queryResultsPageSchema.parse(await res.json());
    const text = (value: string | number | undefined) => (value === undefined ? null : String(value));
    const expected = [...docs]
      .sort((a, b) => (a.ip < b.ip ? -1 : 1))
      .map((d) => [
        d.ip,
        text(d.location?.country),
        text(d.autonomous_system?.asn),
        String(d.services.length),
      ]);
    expect(page.rows.map((r) => r.f.map((cell) => cell.v))).toEqual(expected);
    expect(page.configuration).toEqual({
      query: job.configuration.query,
      page: 1,
      schema: {
        fields: [
          { name: "ip", type: "STRING", mode: "NULLABLE" },
          { name: "location_country", type: "STRING", mode: "NULLABLE" },
          { name: "autonomous_system_asn", type: "INTEGER", mode: "NULLABLE" },
          { name: "services_count", type: "INTEGER", mode: "NULLABLE" },
        ],
      },
    });
    expect(page.statistics.rows).toBe(docs.length);
    expect(page.statistics.pages).toBe(1);
    const valueBytes = expected
      .flat()
      .reduce((n, v) => n + (v === null ? 0 : new TextEncoder().encode(v).byteLength), 0);
    expect(page.statistics.data_processed).toBe(valueBytes);
  });

  it("gives aggregate and computed columns the type of their values and null for missing ones", async () => {
    const h = harness();
    const { table, docs } = await latestHosts();
    const job = await start(
      h,
      `SELECT location.country_code AS country, count(*) AS hosts, count(*) + 0.5 AS half, NULL AS nothing
         FROM "${table}" GROUP BY location.country_code ORDER BY country`,
    );
    await h.deliver();
    const page = queryResultsPageSchema.parse(
      await json(await h.fetch("GET", `/api/v1/query/${job.job_id}/1`)),
    );
    expect(page.configuration.schema.fields.map((f) => [f.name, f.type])).toEqual([
      ["country", "STRING"],
      ["hosts", "INTEGER"],
      ["half", "FLOAT"],
      ["nothing", "STRING"],
    ]);
    const byCountry = new Map<string, number>();
    for (const d of docs)
      byCountry.set(d.location.country_code, (byCountry.get(d.location.country_code) ?? 0) + 1);
    const countries = [...byCountry.keys()].sort();
    expect(page.rows.map((r) => [r.f[0]!.v, r.f[1]!.v, r.f[2]!.v, r.f[3]!.v])).toEqual(
      countries.map((c) => [c, String(byCountry.get(c)), String(byCountry.get(c)! + 0.5), null]),
    );
  });

  it("splits a large result into full pages of QUERY_RESULTS_PAGE_SIZE rows, order kept across pages", async () => {
    const h = harness();
    const { table, docs, days } = await latestHosts();
    // Hosts of the newest day against those of the day before on the same continent: enough
    // rows for three pages.
    const older = days.at(-2)!;
    const pairs = sameContinent(docs, await hostsOn(older)).sort((x, y) =>
      x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0,
    );
    const total = Math.min(pairs.length, Math.floor(2.5 * QUERY_RESULTS_PAGE_SIZE));
    expect(total).toBeGreaterThan(2 * QUERY_RESULTS_PAGE_SIZE);
    const query = `SELECT a.ip AS a, b.ip AS b FROM "${table}" AS a JOIN "ipv4.${older}" AS b
      ON a.location.continent = b.location.continent ORDER BY a DESC, b LIMIT ${total}`;
    const job = await start(h, query);
    await h.deliver();
    const pages = Math.ceil(total / QUERY_RESULTS_PAGE_SIZE);
    const seen: string[][] = [];
    for (let p = 1; p <= pages; p++) {
      const page = queryResultsPageSchema.parse(
        await json(await h.fetch("GET", `/api/v1/query/${job.job_id}/${p}`)),
      );
      expect(page.configuration.page).toBe(p);
      expect(page.statistics).toMatchObject({ rows: total, pages });
      expect(page.rows).toHaveLength(
        p < pages ? QUERY_RESULTS_PAGE_SIZE : total - (pages - 1) * QUERY_RESULTS_PAGE_SIZE,
      );
      seen.push(...page.rows.map((r) => r.f.map((cell) => cell.v ?? "")));
    }
    expect(seen).toEqual(pairs.slice(0, total));
  });

  it("answers 404 for page 0, a page past the last, and pages that are not decimal numbers", async () => {
    const h = harness();
    const { table } = await latestHosts();
    const job = await start(h, `SELECT ip FROM "${table}"`);
    await h.deliver();
    expect((await h.fetch("GET", `/api/v1/query/${job.job_id}/1`)).status).toBe(200);
    for (const page of ["0", "2", "-1", "1.5", "abc", "1e0", "99999999999"]) {
      const res = await h.fetch("GET", `/api/v1/query/${job.job_id}/${page}`);
      expect(res.status, page).toBe(404);
      expect(await res.json()).toEqual(PAGE_NOT_FOUND);
    }
  });

  it("gives an empty result one empty page", async () => {
    const h = harness();
    const { table } = await latestHosts();
    const job = await start(h, `SELECT ip FROM "${table}" WHERE ip = 'no such host'`);
    await h.deliver();
    const page = queryResultsPageSchema.parse(
      await json(await h.fetch("GET", `/api/v1/query/${job.job_id}/1`)),
    );
    expect(page.rows).toEqual([]);
    expect(page.statistics).toEqual({ rows: 0, pages: 1, data_processed: 0 });
    expect(page.configuration.schema.fields).toEqual([{ name: "ip", type: "STRING", mode: "NULLABLE" }]);
  });

  it("ends as error with the engine's reason when the SQL fails at run time; pages answer that status", async () => {
    const h = harness();
    const { table } = await latestHosts();
    // Plans (the types fit); every host's divisor is 0 once it runs.
    const job = await start(h, `SELECT ip, 100 / (services_count - services_count) FROM "${table}"`);
    await h.deliver();
    const status = await json(await h.fetch("GET", `/api/v1/query/${job.job_id}`));
    expectFailure(status, "division by zero");
    expect(status).toEqual({
      status: "error",
      job_id: job.job_id,
      configuration: job.configuration,
      error_message: status.error_message,
    });
    expect(await json(await h.fetch("GET", `/api/v1/query/${job.job_id}/1`))).toEqual(status);
    expect((await env.EXPORTS.list({ prefix: `query-results/${job.job_id}/` })).objects).toEqual([]);
  });

  it("ends as error when the result has more rows than the job may return", async () => {
    const h = harness({ QUERY_MAX_ROWS: "2" });
    const { table, docs } = await latestHosts();
    expect(docs.length).toBeGreaterThan(2);
    const job = await start(h, `SELECT ip FROM "${table}"`);
    await h.deliver();
    const status = await json(await h.fetch("GET", `/api/v1/query/${job.job_id}`));
    expectFailure(status, "the result has more than 2 rows; narrow the query or use an export job");
    expect((await env.EXPORTS.list({ prefix: `query-results/${job.job_id}/` })).objects).toEqual([]);
  });

  it("ends as error when the query runs past its time limit, while a quick one finishes within it", async () => {
    const { table, docs, days } = await latestHosts();
    const older = `ipv4.${days.at(-2)}`;
    // A three-way join on the continent: several hundred thousand joined rows to count, most of
    // a second of work, where a lookup of one host takes a few milliseconds.
    const heavy = `SELECT count(*) FROM "${table}" a JOIN "${older}" b ON a.location.continent = b.location.continent
      JOIN "${table}" c ON c.location.continent = b.location.continent`;
    const perContinent = (hosts: HostDoc[]) => {
      const counts = new Map<string, number>();
      for (const { location } of hosts)
        if (location.continent != null)
          counts.set(location.continent, (counts.get(location.continent) ?? 0) + 1);
      return counts;
    };
    const olderCounts = perContinent(await hostsOn(days.at(-2)!));
    const expectedCount = [...perContinent(docs)].reduce(
      (sum, [continent, n]) => sum + n * n * (olderCounts.get(continent) ?? 0),
      0,
    );
    expect(expectedCount).toBeGreaterThan(100_000);

    const limited = harness({ QUERY_TIMEOUT_MS: "200" });
    const slow = await start(limited, heavy);
    await limited.deliver();
    const status = await json(await limited.fetch("GET", `/api/v1/query/${slow.job_id}`));
    expectFailure(status, "query exceeded the 0.2 s time limit");
    expect((await env.EXPORTS.list({ prefix: `query-results/${slow.job_id}/` })).objects).toEqual([]);

    // A time limit does not get in the way of ordinary jobs: a lookup of one host finishes.
    const short = harness({ QUERY_TIMEOUT_MS: "5000" });
    const quick = await start(short, `SELECT ip FROM "${table}" WHERE ip = '${docs[0]!.ip}'`);
    await short.deliver();
    expect(await json(await short.fetch("GET", `/api/v1/query/${quick.job_id}`))).toMatchObject({
      status: "success",
    });

    // The same heavy query is valid SQL that finishes under the default limit.
    const unlimited = harness();
    const full = await start(unlimited, heavy);
    await unlimited.deliver();
    const page = queryResultsPageSchema.parse(
      await json(await unlimited.fetch("GET", `/api/v1/query/${full.job_id}/1`)),
    );
    expect(page.rows).toEqual([{ f: [{ v: String(expectedCount) }] }]);
  });

  it("runs a job once even when its message is delivered twice", async () => {
    const h = harness();
    const { table } = await latestHosts();
    const job = await start(h, `SELECT ip FROM "${table}"`);
    h.queue.sent.push({ job_id: job.job_id });
    const outcome = await h.deliver();
    expect(outcome.explicitAcks).toHaveLength(2);
    const row = await env.DB.prepare("SELECT status, result_rows FROM jobs WHERE id = ?")
      .bind(job.job_id)
      .first();
    expect(row).toMatchObject({ status: "success" });
    const pages = await env.EXPORTS.list({ prefix: `query-results/${job.job_id}/` });
    expect(pages.objects.map((o) => o.key)).toEqual([`query-results/${job.job_id}/1.json`]);
  });

  it("acknowledges and drops messages that name no job or are malformed", async () => {
    const h = harness();
    const before = await databaseState();
    h.queue.sent.push({ job_id: `job_${"0".repeat(32)}` }, { nonsense: true } as never);
    const outcome = await h.deliver();
    expect(outcome.explicitAcks).toHaveLength(2);
    expect(await databaseState()).toEqual(before);
  });
});

describe("query job retention", () => {
  it("keeps results readable for 24 hours after completion, then answers 404", async () => {
    const h = harness();
    const { table } = await latestHosts();
    const job = await start(h, `SELECT ip FROM "${table}"`);
    h.clock.advance(5_000);
    await h.deliver();
    h.clock.advance(QUERY_RESULTS_RETENTION_MS - 1);
    expect((await h.fetch("GET", `/api/v1/query/${job.job_id}`)).status).toBe(200);
    expect((await h.fetch("GET", `/api/v1/query/${job.job_id}/1`)).status).toBe(200);
    h.clock.advance(1);
    for (const path of [`/api/v1/query/${job.job_id}`, `/api/v1/query/${job.job_id}/1`]) {
      const res = await h.fetch("GET", path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(PAGE_NOT_FOUND);
    }
  });

  it("has the scheduled sweep delete expired jobs and their pages, and no others", async () => {
    const h = harness();
    const { table } = await latestHosts();
    const old = await start(h, `SELECT ip FROM "${table}"`);
    await h.deliver();
    h.clock.advance(QUERY_RESULTS_RETENTION_MS / 2);
    const fresh = await start(h, `SELECT ip FROM "${table}"`);
    await h.deliver();
    h.clock.advance(QUERY_RESULTS_RETENTION_MS / 2);
    await h.scheduled();
    const ids = await env.DB.prepare("SELECT id FROM jobs WHERE id IN (?, ?)")
      .bind(old.job_id, fresh.job_id)
      .all();
    expect(ids.results).toEqual([{ id: fresh.job_id }]);
    expect((await env.EXPORTS.list({ prefix: `query-results/${old.job_id}/` })).objects).toEqual([]);
    expect((await env.EXPORTS.list({ prefix: `query-results/${fresh.job_id}/` })).objects).toHaveLength(1);
  });

  it("has the sweep end a job left pending for an hour as error", async () => {
    const h = harness();
    const { table } = await latestHosts();
    const job = await start(h, `SELECT ip FROM "${table}"`);
    h.queue.sent.length = 0;
    h.clock.advance(60 * 60 * 1000);
    await h.scheduled();
    expectFailure(await json(await h.fetch("GET", `/api/v1/query/${job.job_id}`)), "work was lost");
  });
});

describe("query job access", () => {
  it("answers 404 for an unknown job, an export job's id, and another account's job", async () => {
    const other = {
      api_id: "other-team",
      api_secret: "other-secret",
      login: "other",
      email: "o@x",
      allowance: 10,
    };
    const accounts = [...(JSON.parse(env.ORIGIN_ACCOUNTS) as unknown[]), other];
    const h = harness({ ORIGIN_ACCOUNTS: JSON.stringify(accounts) });
    const { table } = await latestHosts();
    const job = await start(h, `SELECT ip FROM "${table}"`);
    await h.deliver();
    const exportStart = await h.fetch("POST", "/api/v1/export", { query: `SELECT ip FROM "${table}"` });
    const exportId = (await exportStart.json<{ job_id: string }>()).job_id;
    const asOther = basicAuth(other.api_id, other.api_secret);
    const refusals: [string, string | undefined][] = [
      [`/api/v1/query/job_${"f".repeat(32)}`, undefined],
      ["/api/v1/query/whatever", undefined],
      [`/api/v1/query/${exportId}`, undefined],
      [`/api/v1/query/${job.job_id}`, asOther],
      [`/api/v1/query/${job.job_id}/1`, asOther],
    ];
    for (const [path, auth] of refusals) {
      const res = await h.fetch("GET", path, undefined, auth);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual(PAGE_NOT_FOUND);
    }
  });
});

describe("query jobs through the real queue", () => {
  it("finishes a job started through the worker's fetch handler", async () => {
    const { table, docs } = await latestHosts();
    const { call } = await import("./support/requests");
    const startRes = await call("POST", "/api/v1/query", {
      body: { query: `SELECT count(*) AS n FROM "${table}"` },
    });
    const job = queryJobSchema.parse(await startRes.json());
    let status = job.status;
    for (let i = 0; i < 100 && status === "pending"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = queryJobSchema.parse(await (await call("GET", `/api/v1/query/${job.job_id}`)).json()).status;
    }
    expect(status).toBe("success");
    const page = queryResultsPageSchema.parse(
      await (await call("GET", `/api/v1/query/${job.job_id}/1`)).json(),
    );
    expect(page.rows).toEqual([{ f: [{ v: String(docs.length) }] }]);
  });
});
