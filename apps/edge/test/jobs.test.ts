import {
  exportJobSchema,
  queryJobSchema,
  queryResultsPageSchema,
  seriesDetailsSchema,
  type TenantWithSecret,
} from "@scangate/core";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ORIGIN_CREDENTIAL, seedOrigin } from "./support/origin-data";
import { buildRequest, createTenant, EDGE, tenantAuth, workerFetch } from "./support/requests";
import { ledgerUsed } from "./support/ledger";

beforeAll(seedOrigin);

const NOT_FOUND = { error_code: 404, error: "page not found" };

function call(tenant: TenantWithSecret, method: string, path: string, body?: unknown): Promise<Response> {
  return workerFetch(buildRequest(method, path, { body, auth: tenantAuth(tenant) }));
}

async function latestTable(tenant: TenantWithSecret): Promise<string> {
  const res = await call(tenant, "GET", "/api/v1/query_definitions/ipv4");
  const { tables } = seriesDetailsSchema.parse(await res.json());
  const table = tables.at(-1);
  if (!table) throw new Error("the origin published no ipv4 table");
  return table;
}

/** Polls a job's status until it leaves `pending` (the origin's queue consumer runs it). */
async function settled(tenant: TenantWithSecret, path: string): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const res = await call(tenant, "GET", path);
    expect(res.status).toBe(200);
    const body = await res.json<Record<string, unknown>>();
    if (body.status !== "pending") return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${path} stayed pending`);
}

describe("query jobs belong to the tenant that started them", () => {
  let owner: TenantWithSecret;
  let other: TenantWithSecret;
  let jobId: string;

  beforeAll(async () => {
    owner = await createTenant({ allowance: 100 });
    other = await createTenant({ allowance: 100 });
    const res = await call(owner, "POST", "/api/v1/query", {
      query: `select ip from "${await latestTable(owner)}"`,
    });
    expect(res.status).toBe(200);
    jobId = queryJobSchema.parse(await res.json()).job_id;
  });

  it("records the owner and charges the start", async () => {
    const row = await env.DB.prepare("select tenant_id, upstream_credential from jobs where job_id = ?")
      .bind(jobId)
      .first();
    expect(row).toEqual({ tenant_id: owner.id, upstream_credential: "origin-local" });
    const used = { used: await ledgerUsed(owner.id) };
    expect(used?.used).toBe(1);
  });

  it("lets the owner read status and result pages for free", async () => {
    const status = await settled(owner, `/api/v1/query/${jobId}`);
    expect(status.status).toBe("success");
    const page = await call(owner, "GET", `/api/v1/query/${jobId}/1`);
    expect(page.status).toBe(200);
    expect(queryResultsPageSchema.parse(await page.json()).rows.length).toBeGreaterThan(0);
    const used = { used: await ledgerUsed(owner.id) };
    expect(used?.used).toBe(1);
  });

  it("answers another tenant's status and results with 404, as for an unknown job", async () => {
    for (const path of [`/api/v1/query/${jobId}`, `/api/v1/query/${jobId}/1`, "/api/v1/query/job_unknown"]) {
      const res = await call(other, "GET", path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(NOT_FOUND);
    }
  });

  it("records nothing for a job the upstream refused", async () => {
    const before = await env.DB.prepare("select count(*) as n from jobs").first<{ n: number }>();
    const res = await call(owner, "POST", "/api/v1/query", { query: "select * from sqlite_master" });
    expect(res.status).toBe(400);
    const after = await env.DB.prepare("select count(*) as n from jobs").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });
});

describe("export jobs and their downloads", () => {
  let owner: TenantWithSecret;
  let other: TenantWithSecret;
  let jobId: string;

  beforeAll(async () => {
    owner = await createTenant({ allowance: 100 });
    other = await createTenant({ allowance: 100 });
    const res = await call(owner, "POST", "/api/v1/export", {
      query: `select ip from "${await latestTable(owner)}"`,
      format: "json",
    });
    expect(res.status).toBe(200);
    jobId = exportJobSchema.parse(await res.json()).job_id;
  });

  it("rewrites download_paths to edge URLs that the owner can fetch", async () => {
    const status = exportJobSchema.parse(await settled(owner, `/api/v1/export/${jobId}`));
    expect(status.status).toBe("success");
    const paths = status.download_paths ?? [];
    expect(paths.length).toBeGreaterThan(0);
    paths.forEach((path, i) => expect(path).toBe(`${EDGE}/api/v1/export/${jobId}/files/${i + 1}`));
    const file = await call(owner, "GET", new URL(paths[0] ?? "").pathname);
    expect(file.status).toBe(200);
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it("answers another tenant's status and files with 404", async () => {
    for (const path of [`/api/v1/export/${jobId}`, `/api/v1/export/${jobId}/files/1`]) {
      const res = await call(other, "GET", path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(NOT_FOUND);
    }
  });

  it("answers a file number past the last file with 404", async () => {
    const res = await call(owner, "GET", `/api/v1/export/${jobId}/files/99`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(NOT_FOUND);
  });
});

describe("job SQL is checked at the edge with the origin's own parser", () => {
  it("refuses SQL that cannot parse with the origin's 400 and detail, spending nothing and asking nobody", async () => {
    const tenant = await createTenant({ allowance: 100 });
    const deepCase = `select ${"case when 1 = 1 then ".repeat(100)}1${" end".repeat(100)} from ipv4`;
    for (const [path, query, detail] of [
      [
        "/api/v1/query",
        "select ip from ipv4 where",
        /Expected an expression but got end of input at \[1:26\]/,
      ],
      ["/api/v1/query", "select 1; select 2", /only one statement is allowed/],
      ["/api/v1/export", "select ip from ipv4 where a = ?", /Query parameters are not supported/],
      ["/api/v1/query", deepCase, /nested more than 64 levels/],
    ] as const) {
      const res = await call(tenant, "POST", path, { query });
      expect(res.status).toBe(400);
      const body = await res.json<Record<string, unknown>>();
      expect(body).toMatchObject({ error_code: 400, error: "query could not be parsed" });
      expect(String(body.detail)).toMatch(detail);
    }
    const row = { used: await ledgerUsed(tenant.id) };
    expect(row?.used).toBe(0);
    const jobs = await env.DB.prepare("select count(*) as n from jobs where tenant_id = ?")
      .bind(tenant.id)
      .first<{ n: number }>();
    expect(jobs?.n).toBe(0);
  });

  it("relays the origin's refusal of SQL that parses but names nothing the series has, refunding the start", async () => {
    const tenant = await createTenant({ allowance: 100 });
    const res = await call(tenant, "POST", "/api/v1/query", {
      query: `select nosuchcol from ${await latestTable(tenant)}`,
    });
    expect(res.status).toBe(400);
    const body = await res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ error_code: 400, error: "query could not be parsed" });
    expect(String(body.detail)).toContain("Unrecognized name: nosuchcol");
    const row = { used: await ledgerUsed(tenant.id) };
    expect(row?.used).toBe(0);
  });
});

describe("SQL of the kind users published runs through the edge as it runs at the origin", () => {
  /** The rows of a finished query job, page by page, through `fetcher` with `auth`. */
  async function rowsOf(fetcher: (req: Request) => Promise<Response>, auth: string, query: string) {
    const started = await fetcher(buildRequest("POST", "/api/v1/query", { body: { query }, auth }));
    expect(started.status).toBe(200);
    const jobId = queryJobSchema.parse(await started.json()).job_id;
    for (let attempt = 0; attempt < 100; attempt++) {
      const status = await (
        await fetcher(buildRequest("GET", `/api/v1/query/${jobId}`, { auth }))
      ).json<{
        status: string;
        error_message?: string;
      }>();
      if (status.status === "error") throw new Error(`${query}: ${status.error_message}`);
      if (status.status === "success") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const page = await fetcher(buildRequest("GET", `/api/v1/query/${jobId}/1`, { auth }));
    return queryResultsPageSchema.parse(await page.json()).rows.map((row) => row.f.map((cell) => cell.v));
  }

  it.each([
    "select ip, last_updated_at from ipv4 limit 5300",
    "SELECT location.country, COUNT(ip) AS count FROM ipv4 GROUP BY location.country ORDER BY count DESC, location.country LIMIT 10",
    "SELECT parsed.subject.country, COUNT(*) FROM certificates.certificates WHERE parsed.subject.country IS NOT NULL GROUP BY parsed.subject.country ORDER BY 2 DESC, 1",
    "#standardSQL\nSELECT s.port, COUNT(DISTINCT ip) AS hosts FROM `ipv4`, UNNEST(services) AS s GROUP BY 1 ORDER BY 1",
    "SELECT ip FROM [ipv4] WHERE services.port = 22 AND REGEXP_MATCH(services.banner, r'^SSH-2\\.0') ORDER BY ip",
  ])("%s", async (query) => {
    const tenant = await createTenant({ allowance: 100 });
    const origin = env.ORIGIN;
    if (!origin) throw new Error("no ORIGIN binding");
    const originAuth = `Basic ${btoa(`${ORIGIN_CREDENTIAL.api_id}:${ORIGIN_CREDENTIAL.api_secret}`)}`;
    const atEdge = await rowsOf(workerFetch, tenantAuth(tenant), query);
    const atOrigin = await rowsOf((req) => origin.fetch(req), originAuth, query);
    expect(atEdge.length).toBeGreaterThan(0);
    expect(atEdge).toEqual(atOrigin);
  });
});
