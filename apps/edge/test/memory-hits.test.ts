import type { TenantWithSecret } from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { suiteSecretWatch } from "./reliability/secret-watch";
import { ORIGIN_PLATFORM, originFacts, seedOrigin } from "./support/origin-data";
import { admin, buildRequest, createTenant, tenantAuth } from "./support/requests";
import { type TestEdge, testEdge } from "./support/test-edge";

// A repeated cache hit goes through the one pipeline (auth, account, burst limit, route) and is
// answered there from the isolate's memory: no D1 statement, no ledger call, free.

await seedOrigin();
const facts = await originFacts();
const [CERT_A] = facts.certificates as [string];
const [IP_1] = facts.hosts as [string];

/** One path of each cached document route. */
const PATHS = [
  `/api/v1/view/certificates/${CERT_A}`,
  `/api/v1/view/ipv4/${IP_1}`,
  `/api/v2/hosts/${IP_1}`,
  `/api/v2/certificates/${CERT_A}/hosts`,
  `/api/v2/hosts/${IP_1}/names`,
];

const COUNTED = { D1_STATEMENTS_HEADER: "true" };

async function setup(vars: Record<string, string> = {}) {
  await env.DB.prepare("delete from documents").run();
  const edge = testEdge({ vars: { ...COUNTED, ...vars } });
  const tenant = await createTenant({ allowance: 1000 }, edge.fetch);
  return { edge, tenant };
}

function get(edge: TestEdge, tenant: TenantWithSecret, path: string) {
  return edge.fetch(
    buildRequest("GET", path, { auth: tenantAuth(tenant), headers: { "X-D1-Statements": "1" } }),
  );
}

async function usageOf(tenant: TenantWithSecret) {
  return env.DB.prepare(
    `select operation, sum(requests) as requests, sum(cache_hits) as hits, sum(upstream_calls) as upstream,
       sum(errors) as errors, sum(quota_spent) as spent, sum(quota_saved) as saved
     from usage where tenant_id = ? group by operation order by operation`,
  )
    .bind(tenant.id)
    .all();
}

describe("a repeated cache hit", () => {
  it.each(PATHS)(
    "of %s is answered from memory: the same body, no D1 statement, no ledger call",
    async (path) => {
      const { edge, tenant } = await setup();
      const first = await get(edge, tenant, path);
      expect(first.status).toBe(200);
      const body = await first.text();
      const again = await get(edge, tenant, path);
      expect(again.status).toBe(200);
      expect(await again.text()).toBe(body);
      expect(again.headers.get("Cache-Status")).toMatch(/^scangate; hit/);
      expect(again.headers.get("X-D1-Statements")).toBe("0");
      expect(again.headers.get("X-Ledger-Calls")).toBe("0");
      // Everything a tenant answer carries, a hit carries too.
      expect(again.headers.get("RateLimit")).toMatch(/^"quota";r=999;/);
      expect(again.headers.get("Cache-Control")).toBe("private, no-store");
      expect(again.headers.get("X-Request-Id")).toBeTruthy();
    },
  );

  it("is counted in usage as a free hit, and the miss before it as the one charge", async () => {
    const { edge, tenant } = await setup();
    const path = `/api/v1/view/certificates/${CERT_A}`;
    for (let i = 0; i < 3; i++) expect((await get(edge, tenant, path)).status).toBe(200);
    const usage = await usageOf(tenant);
    expect(usage.results).toEqual([
      { operation: "view", requests: 3, hits: 2, upstream: 1, errors: 0, spent: 1, saved: 0 },
    ]);
  });

  it("saves the Platform credits of the calls it stands for on a Platform-only upstream", async () => {
    suiteSecretWatch.addMarkers([ORIGIN_PLATFORM.token]);
    const { edge, tenant } = await setup({
      UPSTREAM_API: "platform",
      PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]),
    });
    const path = `/api/v1/view/certificates/${CERT_A}`;
    for (let i = 0; i < 3; i++) expect((await get(edge, tenant, path)).status).toBe(200);
    // A certificate costs 2 Platform credits: paid once, saved by each of the two hits.
    expect((await usageOf(tenant)).results[0]).toMatchObject({ requests: 3, hits: 2, spent: 2, saved: 4 });
  });

  it("stops being answered for a tenant the admin disables", async () => {
    const { edge, tenant } = await setup();
    const path = `/api/v1/view/certificates/${CERT_A}`;
    expect((await get(edge, tenant, path)).status).toBe(200);
    await admin("PATCH", `/admin/tenants/${tenant.id}`, { disabled: true }, edge.fetch);
    expect((await get(edge, tenant, path)).status).toBe(403);
  });
});
