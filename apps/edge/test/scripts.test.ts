import {
  platformTokenStatusSchema,
  platformTokenWithSecretSchema,
  tenantSchema,
  tenantWithSecretSchema,
} from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ensureDemoPlatformToken, ensureDemoTenant } from "../scripts/local-setup.mjs";
import { adminRequestFor, runTenantCommand } from "../scripts/tenant.mjs";
import { EDGE, workerFetch } from "./support/requests";

const run = (argv: string[]) =>
  runTenantCommand(argv, { edgeUrl: EDGE, adminToken: env.ADMIN_TOKEN ?? "", fetch: workerFetch });

describe("scripts/tenant.mjs", () => {
  it("creates a tenant in one command, then updates, rotates, disables and deletes it", async () => {
    const created = await run([
      "create",
      "--name",
      "alice",
      "--allowance",
      "100",
      "--period",
      "daily",
      "--tier",
      "low",
    ]);
    expect(created.status).toBe(201);
    const tenant = tenantWithSecretSchema.parse(created.body);
    expect(tenant).toMatchObject({ name: "alice", allowance: 100, period: "daily", tier: "low" });

    const updated = await run(["update", tenant.id, "--allowance", "200"]);
    expect(tenantSchema.parse(updated.body).allowance).toBe(200);
    const rotated = await run(["rotate", tenant.id, "--grace", "60"]);
    expect(tenantWithSecretSchema.parse(rotated.body).previous_secret_expires_at).not.toBeNull();
    expect(tenantSchema.parse((await run(["disable", tenant.id])).body).disabled).toBe(true);
    expect((await run(["delete", tenant.id])).status).toBe(200);
    expect((await run(["show", tenant.id])).status).toBe(404);
  });

  it("turns commands into admin requests and refuses malformed ones before sending", () => {
    expect(adminRequestFor(["purge-cache", "certificates", "ab"])).toEqual({
      method: "DELETE",
      path: "/admin/cache/certificates/ab",
    });
    expect(adminRequestFor(["audit", "--tenant", "tnt_1", "--limit", "5"]).path).toBe(
      "/admin/audit?tenant_id=tnt_1&limit=5",
    );
    expect(() => adminRequestFor(["create"])).toThrow(/--name/);
    expect(() => adminRequestFor(["create", "--name", "x", "--allowance", "lots"])).toThrow(/whole number/);
    expect(() => adminRequestFor(["show"])).toThrow(/tenant id/);
    expect(() => adminRequestFor(["launch"])).toThrow(/unknown command/);
    expect(() => adminRequestFor(["list", "--colour", "red"])).toThrow(/unknown option/);
    expect(() => adminRequestFor(["create", "--name"])).toThrow(/needs a value/);
    expect(adminRequestFor(["create", "--name=bob"]).body).toEqual({ name: "bob" });
  });
});

describe("scripts/tenant.mjs Platform tokens", () => {
  it("issues a token, shows its state without it, rotates with a grace period and revokes", async () => {
    const tenant = tenantWithSecretSchema.parse((await run(["create", "--name", "tokens"])).body);
    const issued = await run(["token", tenant.id]);
    expect(issued.status).toBe(201);
    const first = platformTokenWithSecretSchema.parse(issued.body);
    const status = platformTokenStatusSchema.strict().parse((await run(["token-status", tenant.id])).body);
    expect(status.token_id).toBe(first.token_id);
    const rotated = platformTokenWithSecretSchema.parse(
      (await run(["token", tenant.id, "--grace", "60"])).body,
    );
    expect(rotated.previous_token_expires_at).not.toBeNull();
    expect((await run(["revoke-token", tenant.id])).body).toEqual({ tenant_id: tenant.id, revoked: 2 });
    expect(() => adminRequestFor(["token"])).toThrow(/needs a tenant id/);
    expect(() => adminRequestFor(["token", tenant.id, "--grace", "-1"])).toThrow(/whole number/);
  });
});

describe("scripts/local-setup.mjs ensureDemoTenant", () => {
  it("creates the demo tenant, reuses working credentials, and rotates when they are lost", async () => {
    const options = { edgeUrl: EDGE, adminToken: env.ADMIN_TOKEN ?? "", fetch: workerFetch };
    const first = await ensureDemoTenant({ ...options, known: {} });
    expect(first.reused).toBe(false);
    const again = await ensureDemoTenant({
      ...options,
      known: { DEMO_API_ID: first.apiId, DEMO_API_SECRET: first.apiSecret },
    });
    expect(again).toEqual({ ...first, reused: true });
    const lost = await ensureDemoTenant({ ...options, known: {} });
    expect(lost.tenantId).toBe(first.tenantId);
    expect(lost.apiSecret).not.toBe(first.apiSecret);
    const res = await workerFetch(
      new Request(`${EDGE}/api/v1/account`, {
        headers: { authorization: `Basic ${btoa(`${lost.apiId}:${lost.apiSecret}`)}` },
      }),
    );
    expect(res.status).toBe(200);
  });
});

describe("scripts/local-setup.mjs ensureDemoPlatformToken", () => {
  it("issues the demo tenant's token, reuses it while the edge accepts it, and issues anew once revoked", async () => {
    const options = { edgeUrl: EDGE, adminToken: env.ADMIN_TOKEN ?? "", fetch: workerFetch };
    const demo = await ensureDemoTenant({ ...options, known: {} });
    const first = await ensureDemoPlatformToken({ ...options, tenantId: demo.tenantId });
    expect(first?.reused).toBe(false);
    expect(first?.token).toMatch(/^sgt_/);
    const again = await ensureDemoPlatformToken({
      ...options,
      tenantId: demo.tenantId,
      known: { DEMO_PLATFORM_TOKEN: first?.token ?? "" },
    });
    expect(again).toEqual({ token: first?.token, reused: true });
    await workerFetch(
      new Request(`${EDGE}/admin/tenants/${demo.tenantId ?? ""}/platform-token`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${env.ADMIN_TOKEN ?? ""}` },
      }),
    );
    const reissued = await ensureDemoPlatformToken({
      ...options,
      tenantId: demo.tenantId,
      known: { DEMO_PLATFORM_TOKEN: first?.token ?? "" },
    });
    expect(reissued?.reused).toBe(false);
    expect(reissued?.token).not.toBe(first?.token);
    expect(await ensureDemoPlatformToken({ ...options, tenantId: null })).toBeNull();
  });
});
