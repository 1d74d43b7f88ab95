import type { TenantWithSecret } from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FailingD1 } from "../support/failing-d1";
import { json } from "../support/fake-upstream";
import { originFacts, seedOrigin } from "../support/origin-data";
import { buildRequest, createTenant, tenantAuth } from "../support/requests";
import { type TestEdge, testEdge } from "../support/test-edge";
import { ledgerUsed } from "../support/ledger";

/**
 * D1 failing inside the edge, through a wrapper around the real binding that fails the
 * statements a test names: a failed cache write still answers, charged once, and a failed usage
 * rollup never fails the request. (Charges are not D1's: reliability/ledger-faults.test.ts.)
 */

await seedOrigin();
const facts = await originFacts();
const [CERT] = facts.certificates as [string];

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
  const row = { used: await ledgerUsed(tenant.id) };
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
