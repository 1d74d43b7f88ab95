import type { TenantWithSecret } from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FailingD1 } from "../support/failing-d1";
import { json } from "../support/fake-upstream";
import { originFacts, seedOrigin } from "../support/origin-data";
import { buildRequest, createTenant, tenantAuth } from "../support/requests";
import { type TestEdge, testEdge } from "../support/test-edge";

/**
 * D1 failing inside the edge, through a wrapper around the real binding that fails the
 * statements a test names: charges are neither lost nor taken twice, a failed cache write still
 * answers, and a failed usage rollup never fails the request.
 */

await seedOrigin();
const facts = await originFacts();
const [CERT] = facts.certificates as [string];

const CHARGE = /^update "tenants" set "used" = case/i;
const REFUND = /^update "tenants" set "used" = max\(/i;
const CACHE_WRITE = /^insert into "documents"/i;
const USAGE_WRITE = /^insert into "usage"/i;

const SEARCH_OK = {
  status: "ok",
  metadata: { count: 0, query: "*", backend_time: 1, page: 1, pages: 0 },
  results: [],
};

function edgeWithFaults(): { edge: TestEdge; d1: FailingD1 } {
  const d1 = new FailingD1();
  return { edge: testEdge({ overrides: { d1: d1.wrap } }), d1 };
}

const search = (tenant: TenantWithSecret) =>
  buildRequest("POST", "/api/v1/search/ipv4", { body: { query: "*" }, auth: tenantAuth(tenant) });

async function usedOf(tenant: TenantWithSecret): Promise<number> {
  const row = await env.DB.prepare("select used from tenants where id = ?")
    .bind(tenant.id)
    .first<{ used: number }>();
  return row?.used ?? -1;
}

async function documentRows(id: string): Promise<number> {
  const row = await env.DB.prepare("select count(*) as n from documents where id = ?")
    .bind(id)
    .first<{ n: number }>();
  return row?.n ?? -1;
}

async function usageRequests(tenant: TenantWithSecret): Promise<number> {
  const row = await env.DB.prepare("select coalesce(sum(requests), 0) as n from usage where tenant_id = ?")
    .bind(tenant.id)
    .first<{ n: number }>();
  return row?.n ?? -1;
}

describe("a failed charge write", () => {
  it("asks the upstream nothing and charges nothing; the retry is charged once", async () => {
    const { edge, d1 } = edgeWithFaults();
    edge.upstream.answer(() => json(200, SEARCH_OK));
    const tenant = await createTenant({ allowance: 5 }, edge.fetch);
    d1.failWhen(CHARGE, 1);
    const failed = await edge.fetch(search(tenant));
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await failed.json()).toMatchObject({ error_code: failed.status });
    expect(d1.failed).toHaveLength(1);
    expect(edge.upstream.requests).toHaveLength(0);
    expect(await usedOf(tenant)).toBe(0);

    const retried = await edge.fetch(search(tenant));
    expect(retried.status).toBe(200);
    expect(edge.upstream.requests).toHaveLength(1);
    expect(await usedOf(tenant)).toBe(1);
  });
});

describe("a failed refund write", () => {
  it("still answers the upstream's answer, keeping the one charge rather than risk giving it back twice", async () => {
    const { edge, d1 } = edgeWithFaults();
    edge.upstream.answer(() => json(503, { error_code: 503, error: "busy" }));
    const tenant = await createTenant({ allowance: 5 }, edge.fetch);
    d1.failWhen(REFUND, 1);
    const res = await edge.fetch(search(tenant));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error_code: 503, error: "busy" });
    expect(d1.failed).toHaveLength(1);
    // Charged once, never twice; the RateLimit header says what is stored.
    expect(await usedOf(tenant)).toBe(1);
    expect(res.headers.get("RateLimit")).toMatch(/^"quota";r=4;/);
    // The next failure, with D1 well again, is given back as always.
    expect((await edge.fetch(search(tenant))).status).toBe(503);
    expect(await usedOf(tenant)).toBe(1);
  });

  it("never gives a charge back twice", async () => {
    const { edge } = edgeWithFaults();
    edge.upstream.answer(() => json(503, { error_code: 503, error: "busy" }));
    const tenant = await createTenant({ allowance: 5 }, edge.fetch);
    edge.upstream.answer(() => json(200, SEARCH_OK));
    expect((await edge.fetch(search(tenant))).status).toBe(200);
    edge.upstream.answer(() => json(503, { error_code: 503, error: "busy" }));
    expect((await edge.fetch(search(tenant))).status).toBe(503);
    expect(await usedOf(tenant)).toBe(1);
  });
});

describe("a failed cache write", () => {
  it("still answers the document, charged once, with nothing stored", async () => {
    const { edge, d1 } = edgeWithFaults();
    const tenant = await createTenant({ allowance: 5 }, edge.fetch);
    d1.failWhen(CACHE_WRITE);
    const res = await edge.fetch(
      buildRequest("GET", `/api/v1/view/certificates/${CERT}`, { auth: tenantAuth(tenant) }),
    );
    expect(res.status).toBe(200);
    const body: Record<string, unknown> = await res.json();
    expect(body).not.toHaveProperty("error");
    expect(JSON.stringify(body)).toContain(CERT);
    expect(d1.failed.length).toBeGreaterThan(0);
    expect(await usedOf(tenant)).toBe(1);
    expect(await documentRows(CERT)).toBe(0);
  });
});

describe("a failed usage rollup", () => {
  it("never fails the request", async () => {
    const { edge, d1 } = edgeWithFaults();
    edge.upstream.answer(() => json(200, SEARCH_OK));
    const tenant = await createTenant({ allowance: 5 }, edge.fetch);
    d1.failWhen(USAGE_WRITE);
    expect((await edge.fetch(search(tenant))).status).toBe(200);
    expect(
      (await edge.fetch(buildRequest("GET", "/api/v1/account", { auth: tenantAuth(tenant) }))).status,
    ).toBe(200);
    expect(d1.failed.length).toBeGreaterThan(0);
    expect(await usageRequests(tenant)).toBe(0);
    expect(await usedOf(tenant)).toBe(1);
  });
});
