import { v1UnauthorizedErrorSchema, v2ErrorSchema } from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { basicAuth, buildRequest, createTenant, tenantAuth, workerFetch } from "./support/requests";
import { concreteRoutes } from "./support/routes";
import { testEdge } from "./support/test-edge";
import { ledgerUsed } from "./support/ledger";

async function usedOf(tenantId: string): Promise<number> {
  return { used: await ledgerUsed(tenantId) }?.used ?? -1;
}

async function expectRefused(res: Response, path: string): Promise<void> {
  const body: unknown = await res.json();
  if (path.startsWith("/api/v1/")) {
    expect(res.status).toBe(403);
    // The spec's v1 refusal body, `unathorized` spelled so.
    expect(v1UnauthorizedErrorSchema.parse(body).error).toMatch(/API ID and secret|disabled/);
  } else {
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toBe('Basic realm="scangate"');
    expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 401, status: "Unauthorized" });
  }
}

describe("tenant authentication on every API route", async () => {
  const tenant = await createTenant({ allowance: 1000 });
  for (const route of concreteRoutes()) {
    describe(`${route.method} ${route.path}`, () => {
      for (const [name, auth] of [
        ["no credentials", null],
        ["a wrong secret", basicAuth(tenant.api_id, `${tenant.api_secret}x`)],
        ["a prefix of the secret", basicAuth(tenant.api_id, tenant.api_secret.slice(0, -1))],
        ["an unknown API ID", basicAuth("00000000-0000-4000-8000-000000000000", tenant.api_secret)],
        ["the upstream's own credential", basicAuth("origin-local", "origin-local-secret")],
        ["a non-Basic scheme", `Bearer ${tenant.api_secret}`],
        ["Basic credentials that are not base64", "Basic ***"],
        ["Basic credentials without a colon", `Basic ${btoa(tenant.api_id)}`],
      ] as const) {
        it(`refuses ${name} and charges nothing`, async () => {
          const before = await usedOf(tenant.id);
          const res = await workerFetch(buildRequest(route.method, route.path, { body: route.body, auth }));
          await expectRefused(res, route.path);
          expect(await usedOf(tenant.id)).toBe(before);
        });
      }
    });
  }
});

describe("credential changes reach every isolate within 5 seconds", () => {
  const account = (edge: ReturnType<typeof testEdge>, auth: string) =>
    edge.fetch(buildRequest("GET", "/api/v1/account", { auth }));

  it("a tenant disabled in D1 by another isolate is refused once the 5 s cache entry ends", async () => {
    const edge = testEdge();
    const tenant = await createTenant({}, edge.fetch);
    expect((await account(edge, tenantAuth(tenant))).status).toBe(200);
    // Another isolate's admin call: this isolate's cache is not told.
    await env.DB.prepare("update tenants set disabled = 1 where id = ?").bind(tenant.id).run();
    edge.clock.advance(4_000);
    expect((await account(edge, tenantAuth(tenant))).status).toBe(200);
    edge.clock.advance(1_000);
    await expectRefused(await account(edge, tenantAuth(tenant)), "/api/v1/account");
  });

  it("a busy tenant's row is read again in the background from 4 s on, so a change shows before 5 s", async () => {
    const edge = testEdge();
    const tenant = await createTenant({}, edge.fetch);
    expect((await account(edge, tenantAuth(tenant))).status).toBe(200);
    await env.DB.prepare("update tenants set disabled = 1 where id = ?").bind(tenant.id).run();
    edge.clock.advance(3_900);
    // Younger than 4 s: answered from memory, nothing read again.
    expect((await account(edge, tenantAuth(tenant))).status).toBe(200);
    edge.clock.advance(100);
    // From 4 s: still answered from memory, while the row is read again behind the answer.
    expect((await account(edge, tenantAuth(tenant))).status).toBe(200);
    await expectRefused(await account(edge, tenantAuth(tenant)), "/api/v1/account");
  });

  it("a rotated-out secret is refused within 5 s, and a deleted tenant too", async () => {
    const edge = testEdge();
    const rotated = await createTenant({}, edge.fetch);
    const deleted = await createTenant({}, edge.fetch);
    expect((await account(edge, tenantAuth(rotated))).status).toBe(200);
    expect((await account(edge, tenantAuth(deleted))).status).toBe(200);
    await env.DB.prepare("update tenants set secret_hash = 'rotated' where id = ?").bind(rotated.id).run();
    await env.DB.prepare("delete from tenants where id = ?").bind(deleted.id).run();
    edge.clock.advance(5_000);
    await expectRefused(await account(edge, tenantAuth(rotated)), "/api/v1/account");
    await expectRefused(await account(edge, tenantAuth(deleted)), "/api/v1/account");
  });

  it("the old secret of a rotation with a grace period stops when the grace ends", async () => {
    const edge = testEdge();
    const tenant = await createTenant({}, edge.fetch);
    const res = await edge.fetch(
      buildRequest("POST", `/admin/tenants/${tenant.id}/rotate`, {
        body: { grace_seconds: 60 },
        auth: `Bearer ${env.ADMIN_TOKEN}`,
      }),
    );
    const rotated = await res.json<{ api_id: string; api_secret: string }>();
    expect((await account(edge, tenantAuth(tenant))).status).toBe(200);
    edge.clock.advance(60_000);
    await expectRefused(await account(edge, tenantAuth(tenant)), "/api/v1/account");
    expect((await account(edge, tenantAuth(rotated))).status).toBe(200);
  });

  it("a secret remembered after it matched lets in only that exact secret", async () => {
    const edge = testEdge();
    const tenant = await createTenant({}, edge.fetch);
    expect((await account(edge, tenantAuth(tenant))).status).toBe(200);
    // Same length, last character changed: compared against the remembered bytes, then the hash.
    const last = tenant.api_secret.slice(-1) === "A" ? "B" : "A";
    const nearMiss = { ...tenant, api_secret: `${tenant.api_secret.slice(0, -1)}${last}` };
    await expectRefused(await account(edge, tenantAuth(nearMiss)), "/api/v1/account");
    await expectRefused(await account(edge, tenantAuth({ ...tenant, api_secret: "" })), "/api/v1/account");
    expect((await account(edge, tenantAuth(tenant))).status).toBe(200);
  });

  it("an Authorization value decoded before is checked again on every request, past the memo's size", async () => {
    const edge = testEdge();
    const tenant = await createTenant({}, edge.fetch);
    const wrong = (n: number) => ({ ...tenant, api_secret: `${tenant.api_secret}${n}` });
    // More distinct values than the isolate keeps decoded, each refused every time it is sent.
    for (let n = 0; n < 300; n += 1) {
      const res = await account(edge, tenantAuth(wrong(n)));
      expect(res.status).toBe(403);
      await res.body?.cancel();
    }
    await expectRefused(await account(edge, tenantAuth(wrong(299))), "/api/v1/account");
    expect((await account(edge, tenantAuth(tenant))).status).toBe(200);
    // The same value once the tenant is disabled: refused, though its decoding is remembered.
    await env.DB.prepare("update tenants set disabled = 1 where id = ?").bind(tenant.id).run();
    edge.clock.advance(6_000);
    await expectRefused(await account(edge, tenantAuth(tenant)), "/api/v1/account");
  });

  it("a disabled tenant is told so on v2 routes too, with 401", async () => {
    const edge = testEdge();
    const tenant = await createTenant({}, edge.fetch);
    await env.DB.prepare("update tenants set disabled = 1 where id = ?").bind(tenant.id).run();
    const res = await edge.fetch(buildRequest("GET", "/api/v2/hosts/1.1.1.1", { auth: tenantAuth(tenant) }));
    expect(res.status).toBe(401);
    expect((await res.json<{ error: string }>()).error).toMatch(/disabled/);
  });
});
