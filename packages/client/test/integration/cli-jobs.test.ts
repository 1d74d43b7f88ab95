import { beforeAll, describe, expect, it } from "vitest";
import { abortableSleep } from "../../src/abortable-sleep";
import { cli, credentials } from "./support/memory-io";
import { createTenant, edgeClient, seedOriginWithSnapshots } from "./support/stack";

// The CLI's job commands against real jobs (the origin's queue consumer runs them).
const JOB_TEST = { timeout: 30_000 };
const sleep = abortableSleep;

let creds: string[];
let latest: string;
let hostCount: number;
beforeAll(async () => {
  await seedOriginWithSnapshots();
  const tenant = await createTenant();
  creds = credentials(tenant);
  const client = edgeClient(tenant);
  latest = (await client.query.seriesDetails("ipv4")).tables.at(-1) ?? "";
  hostCount = (await client.search("ipv4", "*")).metadata.count;
});

describe("scangate query", () => {
  it("prints typed rows as JSON and notes the job's progress on stderr", JOB_TEST, async () => {
    const run = await cli(["query", `select ip, autonomous_system.asn as asn from "${latest}"`, ...creds], {
      sleep,
    });
    expect(run.code).toBe(0);
    const rows = run.json<{ ip: string; asn: number }[]>();
    expect(rows).toHaveLength(hostCount);
    expect(typeof rows[0]?.asn).toBe("number");
    expect(run.stderr).toMatch(/query job_\w+: pending/);
    expect(run.stderr).toMatch(/query job_\w+: success/);
  });

  it("reads the SQL from stdin, writes CSV into --out and prints where", JOB_TEST, async () => {
    const run = await cli(["query", "-", "--csv", "--out", "results", "--quiet", ...creds], {
      sleep,
      stdin: `select ip from "${latest}" order by ip`,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const { file, rows } = run.json<{ file: string; rows: number }>();
    expect(file).toMatch(/^results\/job_\w+\.csv$/);
    expect(rows).toBe(hostCount);
    const lines = run.files.get(file)?.trimEnd().split("\r\n") ?? [];
    expect(lines[0]).toBe("ip");
    expect(lines).toHaveLength(hostCount + 1);
  });

  it("exits 3 with the reason for SQL that fails when run", JOB_TEST, async () => {
    // Plans (the types fit); every host's divisor is 0 once it runs.
    const sql = `select 1 / (services_count - services_count) from "${latest}"`;
    const run = await cli(["query", sql, ...creds], { sleep });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("division by zero");
  });
});

describe("scangate export", () => {
  it("streams the files to stdout", JOB_TEST, async () => {
    const run = await cli(["export", `select ip from "${latest}"`, ...creds], { sleep });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split(/\r?\n/);
    expect(lines[0]).toBe("ip");
    expect(lines).toHaveLength(hostCount + 1);
  });

  it("downloads the files into --out and lists them", JOB_TEST, async () => {
    const run = await cli(
      ["export", `select ip from "${latest}"`, "--format", "json", "--out", "exports", ...creds],
      { sleep },
    );
    expect(run.code).toBe(0);
    const { files } = run.json<{ files: string[] }>();
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((f) => f.startsWith("exports/") && f.endsWith(".json"))).toBe(true);
    const records = files.flatMap((f) => run.files.get(f)?.trim().split("\n") ?? []);
    expect(records).toHaveLength(hostCount);
  });

  it("prints the finished job with --paths-only", JOB_TEST, async () => {
    const run = await cli(["export", `select ip from "${latest}"`, "--paths-only", ...creds], { sleep });
    expect(run.code).toBe(0);
    expect(run.json<{ status: string; download_paths: string[] }>()).toMatchObject({ status: "success" });
  });
});

describe("scangate series and data", () => {
  it("lists the series and shows one", async () => {
    expect((await cli(["series", ...creds])).json<{ series: string[] }>().series).toContain("ipv4");
    expect((await cli(["series", "ipv4", ...creds])).json<{ tables: string[] }>().tables).toContain(latest);
    expect((await cli(["series", "nope", ...creds])).code).toBe(5);
  });

  it("walks the raw-data metadata down to a scan's files", async () => {
    const list = (await cli(["data", ...creds])).json<{ raw_series: Record<string, unknown> }>();
    const [seriesId = ""] = Object.keys(list.raw_series);
    const details = (await cli(["data", seriesId, ...creds])).json<{ results: { latest: { id: string } } }>();
    const result = await cli(["data", seriesId, details.results.latest.id, ...creds]);
    expect(result.code).toBe(0);
    expect(Object.keys(result.json<{ files: object }>().files).length).toBeGreaterThan(0);
  });
});
