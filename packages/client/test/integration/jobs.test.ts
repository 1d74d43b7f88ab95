import { QUERY_RESULTS_PAGE_SIZE } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { abortableSleep } from "../../src/abortable-sleep";
import {
  InvalidQueryError,
  JobFailedError,
  JobNotReadyError,
  NotFoundError,
  type JobProgress,
  type WaitOptions,
} from "../../src/index";
import { createTenant, edgeClient, seedOriginWithSnapshots } from "./support/stack";

// Jobs run for real: the origin's queue consumer picks them up, so the client polls with
// real (short) sleeps here.
const FAST: WaitOptions = { pollIntervalMs: 100, maxPollIntervalMs: 300, timeoutMs: 20_000 };
const JOB_TEST = { timeout: 30_000 };

let client: ReturnType<typeof edgeClient>;
let tables: string[];
let latest: string;
beforeAll(async () => {
  await seedOriginWithSnapshots();
  client = edgeClient(await createTenant(), { sleep: abortableSleep });
  tables = (await client.query.seriesDetails("ipv4")).tables;
  latest = tables.at(-1) ?? "";
});

describe("query definitions", () => {
  it("lists the series and a series' fields and daily tables", async () => {
    expect((await client.query.series()).series).toContain("ipv4");
    const details = await client.query.seriesDetails("ipv4");
    expect(details.definition.fields.map((f) => f.name)).toContain("ip");
    expect(details.tables.every((t) => t.startsWith("ipv4."))).toBe(true);
  });

  it("throws NotFoundError for a series that does not exist", async () => {
    await expect(client.query.seriesDetails("nope")).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("client.query", () => {
  it("run starts, waits with progress and returns rows typed by the schema", JOB_TEST, async () => {
    const progress: JobProgress[] = [];
    const hosts = await client.search("ipv4", "*", { fields: ["ip"] });
    const result = await client.query.run(
      `select ip, autonomous_system.asn as asn, location.country as country from "${latest}" order by ip`,
      { ...FAST, onProgress: (p) => progress.push(p) },
    );
    expect(result.schema.map((f) => [f.name, f.type])).toEqual([
      ["ip", "STRING"],
      ["asn", "INTEGER"],
      ["country", "STRING"],
    ]);
    expect(result.totalRows).toBe(hosts.metadata.count);
    expect(result.rows).toHaveLength(hosts.metadata.count);
    for (const row of result.rows) {
      expect(typeof row.ip).toBe("string");
      expect(typeof row.asn).toBe("number");
    }
    expect(progress[0]).toMatchObject({ jobId: result.jobId, status: "pending", polls: 0 });
    expect(progress.at(-1)?.status).toBe("success");
  });

  it("start, status, wait, results and rows read a result of several pages", JOB_TEST, async () => {
    const four = [latest, ...tables.slice(-4, -1)];
    expect(four).toHaveLength(4);
    // The hosts of four days paired on their time zone (a join needs an equality): the hosts
    // here share one, so every combination is a row, enough for several pages.
    const [a, b, c, d] = four;
    const sql = `select a.ip as a, b.ip as b, c.ip as c, d.ip as d from "${a}" as a
      join "${b}" as b on a.location.timezone = b.location.timezone
      join "${c}" as c on b.location.timezone = c.location.timezone
      join "${d}" as d on c.location.timezone = d.location.timezone`;
    const started = await client.query.start(sql);
    expect(started).toMatchObject({ status: "pending", configuration: { query: sql } });
    expect((await client.query.status(started.job_id)).job_id).toBe(started.job_id);
    const done = await client.query.wait(started.job_id, FAST);
    expect(done.status).toBe("success");

    const first = await client.query.results(done.job_id, 1);
    expect(first.statistics.rows).toBeGreaterThan(QUERY_RESULTS_PAGE_SIZE);
    expect(first.statistics.pages).toBe(Math.ceil(first.statistics.rows / QUERY_RESULTS_PAGE_SIZE));
    let count = 0;
    const seen = new Set<string>();
    for await (const row of client.query.rows(done.job_id)) {
      count += 1;
      seen.add([row.a, row.b, row.c, row.d].join());
    }
    expect(count).toBe(first.statistics.rows);
    expect(seen.size).toBe(count);
  });

  it("run stops reading pages at maxRows", JOB_TEST, async () => {
    const result = await client.query.run(`select ip from "${latest}"`, { ...FAST, maxRows: 2 });
    expect(result.rows).toHaveLength(2);
    expect(result.totalRows).toBeGreaterThan(2);
  });

  it("results of a job that is still running throw JobNotReadyError", JOB_TEST, async () => {
    const started = await client.query.start(`select ip from "${latest}"`);
    const error = await client.query.results(started.job_id, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobNotReadyError);
    expect((error as JobNotReadyError).jobId).toBe(started.job_id);
    await client.query.wait(started, FAST);
  });

  it("throws JobFailedError with the engine's reason for SQL that fails when run", JOB_TEST, async () => {
    // Plans (the types fit); every host's divisor is 0 once it runs.
    const error = await client.query
      .run(`select 1 / (services_count - services_count) from "${latest}"`, FAST)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect((error as JobFailedError).jobStatus).toBe("error");
    expect((error as JobFailedError).message).toContain("division by zero");
  });

  it("throws InvalidQueryError saying why for SQL the service refuses to start", async () => {
    const refusals: [string, string][] = [
      ["select * from sqlite_master", "Not found: Table sqlite_master"],
      // A wrong argument count is found before the job starts, not when it runs.
      [`select abs(1, 2) from "${latest}"`, "No matching signature for function ABS"],
    ];
    for (const [sql, reason] of refusals) {
      const error = await client.query.start(sql).catch((e: unknown) => e);
      expect(error, sql).toBeInstanceOf(InvalidQueryError);
      expect((error as InvalidQueryError).message).toContain(reason);
    }
  });

  it("throws NotFoundError for a job that does not exist", async () => {
    await expect(client.query.status("job_00000000000000000000000000000000")).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it("stops waiting when the signal aborts, leaving the job running", JOB_TEST, async () => {
    const controller = new AbortController();
    const started = await client.query.start(`select ip from "${latest}"`);
    const waiting = client.query.wait(started, { ...FAST, pollIntervalMs: 5_000, signal: controller.signal });
    controller.abort(new Error("no longer needed"));
    await expect(waiting).rejects.toThrow("no longer needed");
    expect((await client.query.wait(started, FAST)).status).toBe("success");
  });
});

describe("client.export", () => {
  it("run waits for the export and returns download paths the client can read", JOB_TEST, async () => {
    const hosts = await client.search("ipv4", "*", { fields: ["ip"] });
    const { job, downloadPaths } = await client.export.run(
      { query: `select ip from "${latest}"`, format: "json" },
      FAST,
    );
    expect(job.status).toBe("success");
    expect(downloadPaths.length).toBeGreaterThan(0);
    let text = "";
    for (const path of downloadPaths) text += await (await client.download(path)).text();
    const ips = text
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { ip: string }).ip);
    expect(ips.sort()).toEqual(hosts.results.map((r) => String(r.ip)).sort());
  });

  it(
    "start sends the options (delimeter spelled as the spec spells it) and status reads them back",
    JOB_TEST,
    async () => {
      const started = await client.export.start({
        query: `select ip from "${latest}"`,
        delimiter: ";",
        headers: false,
      });
      expect(started.configuration).toMatchObject({ format: "csv", delimiter: ";", headers: false });
      const done = await client.export.wait(started.job_id, FAST);
      expect((await client.export.status(done.job_id)).download_paths).toEqual(done.download_paths);
    },
  );

  it("throws JobFailedError for an export whose SQL fails when run", JOB_TEST, async () => {
    const error = await client.export
      .run({ query: `select ip, 1 / (services_count - services_count) from "${latest}"` }, FAST)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect((error as JobFailedError).message).toContain("ended as error");
    expect((error as JobFailedError).message).toContain("division by zero");
  });
});

describe("client.data", () => {
  it("lists series, a series' scans, and a scan's files", async () => {
    const list = await client.data.series();
    const [seriesId] = Object.keys(list.raw_series);
    expect(seriesId).toBeDefined();
    const details = await client.data.seriesDetails(seriesId ?? "");
    expect(details.id).toBe(seriesId);
    const result = await client.data.result(details.id, details.results.latest.id);
    expect(Object.keys(result.files).length).toBeGreaterThan(0);
  });

  it("throws NotFoundError for an unknown series or scan", async () => {
    await expect(client.data.seriesDetails("nope")).rejects.toBeInstanceOf(NotFoundError);
    const list = await client.data.series();
    const [seriesId = ""] = Object.keys(list.raw_series);
    await expect(client.data.result(seriesId, "19990101T0000")).rejects.toBeInstanceOf(NotFoundError);
  });
});
