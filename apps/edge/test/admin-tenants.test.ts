import { tenantListSchema, tenantSchema, tenantWithSecretSchema, v2ErrorSchema } from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashSecret } from "../src/auth/secrets";
import { PROTOTYPE_NAMES } from "./support/prototype-names";
import { admin, buildRequest, createTenant, tenantAuth, workerFetch } from "./support/requests";

async function tenantCount(): Promise<number> {
  return (await env.DB.prepare("select count(*) as n from tenants").first<{ n: number }>())?.n ?? 0;
}

async function account(tenant: { api_id: string; api_secret: string }): Promise<Response> {
  return workerFetch(buildRequest("GET", "/api/v1/account", { auth: tenantAuth(tenant) }));
}

describe("admin API authentication", () => {
  for (const [name, auth] of [
    ["no Authorization header", null],
    ["a wrong token", "Bearer not-the-admin-token-at-all-0000000000"],
    ["Basic instead of Bearer", `Basic ${btoa("admin:x")}`],
  ] as const) {
    it(`refuses ${name} with 401 and changes nothing`, async () => {
      const before = await tenantCount();
      const res = await workerFetch(
        buildRequest("POST", "/admin/tenants", { body: { name: "mallory" }, auth }),
      );
      expect(res.status).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="scangate-admin"');
      expect(v2ErrorSchema.parse(await res.json())).toMatchObject({ code: 401, status: "Unauthorized" });
      expect(await tenantCount()).toBe(before);
    });
  }
});

describe("POST /admin/tenants", () => {
  it("creates a tenant with defaults and shows its secret once", async () => {
    const res = await admin("POST", "/admin/tenants", { name: "alice", email: "alice@example.com" });
    expect(res.status).toBe(201);
    const tenant = tenantWithSecretSchema.parse(await res.json());
    expect(tenant).toMatchObject({
      name: "alice",
      email: "alice@example.com",
      allowance: 250,
      period: "monthly",
      used: 0,
      tier: "standard",
      disabled: false,
    });
    expect(tenant.id).toMatch(/^tnt_[0-9a-f]{32}$/);
    expect(tenant.api_secret).toMatch(/^sgs_[A-Za-z0-9_-]{43}$/);
    const now = new Date();
    expect(tenant.resets_at).toBe(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    );

    const shown = await (await admin("GET", `/admin/tenants/${tenant.id}`)).json();
    expect(tenantSchema.strict().parse(shown)).not.toHaveProperty("api_secret");
    const row = await env.DB.prepare("select * from tenants where id = ?")
      .bind(tenant.id)
      .first<Record<string, unknown>>();
    expect(row?.secret_hash).toBe(await hashSecret(tenant.api_secret));
    expect(JSON.stringify(row)).not.toContain(tenant.api_secret);
  });

  it("takes allowance, period and tier", async () => {
    const tenant = await createTenant({ allowance: 5, period: "never", tier: "high" });
    expect(tenant).toMatchObject({ allowance: 5, period: "never", tier: "high", resets_at: null });
  });

  for (const [what, body, message] of [
    ["a missing name", {}, /name/],
    ["an unknown period", { name: "x", period: "weekly" }, /period/],
    ["an unknown tier", { name: "x", tier: "gold" }, /tier/],
    ["a zero allowance", { name: "x", allowance: 0 }, /allowance/],
    ["a fractional allowance", { name: "x", allowance: 1.5 }, /allowance/],
    ["an unknown field", { name: "x", secret: "mine" }, /secret/],
    ["a bad email", { name: "x", email: "not-an-email" }, /email/],
  ] as const) {
    it(`refuses ${what} with 400 and creates nothing`, async () => {
      const before = await tenantCount();
      const res = await admin("POST", "/admin/tenants", body);
      expect(res.status).toBe(400);
      const error = v2ErrorSchema.parse(await res.json());
      expect(error).toMatchObject({ code: 400, status: "Bad Request" });
      expect(error.error).toMatch(message);
      expect(await tenantCount()).toBe(before);
    });
  }

  // Tiers and periods are closed sets: a name every object inherits (a tenant on tier
  // "constructor" would have no burst limit) is as unknown as any other.
  for (const field of ["tier", "period"] as const) {
    it.each(PROTOTYPE_NAMES)(
      `refuses the inherited name %s as a ${field} with 400 and creates nothing`,
      async (name) => {
        const before = await tenantCount();
        const res = await admin("POST", "/admin/tenants", { name: "mallory", [field]: name });
        expect(res.status).toBe(400);
        const error = v2ErrorSchema.parse(await res.json());
        expect(error).toMatchObject({ code: 400, status: "Bad Request" });
        expect(error.error).toMatch(field);
        expect(await tenantCount()).toBe(before);
      },
    );
  }

  it("refuses a body that is not JSON with 400", async () => {
    const res = await workerFetch(
      buildRequest("POST", "/admin/tenants", { body: "{name:", auth: `Bearer ${env.ADMIN_TOKEN}` }),
    );
    expect(res.status).toBe(400);
    expect(v2ErrorSchema.parse(await res.json()).error).toMatch(/not valid JSON/);
  });

  it("refuses a body that is not declared as JSON with 415", async () => {
    const res = await workerFetch(
      buildRequest("POST", "/admin/tenants", {
        body: JSON.stringify({ name: "x" }),
        auth: `Bearer ${env.ADMIN_TOKEN}`,
        headers: { "content-type": "text/plain" },
      }),
    );
    expect(res.status).toBe(415);
  });
});

describe("GET /admin/tenants and /admin/tenants/:id", () => {
  it("lists tenants without secrets", async () => {
    const tenant = await createTenant();
    const res = await admin("GET", "/admin/tenants");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(tenant.api_secret);
    expect(text).not.toContain("secret_hash");
    const { tenants } = tenantListSchema.parse(JSON.parse(text));
    expect(tenants.map((t) => t.id)).toContain(tenant.id);
  });

  it("answers 404 for an unknown tenant", async () => {
    const res = await admin("GET", "/admin/tenants/tnt_nope");
    expect(res.status).toBe(404);
    expect(v2ErrorSchema.parse(await res.json()).code).toBe(404);
  });
});

describe("PATCH /admin/tenants/:id", () => {
  it("changes allowance, tier and period, and a new period restarts the reset clock", async () => {
    const tenant = await createTenant({ period: "monthly" });
    const res = await admin("PATCH", `/admin/tenants/${tenant.id}`, {
      allowance: 42,
      tier: "low",
      period: "daily",
    });
    expect(res.status).toBe(200);
    const updated = tenantSchema.parse(await res.json());
    expect(updated).toMatchObject({ allowance: 42, tier: "low", period: "daily" });
    const now = new Date();
    expect(updated.resets_at).toBe(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString(),
    );
  });

  it("disables a tenant at once in this isolate, and enabling lets it back in", async () => {
    const tenant = await createTenant();
    expect((await account(tenant)).status).toBe(200);
    await admin("PATCH", `/admin/tenants/${tenant.id}`, { disabled: true });
    const refused = await account(tenant);
    expect(refused.status).toBe(403);
    expect((await refused.json<{ error: string }>()).error).toMatch(/disabled/);
    await admin("PATCH", `/admin/tenants/${tenant.id}`, { disabled: false });
    expect((await account(tenant)).status).toBe(200);
  });

  it("refuses an empty change, a bad tier, and an unknown tenant", async () => {
    const tenant = await createTenant({ allowance: 7 });
    expect((await admin("PATCH", `/admin/tenants/${tenant.id}`, {})).status).toBe(400);
    expect((await admin("PATCH", `/admin/tenants/${tenant.id}`, { tier: "platinum" })).status).toBe(400);
    expect((await admin("PATCH", `/admin/tenants/${tenant.id}`, { api_id: "mine" })).status).toBe(400);
    expect((await admin("PATCH", "/admin/tenants/tnt_missing", { allowance: 3 })).status).toBe(404);
    const shown = tenantSchema.parse(await (await admin("GET", `/admin/tenants/${tenant.id}`)).json());
    expect(shown.allowance).toBe(7);
  });
});

describe("PATCH /admin/tenants/:id with inherited names", () => {
  for (const field of ["tier", "period"] as const) {
    it.each(PROTOTYPE_NAMES)(`refuses %s as a ${field} with 400 and changes nothing`, async (name) => {
      const tenant = await createTenant({ tier: "low", period: "daily" });
      const res = await admin("PATCH", `/admin/tenants/${tenant.id}`, { [field]: name });
      expect(res.status).toBe(400);
      const error = v2ErrorSchema.parse(await res.json());
      expect(error).toMatchObject({ code: 400, status: "Bad Request" });
      expect(error.error).toMatch(field);
      const shown = tenantSchema.parse(await (await admin("GET", `/admin/tenants/${tenant.id}`)).json());
      expect(shown).toMatchObject({ tier: "low", period: "daily", updated_at: tenant.updated_at });
    });
  }
});

describe("DELETE /admin/tenants/:id", () => {
  it("deletes the tenant and its credential stops working", async () => {
    const tenant = await createTenant();
    expect((await account(tenant)).status).toBe(200);
    const res = await admin("DELETE", `/admin/tenants/${tenant.id}`);
    expect(res.status).toBe(200);
    expect((await admin("GET", `/admin/tenants/${tenant.id}`)).status).toBe(404);
    expect((await account(tenant)).status).toBe(403);
    expect((await admin("DELETE", `/admin/tenants/${tenant.id}`)).status).toBe(404);
  });
});

describe("POST /admin/tenants/:id/rotate", () => {
  it("returns a new secret; the old one stops at once without a grace period", async () => {
    const tenant = await createTenant();
    const res = await admin("POST", `/admin/tenants/${tenant.id}/rotate`);
    expect(res.status).toBe(200);
    const rotated = tenantWithSecretSchema.parse(await res.json());
    expect(rotated.api_id).toBe(tenant.api_id);
    expect(rotated.api_secret).not.toBe(tenant.api_secret);
    expect(rotated.previous_secret_expires_at).toBeNull();
    expect((await account(tenant)).status).toBe(403);
    expect((await account(rotated)).status).toBe(200);
  });

  it("keeps the old secret working during a grace period", async () => {
    const tenant = await createTenant();
    const rotated = tenantWithSecretSchema.parse(
      await (await admin("POST", `/admin/tenants/${tenant.id}/rotate`, { grace_seconds: 3600 })).json(),
    );
    expect(rotated.previous_secret_expires_at).not.toBeNull();
    expect((await account(tenant)).status).toBe(200);
    expect((await account(rotated)).status).toBe(200);
  });

  it("refuses a negative grace period and an unknown tenant", async () => {
    const tenant = await createTenant();
    expect((await admin("POST", `/admin/tenants/${tenant.id}/rotate`, { grace_seconds: -1 })).status).toBe(
      400,
    );
    expect((await account(tenant)).status).toBe(200);
    expect((await admin("POST", "/admin/tenants/tnt_missing/rotate")).status).toBe(404);
  });
});

describe("GET /api/v1/account of a tenant", () => {
  it("gives last_login with its .ffffff fraction, which `censys account` cuts off to whole seconds", async () => {
    const tenant = await createTenant({});
    const res = await account(tenant);
    expect(res.status).toBe(200);
    const body = await res.json<{ first_login: string; last_login: string }>();
    expect(body.last_login).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/);
    expect(body.last_login.slice(0, -7)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(body.first_login).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });
});
