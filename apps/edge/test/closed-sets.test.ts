import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { seedOrigin } from "./support/origin-data";
import { PROTOTYPE_NAMES } from "./support/prototype-names";
import {
  admin,
  adminAuth,
  buildRequest,
  createTenant,
  EDGE,
  tenantAuth,
  workerFetch,
} from "./support/requests";

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

describe("page notices are closed sets too", () => {
  const page = (path: string, cookie?: string) =>
    workerFetch(new Request(`${EDGE}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" }));

  async function adminCookie(): Promise<string> {
    const res = await workerFetch(
      new Request(`${EDGE}/admin/login`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "cf-connecting-ip": "198.51.100.201",
          origin: EDGE,
          "sec-fetch-site": "same-origin",
        },
        body: new URLSearchParams({ token: adminAuth().replace(/^Bearer /, "") }).toString(),
        redirect: "manual",
      }),
    );
    expect(res.status).toBe(303);
    return res.headers.getSetCookie()[0]!.split(";")[0]!;
  }

  /** The page's text with the per-response CSRF token and nonces taken out. */
  const comparable = async (res: Response) =>
    (await res.text()).replace(/(value|nonce)="[^"]*"/g, '$1=""').replace(/nonce-[^' ;]+/g, "nonce-");

  it.each(PROTOTYPE_NAMES)(
    "GET /dashboard/login?notice=%s shows no notice, as an unknown code",
    async (name) => {
      const unknown = await page("/dashboard/login?notice=planets");
      const res = await page(`/dashboard/login?notice=${name}`);
      expect(res.status).toBe(200);
      expect(await comparable(res)).toBe(await comparable(unknown));
    },
  );

  it.each(PROTOTYPE_NAMES)("GET /admin/login?notice=%s shows no notice, as an unknown code", async (name) => {
    const unknown = await page("/admin/login?notice=planets");
    const res = await page(`/admin/login?notice=${name}`);
    expect(res.status).toBe(200);
    expect(await comparable(res)).toBe(await comparable(unknown));
  });

  it.each(PROTOTYPE_NAMES)("GET /admin/console/tenants/:id?done=%s shows no banner", async (name) => {
    const cookie = await adminCookie();
    const unknown = await page(`/admin/console/tenants/${tenant.id}?done=planets`, cookie);
    expect(unknown.status).toBe(200);
    const res = await page(`/admin/console/tenants/${tenant.id}?done=${name}`, cookie);
    expect(res.status).toBe(200);
    expect(await comparable(res)).toBe(await comparable(unknown));
  });
});
