import {
  exportJobSchema,
  queryJobSchema,
  seriesDetailsSchema,
  seriesListSchema,
  tenantSchema,
  usageListSchema,
  v1ErrorSchema,
  type ExportJob,
} from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { resultPageKey } from "../src/jobs/platform-run";
import { LOST_AFTER_MS, PlatformJobStore, UNCLAIMED_AFTER_MS } from "../src/jobs/platform-store";
import { suiteSecretWatch } from "./reliability/secret-watch";
import { originQueryRows, quotaUsed, resultRows, sortedRows } from "./support/jobs";
import {
  ORIGIN_PLATFORM,
  originBalance,
  type OriginFacts,
  originFacts,
  seedOrigin,
} from "./support/origin-data";
import { admin, buildRequest, createTenant, tenantAuth } from "./support/requests";
import { testEdge, type TestEdge } from "./support/test-edge";

// Query and export jobs through an edge whose upstream speaks only the Platform API: planned
// and charged by the edge, run by its own queue consumer over the real origin's /v3 search,
// results in the edge's R2, answers compared with the origin's own legacy job system.

const VARS = { UPSTREAM_API: "platform", PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]) };

const jobCredits = z.object({
  credits_charged: z.number(),
  credits_spent: z.number(),
  max_pages: z.number(),
});
const queryStatus = queryJobSchema.and(jobCredits);
const exportStatus = exportJobSchema.and(jobCredits);

let edge: TestEdge;
let facts: OriginFacts;

beforeAll(async () => {
  suiteSecretWatch.addMarkers([ORIGIN_PLATFORM.token]);
  await seedOrigin();
  facts = await originFacts();
  edge = testEdge({ vars: VARS });
});

async function newTenant(body: Record<string, unknown> = {}) {
  const created = await createTenant({ allowance: 10_000, tier: "unlimited", ...body }, edge.fetch);
  return { id: created.id, auth: tenantAuth(created) };
}

const call = (auth: string, method: string, path: string, body?: unknown) =>
  edge.fetch(buildRequest(method, path, { auth, body }));

/** The tenant's quota spent by operation, as its usage rollups (and dashboards) count it. */
async function spentInRollups(tenantId: string, on: TestEdge = edge): Promise<Record<string, number>> {
  const res = await admin("GET", `/admin/usage?tenant_id=${tenantId}`, undefined, on.fetch);
  expect(res.status).toBe(200);
  const spent: Record<string, number> = {};
  for (const row of usageListSchema.parse(await res.json()).usage)
    spent[row.operation] = (spent[row.operation] ?? 0) + row.quota_spent;
  return spent;
}

/** Starts a query job and runs it through the queue consumer; its final status. */
async function runQuery(auth: string, body: Record<string, unknown>) {
  const started = await call(auth, "POST", "/api/v1/query", body);
  expect(started.status, JSON.stringify(body)).toBe(200);
  const pending = queryStatus.parse(await started.json());
  expect(pending.status).toBe("pending");
  await edge.deliverJobs();
  const res = await call(auth, "GET", `/api/v1/query/${pending.job_id}`);
  expect(res.status).toBe(200);
  return { pending, done: queryStatus.parse(await res.json()) };
}

async function runExport(auth: string, body: Record<string, unknown>) {
  const started = await call(auth, "POST", "/api/v1/export", body);
  expect(started.status, JSON.stringify(body)).toBe(200);
  const pending = exportStatus.parse(await started.json());
  expect(pending.status).toBe("pending");
  await edge.deliverJobs();
  const res = await call(auth, "GET", `/api/v1/export/${pending.job_id}`);
  expect(res.status).toBe(200);
  return { pending, done: exportStatus.parse(await res.json()) };
}

async function gunzip(bytes: Uint8Array): Promise<string> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

/** Every file of a finished export, downloaded through the edge and decompressed when gzip. */
async function download(auth: string, job: ExportJob): Promise<string> {
  const texts: string[] = [];
  for (const url of job.download_paths ?? []) {
    const res = await call(auth, "GET", new URL(url).pathname);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    texts.push(job.configuration.compress ? await gunzip(bytes) : new TextDecoder().decode(bytes));
  }
  return texts.join("");
}

describe("query jobs over the Platform", () => {
  it("run in the background: pending until the queue delivers, then pages shaped as the spec says", async () => {
    const { auth } = await newTenant();
    const sql = `SELECT ip, location.country, autonomous_system.asn FROM ipv4 WHERE ip = '${facts.hosts[0]}'`;
    const started = await call(auth, "POST", "/api/v1/query", { query: sql });
    const pending = queryStatus.parse(await started.json());
    expect(pending).toMatchObject({ status: "pending", configuration: { query: sql } });
    expect(edge.queued).toHaveLength(1);
    // Before its message is delivered the job is pending, and so is its results page.
    const early = queryStatus.parse(
      await (await call(auth, "GET", `/api/v1/query/${pending.job_id}/1`)).json(),
    );
    expect(early.status).toBe("pending");
    expect(await edge.deliverJobs()).toEqual({ acked: 1, retried: 0 });
    const { rows, pages } = await resultRows(edge.fetch, auth, pending.job_id);
    expect(rows).toEqual(await originQueryRows(sql));
    expect(pages[0]?.configuration.schema.fields.map((f) => f.name)).toEqual([
      "ip",
      "location_country",
      "autonomous_system_asn",
    ]);
    // Past the last page, page 0 and a page that is no number: 404, as the origin answers.
    for (const page of ["2", "0", "x"]) {
      const res = await call(auth, "GET", `/api/v1/query/${pending.job_id}/${page}`);
      expect(res.status, page).toBe(404);
      v1ErrorSchema.parse(await res.json());
    }
  });

  it("answers SQL from public scripts as the origin's own jobs do", async () => {
    const { auth } = await newTenant();
    const queries = [
      `SELECT ip FROM ipv4 WHERE location.country = "${await firstCountry()}"`,
      "SELECT ip FROM ipv4 WHERE services.port = 80 AND services.service_name = 'HTTP'",
      "SELECT ip, services.port FROM ipv4 WHERE services.service_name = 'SSH'",
      "SELECT COUNT(*) FROM ipv4 WHERE services.port IN (21, 22, 23)",
      "SELECT COUNT(*) FROM ipv4 WHERE autonomous_system.asn BETWEEN 1000 AND 20000",
      "SELECT location.country_code AS cc, COUNT(*) AS n FROM ipv4 GROUP BY cc ORDER BY n DESC, cc LIMIT 3",
      "SELECT parsed.subject.country, COUNT(*) FROM certificates.certificates WHERE parsed.subject.country IS NOT NULL GROUP BY parsed.subject.country",
      `SELECT domain, ip, protocols FROM websites WHERE domain = '${facts.websites[0]}'`,
    ];
    for (const sql of queries) {
      const { done } = await runQuery(auth, { query: sql });
      expect(done.status, `${sql}: ${done.error_message ?? ""}`).toBe("success");
      const { rows } = await resultRows(edge.fetch, auth, done.job_id);
      const expected = await originQueryRows(sql);
      expect(sortedRows(rows), sql).toEqual(sortedRows(expected));
    }
  }, 60_000);

  it("reads COUNT(*) from the search's total: one call", async () => {
    const { auth } = await newTenant();
    const before = edge.upstream.requests.length;
    const { done } = await runQuery(auth, { query: "SELECT COUNT(*) FROM ipv4 WHERE services.port = 22" });
    expect(done).toMatchObject({ status: "success", credits_charged: 1, credits_spent: 1 });
    const calls = edge.upstream.requests.slice(before).map((r) => new URL(r.url).pathname);
    expect(calls).toEqual(["/v3/global/search/query"]);
    const { rows } = await resultRows(edge.fetch, auth, done.job_id);
    expect(rows).toEqual(await originQueryRows("SELECT COUNT(*) FROM ipv4 WHERE services.port = 22"));
  });

  it("answers a GROUP BY of one field with counts from one aggregate call", async () => {
    const { auth } = await newTenant();
    const sql = "SELECT location.country, COUNT(ip) FROM ipv4 GROUP BY 1";
    const before = edge.upstream.requests.length;
    const { done } = await runQuery(auth, { query: sql });
    expect(done).toMatchObject({ status: "success", credits_spent: 1 });
    const calls = edge.upstream.requests.slice(before).map((r) => new URL(r.url).pathname);
    expect(calls).toEqual(["/v3/global/search/aggregate"]);
    const { rows } = await resultRows(edge.fetch, auth, done.job_id);
    expect(sortedRows(rows)).toEqual(sortedRows(await originQueryRows(sql)));
  });

  it("reads only the pages a LIMIT needs, and charges only those", async () => {
    const { auth } = await newTenant();
    const before = edge.upstream.requests.length;
    const { done } = await runQuery(auth, { query: "SELECT ip FROM ipv4 LIMIT 150" });
    expect(done).toMatchObject({ status: "success", credits_charged: 2, credits_spent: 2 });
    expect(edge.upstream.requests.slice(before)).toHaveLength(2);
    const { rows } = await resultRows(edge.fetch, auth, done.job_id);
    expect(rows).toHaveLength(150);
  });

  it("ends as error, saying how many rows it read, when it needs more pages than its maximum", async () => {
    const { auth } = await newTenant();
    const used = await quotaUsed(edge.fetch, auth);
    const { done } = await runQuery(auth, {
      query: "SELECT ip FROM ipv4 WHERE location.country IS NOT NULL",
      max_pages: 1,
    });
    expect(done.status).toBe("error");
    expect(done.error_message).toMatch(/more pages .* than its maximum of 1 .* it read 100 rows/);
    // One page read and paid for, nothing more held.
    expect(done).toMatchObject({ credits_charged: 1, credits_spent: 1, max_pages: 1 });
    expect((await quotaUsed(edge.fetch, auth)) - used).toBe(1);
  });
});

async function firstCountry(): Promise<string> {
  const rows = await originQueryRows(`SELECT location.country FROM ipv4 WHERE ip = '${facts.hosts[0]}'`);
  return String(rows[0]?.[0]);
}

describe("refusals before anything is charged", () => {
  it("refuses a query nothing bounds with a 400 saying how to narrow it", async () => {
    const { auth } = await newTenant();
    const res = await call(auth, "POST", "/api/v1/query", { query: "SELECT ip FROM ipv4" });
    expect(res.status).toBe(400);
    const body = v1ErrorSchema.parse(await res.json());
    expect(JSON.stringify(body)).toMatch(/narrow|WHERE|LIMIT/);
    expect(await quotaUsed(edge.fetch, auth)).toBe(0);
    expect(edge.queued).toHaveLength(0);
  });

  it("refuses a dated table older than today: the Platform keeps no daily snapshots", async () => {
    const { auth } = await newTenant();
    for (const path of ["/api/v1/query", "/api/v1/export"]) {
      const res = await call(auth, "POST", path, { query: "SELECT COUNT(*) FROM ipv4.20261031" });
      expect(res.status, path).toBe(400);
      expect(JSON.stringify(await res.json())).toContain("the Platform keeps no daily snapshots");
    }
    expect(await quotaUsed(edge.fetch, auth)).toBe(0);
  });

  it("refuses a body it cannot read, a max_pages out of range and a bad delimiter", async () => {
    const { auth } = await newTenant();
    for (const [path, body] of [
      ["/api/v1/query", {}],
      ["/api/v1/query", { query: "SELECT COUNT(*) FROM ipv4", max_pages: 0 }],
      ["/api/v1/query", { query: "SELECT COUNT(*) FROM ipv4", max_pages: 100_000 }],
      ["/api/v1/export", { query: "SELECT COUNT(*) FROM ipv4", delimeter: '"' }],
      ["/api/v1/export", { query: "SELECT COUNT(*) FROM ipv4", format: "xml" }],
      ["/api/v1/query", { query: "SELEC ip FROM ipv4" }],
    ] as const) {
      const res = await call(auth, "POST", path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      v1ErrorSchema.parse(await res.json());
    }
    expect(await quotaUsed(edge.fetch, auth)).toBe(0);
  });
});

describe("a job is its tenant's alone", () => {
  it("answers another tenant's query and export exactly as an unknown job: 404", async () => {
    const owner = await newTenant();
    const other = await newTenant();
    const query = await runQuery(owner.auth, { query: "SELECT COUNT(*) FROM ipv4" });
    const exported = await runExport(owner.auth, { query: "SELECT COUNT(*) FROM ipv4" });
    for (const path of [
      `/api/v1/query/${query.done.job_id}`,
      `/api/v1/query/${query.done.job_id}/1`,
      `/api/v1/export/${exported.done.job_id}`,
      `/api/v1/export/${exported.done.job_id}/files/1`,
      // A query job is no export job, and the other way round.
      `/api/v1/export/${query.done.job_id}`,
    ]) {
      const res = await call(
        path.includes("export/" + query.done.job_id) ? owner.auth : other.auth,
        "GET",
        path,
      );
      expect(res.status, path).toBe(404);
      v1ErrorSchema.parse(await res.json());
    }
    expect((await call(owner.auth, "GET", `/api/v1/export/${exported.done.job_id}/files/1`)).status).toBe(
      200,
    );
  });
});

describe("a deleted tenant", () => {
  it("leaves no job behind: its rows, result pages and export files are deleted with it", async () => {
    const { id, auth } = await newTenant();
    const other = await newTenant();
    const query = await runQuery(auth, { query: "SELECT ip FROM ipv4 LIMIT 3" });
    const exported = await runExport(auth, { query: "SELECT COUNT(*) FROM ipv4" });
    const kept = await runExport(other.auth, { query: "SELECT COUNT(*) FROM ipv4" });
    const stored = async (jobId: string) =>
      (await edge.env.JOB_FILES?.list({ prefix: `jobs/${jobId}/` }))?.objects.length ?? 0;
    expect(await stored(query.done.job_id)).toBeGreaterThan(0);
    expect(await stored(exported.done.job_id)).toBeGreaterThan(0);

    expect((await admin("DELETE", `/admin/tenants/${id}`, undefined, edge.fetch)).status).toBe(200);
    expect(await stored(query.done.job_id)).toBe(0);
    expect(await stored(exported.done.job_id)).toBe(0);
    const rows = await edge.env.DB.prepare("select count(*) as n from platform_jobs where tenant_id = ?")
      .bind(id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
    // Another tenant's job is untouched.
    expect(await stored(kept.done.job_id)).toBeGreaterThan(0);
    expect((await call(other.auth, "GET", `/api/v1/export/${kept.done.job_id}/files/1`)).status).toBe(200);
  });
});

describe("export jobs over the Platform", () => {
  const sql = "SELECT ip, location.country, services.port FROM ipv4 WHERE services.service_name = 'SSH'";

  it("writes CSV with headers and the delimiter asked, as the origin's rows", async () => {
    const { auth } = await newTenant();
    const { done } = await runExport(auth, { query: sql, format: "csv", delimeter: ";", headers: true });
    expect(done.status, done.error_message).toBe("success");
    expect(done.configuration).toMatchObject({
      format: "csv",
      delimiter: ";",
      headers: true,
      compress: false,
    });
    const lines = (await download(auth, done)).split("\r\n").filter((line) => line !== "");
    expect(lines[0]).toBe("ip;location_country;services_port");
    const expected = (await originQueryRows(sql)).map((r) => r.map((v) => v ?? "").join(";"));
    expect(lines.slice(1).sort()).toEqual(expected.sort());
    expect(done.statistics?.result_count).toBe(expected.length);
  });

  it("writes gzip JSON lines, nested when not flattened", async () => {
    const { auth } = await newTenant();
    const { done } = await runExport(auth, { query: sql, format: "json", compress: true, flatten: false });
    expect(done.status, done.error_message).toBe("success");
    const res = await call(auth, "GET", new URL(done.download_paths?.[0] ?? "").pathname);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    const records = (await download(auth, done))
      .split("\n")
      .filter((line) => line !== "")
      .map(
        (line) =>
          JSON.parse(line) as {
            ip: string;
            location: { country: string | null };
            services: { port: number };
          },
      );
    const expected = (await originQueryRows(sql)).map((r) =>
      JSON.stringify({ ip: r[0], location: { country: r[1] }, services: { port: Number(r[2]) } }),
    );
    expect(records.map((r) => JSON.stringify(r)).sort()).toEqual(expected.sort());
  });

  it("expires 24 hours after it ended: its files are deleted and the status says expired", async () => {
    const { auth } = await newTenant();
    const { done } = await runExport(auth, { query: "SELECT COUNT(*) FROM ipv4" });
    expect(done.status).toBe("success");
    const key = (await jobRow(done.job_id)).files;
    edge.clock.advance(24 * 60 * 60 * 1000 + 1);
    await edge.sweepJobs();
    const after = exportStatus.parse(await (await call(auth, "GET", `/api/v1/export/${done.job_id}`)).json());
    expect(after.status).toBe("expired");
    expect(after.download_paths).toBeUndefined();
    expect((await call(auth, "GET", `/api/v1/export/${done.job_id}/files/1`)).status).toBe(404);
    const files = JSON.parse(key ?? "[]") as { key: string }[];
    expect(files.length).toBe(1);
    expect(await edge.env.JOB_FILES?.head(files[0]?.key ?? "")).toBeNull();
  });
});

async function jobRow(id: string) {
  const row = await edge.env.DB.prepare("select * from platform_jobs where id = ?").bind(id).first<{
    files: string | null;
    tenant_id: string;
  }>();
  if (!row) throw new Error(`no job ${id}`);
  return row;
}

describe("lost work", () => {
  it("ends a job whose consumer died as error within minutes, and gives back what it did not spend", async () => {
    const { auth } = await newTenant();
    const used = await quotaUsed(edge.fetch, auth);
    const started = await call(auth, "POST", "/api/v1/query", { query: "SELECT ip FROM ipv4 LIMIT 250" });
    const job = queryStatus.parse(await started.json());
    expect(job.credits_charged).toBe(3);
    edge.queued.splice(0);
    // A consumer claims it, then its isolate dies: no heartbeat after the claim.
    const store = new PlatformJobStore(edge.services().db, edge.clock);
    expect(await store.claim(job.job_id)).not.toBeNull();
    edge.clock.advance(LOST_AFTER_MS - 1000);
    await edge.sweepJobs();
    expect(
      queryStatus.parse(await (await call(auth, "GET", `/api/v1/query/${job.job_id}`)).json()).status,
    ).toBe("pending");
    // The page its consumer wrote before it died.
    const page = resultPageKey(job.job_id, 1);
    await edge.env.JOB_FILES?.put(page, JSON.stringify({ rows: [] }));
    edge.clock.advance(2000);
    await edge.sweepJobs();
    const ended = queryStatus.parse(await (await call(auth, "GET", `/api/v1/query/${job.job_id}`)).json());
    expect(ended.status).toBe("error");
    expect(ended.error_message).toContain("lost");
    expect(await edge.env.JOB_FILES?.head(page)).toBeNull();
    expect(await quotaUsed(edge.fetch, auth)).toBe(used);
    // A late delivery of its message finds it ended and leaves it so.
    edge.queued.push({ job_id: job.job_id });
    await edge.deliverJobs();
    expect(
      queryStatus.parse(await (await call(auth, "GET", `/api/v1/query/${job.job_id}`)).json()).status,
    ).toBe("error");
  });

  it("ends a job whose message never came", async () => {
    const { auth } = await newTenant();
    const started = await call(auth, "POST", "/api/v1/query", { query: "SELECT COUNT(*) FROM ipv4" });
    const job = queryStatus.parse(await started.json());
    edge.queued.splice(0);
    edge.clock.advance(UNCLAIMED_AFTER_MS + 1);
    await edge.sweepJobs();
    const ended = queryStatus.parse(await (await call(auth, "GET", `/api/v1/query/${job.job_id}`)).json());
    expect(ended).toMatchObject({ status: "error", credits_spent: 0 });
    expect(await quotaUsed(edge.fetch, auth)).toBe(0);
  });
});

describe("credits", () => {
  it("charge a query job exactly what the origin's organization balance lost", async () => {
    const { auth } = await newTenant();
    const balance = await originBalance();
    const used = await quotaUsed(edge.fetch, auth);
    const { done } = await runQuery(auth, {
      query: "SELECT ip, services.port FROM ipv4 WHERE services.service_name = 'SSH'",
    });
    expect(done.status).toBe("success");
    const lost = balance - (await originBalance());
    expect(lost).toBeGreaterThan(0);
    expect((await quotaUsed(edge.fetch, auth)) - used).toBe(lost);
    expect(done.credits_spent).toBe(lost);
  });

  it("charge an export job exactly what the origin's organization balance lost", async () => {
    const { auth } = await newTenant();
    const balance = await originBalance();
    const used = await quotaUsed(edge.fetch, auth);
    const { done } = await runExport(auth, { query: "SELECT ip FROM ipv4 LIMIT 120", compress: true });
    expect(done.status).toBe("success");
    const lost = balance - (await originBalance());
    expect(lost).toBe(2);
    expect((await quotaUsed(edge.fetch, auth)) - used).toBe(lost);
    expect(done.credits_spent).toBe(lost);
  });

  it("hold the tenant's own maximum of pages, which a job may lower but not raise", async () => {
    const { id, auth } = await newTenant();
    const patched = await admin("PATCH", `/admin/tenants/${id}`, { job_max_pages: 3 }, edge.fetch);
    expect(patched.status).toBe(200);
    expect(tenantSchema.parse(await patched.json()).job_max_pages).toBe(3);
    const sql = "SELECT ip FROM ipv4 WHERE location.country IS NOT NULL";
    const own = queryStatus.parse(await (await call(auth, "POST", "/api/v1/query", { query: sql })).json());
    expect(own).toMatchObject({ credits_charged: 3, max_pages: 3 });
    const raised = queryStatus.parse(
      await (await call(auth, "POST", "/api/v1/query", { query: sql, max_pages: 50 })).json(),
    );
    expect(raised).toMatchObject({ credits_charged: 3, max_pages: 3 });
    const lowered = queryStatus.parse(
      await (await call(auth, "POST", "/api/v1/query", { query: sql, max_pages: 2 })).json(),
    );
    expect(lowered).toMatchObject({ credits_charged: 2, max_pages: 2 });
    expect(await quotaUsed(edge.fetch, auth)).toBe(8);
    await edge.deliverJobs();
  });

  it("count in the usage rollups what jobs spent, not what they held", async () => {
    const { id, auth } = await newTenant();
    const query = await runQuery(auth, {
      query: "SELECT ip, services.port FROM ipv4 WHERE services.service_name = 'SSH'",
    });
    expect(query.done.credits_charged).toBeGreaterThan(query.done.credits_spent);
    const exported = await runExport(auth, {
      query: "SELECT ip FROM ipv4 WHERE services.service_name = 'SSH'",
      max_pages: 5,
    });
    expect(exported.done).toMatchObject({ status: "success", credits_charged: 5 });
    expect(exported.done.credits_spent).toBeLessThan(5);
    // A job whose message never came gives back all it held.
    await call(auth, "POST", "/api/v1/query", { query: "SELECT COUNT(*) FROM ipv4" });
    edge.queued.splice(0);
    edge.clock.advance(UNCLAIMED_AFTER_MS + 1);
    await edge.sweepJobs();
    const spent = await spentInRollups(id);
    expect(spent).toMatchObject({
      query_start: query.done.credits_spent,
      export_start: exported.done.credits_spent,
    });
    expect(Object.values(spent).reduce((a, b) => a + b, 0)).toBe(await quotaUsed(edge.fetch, auth));
  });

  it("count nothing spent for a job that could not be queued", async () => {
    const down = testEdge({
      vars: VARS,
      overrides: { jobQueue: { send: () => Promise.reject(new Error("queue down")) } },
    });
    const created = await createTenant({ allowance: 10_000, tier: "unlimited" }, down.fetch);
    const auth = tenantAuth(created);
    const res = await down.fetch(
      buildRequest("POST", "/api/v1/query", { auth, body: { query: "SELECT ip FROM ipv4 LIMIT 150" } }),
    );
    expect(res.status).toBe(503);
    expect(JSON.stringify(await res.json())).toContain("could not be queued");
    expect(await quotaUsed(down.fetch, auth)).toBe(0);
    expect(await spentInRollups(created.id, down)).toMatchObject({ query_start: 0 });
  });

  it("refuse a job whose most credits the allowance cannot cover, before anything runs", async () => {
    const { auth } = await newTenant({ allowance: 2 });
    const res = await call(auth, "POST", "/api/v1/query", { query: "SELECT ip FROM ipv4 LIMIT 300" });
    expect(res.status).toBe(429);
    // The allowance is not spent: the refusal says what the job may cost and what is left.
    expect(v1ErrorSchema.parse(await res.json()).error).toBe(
      "This request may cost 3 of your quota and 2 is left this billing period.",
    );
    expect(edge.queued).toHaveLength(0);
  });

  it("keep nothing of a job whose query the Platform refuses: it billed nothing", async () => {
    const { auth } = await newTenant();
    const balance = await originBalance();
    const used = await quotaUsed(edge.fetch, auth);
    const { done } = await runQuery(auth, {
      query: "SELECT ip FROM ipv4 WHERE services.port = 99999999999999999999",
    });
    expect(done).toMatchObject({ status: "error", credits_spent: 0 });
    expect(done.error_message).toMatch(/HTTP 400/);
    expect(balance - (await originBalance())).toBe(0);
    expect((await quotaUsed(edge.fetch, auth)) - used).toBe(0);
  });
});

describe("query definitions from the Platform's series", () => {
  it("lists the three series, each with its fields and today's table", async () => {
    const { auth } = await newTenant();
    const list = seriesListSchema.parse(await (await call(auth, "GET", "/api/v1/query_definitions")).json());
    expect(list.series.sort()).toEqual(["certificates", "ipv4", "websites"]);
    const details = seriesDetailsSchema.parse(
      await (await call(auth, "GET", "/api/v1/query_definitions/ipv4")).json(),
    );
    const today = new Date(edge.clock.now()).toISOString().slice(0, 10).replaceAll("-", "");
    expect(details.tables).toEqual([`ipv4.${today}`]);
    const names = details.definition.fields.map((f) => f.name);
    expect(names).toContain("ip");
    expect(names).toContain("location.country");
    // What no Platform document carries is not offered.
    expect(names).not.toContain("location_updated_at");
    expect((await call(auth, "GET", "/api/v1/query_definitions/nope")).status).toBe(404);
    expect(await quotaUsed(edge.fetch, auth)).toBe(0);
  });
});
