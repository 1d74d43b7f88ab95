import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { seedOrigin } from "./support/origin-data";
import { PROTOTYPE_NAMES } from "./support/prototype-names";
import { admin, buildRequest, createTenant, tenantAuth, workerFetch } from "./support/requests";

// Indexes are closed sets: a name every object inherits is answered as any unknown index is.
// (Tiers and periods: admin-tenants.test.ts; the lookups themselves: rate-tiers.test.ts and core.)

await seedOrigin();
const tenant = await createTenant({ allowance: 1000 });

async function answer(method: string, path: string, body?: unknown) {
  const res = await workerFetch(buildRequest(method, path, { auth: tenantAuth(tenant), body }));
  return { status: res.status, body: await res.text() };
}

async function documentsOf(index: string): Promise<number> {
  const row = await env.DB.prepare("select count(*) as n from documents where `index` = ?")
    .bind(index)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("indexes refuse inherited names through the public surface", () => {
  it.each(PROTOTYPE_NAMES)(
    "GET /api/v1/view/%s/x answers as an unknown index does and caches nothing",
    async (name) => {
      const unknown = await answer("GET", "/api/v1/view/planets/x");
      expect(unknown.status).toBe(404);
      expect(await answer("GET", `/api/v1/view/${name}/x`)).toEqual(unknown);
      expect(await documentsOf(name)).toBe(0);
    },
  );

  it.each(PROTOTYPE_NAMES)("POST /api/v1/bulk/%s answers as an unknown index does", async (name) => {
    const body = { fingerprints: ["ab".repeat(32)] };
    const unknown = await answer("POST", "/api/v1/bulk/planets", body);
    expect(unknown.status).toBe(404);
    expect(await answer("POST", `/api/v1/bulk/${name}`, body)).toEqual(unknown);
    expect(await documentsOf(name)).toBe(0);
  });

  it.each(PROTOTYPE_NAMES)("POST /api/v1/search/%s answers as an unknown index does", async (name) => {
    const unknown = await answer("POST", "/api/v1/search/planets", { query: "*" });
    expect(unknown.status).toBe(404);
    expect(await answer("POST", `/api/v1/search/${name}`, { query: "*" })).toEqual(unknown);
  });

  it.each(PROTOTYPE_NAMES)("DELETE /admin/cache/%s/x answers as an unknown index does", async (name) => {
    const unknown = await admin("DELETE", "/admin/cache/planets/x");
    expect(unknown.status).toBe(400);
    const res = await admin("DELETE", `/admin/cache/${name}/x`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(await unknown.json());
  });
});
