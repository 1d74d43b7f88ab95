import { usageListSchema, type UsageRollup } from "@scangate/core";
import { describe, expect, it } from "vitest";
import { json } from "./support/fake-upstream";
import { originFacts, seedOrigin } from "./support/origin-data";
import { admin, buildRequest, createTenant, tenantAuth } from "./support/requests";
import { testEdge } from "./support/test-edge";

await seedOrigin();
const [HOST] = (await originFacts()).hosts as [string];

async function rollups(
  edge: ReturnType<typeof testEdge>,
  tenantId: string,
): Promise<Record<string, UsageRollup>> {
  const res = await admin("GET", `/admin/usage?tenant_id=${tenantId}`, undefined, edge.fetch);
  expect(res.status).toBe(200);
  const { usage } = usageListSchema.parse(await res.json());
  return Object.fromEntries(usage.map((row) => [`${row.hour} ${row.operation}`, row]));
}

describe("usage rollups", () => {
  it("counts requests, cache hits, upstream calls, errors and quota per tenant, hour and operation", async () => {
    const edge = testEdge();
    const tenant = await createTenant({ allowance: 10 }, edge.fetch);
    const auth = tenantAuth(tenant);
    const hour = new Date(edge.clock.now() - (edge.clock.now() % 3_600_000)).toISOString();
    await edge.fetch(buildRequest("GET", `/api/v1/view/ipv4/${HOST}`, { auth }));
    await edge.fetch(buildRequest("GET", `/api/v1/view/ipv4/${HOST}`, { auth }));
    edge.upstream.answer(() => json(500, { error_code: 500, error: "unknown error occurred" }));
    await edge.fetch(buildRequest("POST", "/api/v1/search/ipv4", { body: { query: "*" }, auth }));
    await edge.fetch(buildRequest("GET", "/api/v1/account", { auth }));

    const rows = await rollups(edge, tenant.id);
    expect(rows[`${hour} view`]).toMatchObject({
      requests: 2,
      cache_hits: 1,
      upstream_calls: 1,
      errors: 0,
      quota_spent: 1,
    });
    expect(rows[`${hour} search`]).toMatchObject({
      requests: 1,
      cache_hits: 0,
      upstream_calls: 1,
      errors: 1,
      quota_spent: 0,
    });
    expect(rows[`${hour} account`]).toMatchObject({ requests: 1, upstream_calls: 0, quota_spent: 0 });
  });

  it("adds concurrent requests into one row, and starts a new row each hour", async () => {
    const edge = testEdge();
    const tenant = await createTenant({}, edge.fetch);
    const account = () => edge.fetch(buildRequest("GET", "/api/v1/account", { auth: tenantAuth(tenant) }));
    await Promise.all(Array.from({ length: 20 }, account));
    edge.clock.advance(3_600_000);
    await account();
    const rows = Object.values(await rollups(edge, tenant.id));
    expect(rows.map((r) => r.requests).sort((a, b) => a - b)).toEqual([1, 20]);
  });

  it("counts refused requests (burst and quota) as errors of their tenant", async () => {
    const edge = testEdge();
    edge.upstream.answer(() =>
      json(200, {
        status: "ok",
        metadata: { count: 0, query: "*", backend_time: 0, page: 1, pages: 0 },
        results: [],
      }),
    );
    const tenant = await createTenant({ allowance: 1 }, edge.fetch);
    const search = () =>
      edge.fetch(
        buildRequest("POST", "/api/v1/search/ipv4", { body: { query: "*" }, auth: tenantAuth(tenant) }),
      );
    await search();
    expect((await search()).status).toBe(429);
    const [row] = Object.values(await rollups(edge, tenant.id));
    expect(row).toMatchObject({
      operation: "search",
      requests: 2,
      errors: 1,
      quota_spent: 1,
      upstream_calls: 1,
    });
  });

  it("refuses a bad filter with 400", async () => {
    const edge = testEdge();
    expect((await admin("GET", "/admin/usage?since=yesterday", undefined, edge.fetch)).status).toBe(400);
  });
});
