import { describe, expect, it } from "vitest";
import { AuthenticationError, BadRequestError, createAdminClient, NotFoundError } from "../../src/index";
import { adminClient, createTenant, EDGE_URL, edgeClient, edgeFetch, seedOrigin } from "./support/stack";

describe("createAdminClient tenants", () => {
  it("creates, lists, shows, updates, rotates, disables and deletes a tenant", async () => {
    const admin = adminClient();
    const created = await admin.tenants.create({
      name: "Team Blue",
      email: "blue@example.com",
      allowance: 40,
      period: "daily",
    });
    expect(created).toMatchObject({
      name: "Team Blue",
      email: "blue@example.com",
      allowance: 40,
      period: "daily",
      disabled: false,
    });
    expect(created.api_secret.length).toBeGreaterThan(10);
    expect((await edgeClient(created).account()).quota.allowance).toBe(40);

    expect((await admin.tenants.list()).tenants.map((t) => t.id)).toContain(created.id);
    expect(await admin.tenants.get(created.id)).not.toHaveProperty("api_secret");

    const updated = await admin.tenants.update(created.id, { allowance: 90, name: "Team Teal" });
    expect(updated).toMatchObject({ allowance: 90, name: "Team Teal" });

    const rotated = await admin.tenants.rotate(created.id);
    expect(rotated.api_secret).not.toBe(created.api_secret);
    await expect(edgeClient(created).account()).rejects.toBeInstanceOf(AuthenticationError);
    expect((await edgeClient(rotated).account()).quota.allowance).toBe(90);

    expect((await admin.tenants.disable(created.id)).disabled).toBe(true);
    await expect(edgeClient(rotated).account()).rejects.toBeInstanceOf(AuthenticationError);

    await admin.tenants.delete(created.id);
    await expect(admin.tenants.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("keeps the old secret working during a rotation's grace period", async () => {
    const admin = adminClient();
    const created = await admin.tenants.create({ name: "Grace" });
    const rotated = await admin.tenants.rotate(created.id, { graceSeconds: 600 });
    expect(rotated.previous_secret_expires_at).not.toBeNull();
    expect((await edgeClient(created).account()).login).toBeTruthy();
    expect((await edgeClient(rotated).account()).login).toBeTruthy();
  });

  it("throws AuthenticationError for a wrong admin token", async () => {
    const wrong = createAdminClient({ baseUrl: EDGE_URL, adminToken: "not-the-token", fetch: edgeFetch });
    await expect(wrong.tenants.list()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it("throws BadRequestError naming the field for an invalid tenant", async () => {
    const error = await adminClient()
      .tenants.create({ name: "x", allowance: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toContain("allowance");
  });

  it("throws NotFoundError for a tenant that does not exist", async () => {
    await expect(adminClient().tenants.update("tnt_doesnotexist", { allowance: 5 })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe("createAdminClient Platform tokens", () => {
  it("issues a token shown once, rotates it with a grace period, shows its state and revokes it", async () => {
    const admin = adminClient();
    const tenant = await createTenant();
    expect(await admin.tenants.platformToken(tenant.id)).toMatchObject({ token_id: null, issued_at: null });

    const first = await admin.tenants.issuePlatformToken(tenant.id);
    expect(first.token).toMatch(/^sgt_/);
    const shown = await admin.tenants.platformToken(tenant.id);
    expect(shown).toEqual({
      tenant_id: tenant.id,
      token_id: first.token_id,
      issued_at: first.issued_at,
      previous_token_expires_at: null,
    });
    expect(JSON.stringify(shown)).not.toContain(first.token);

    const second = await admin.tenants.issuePlatformToken(tenant.id, { graceSeconds: 120 });
    expect(second.token).not.toBe(first.token);
    expect(second.previous_token_expires_at).not.toBeNull();

    expect(await admin.tenants.revokePlatformToken(tenant.id)).toEqual({ tenant_id: tenant.id, revoked: 2 });
    expect((await admin.tenants.platformToken(tenant.id)).token_id).toBeNull();
  });

  it("throws BadRequestError for a bad grace period and NotFoundError for an unknown tenant", async () => {
    const admin = adminClient();
    const tenant = await createTenant();
    await expect(admin.tenants.issuePlatformToken(tenant.id, { graceSeconds: -5 })).rejects.toBeInstanceOf(
      BadRequestError,
    );
    await expect(admin.tenants.revokePlatformToken("tnt_doesnotexist")).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("createAdminClient cache", () => {
  it("purges a cached host so the next view goes upstream again", async () => {
    await seedOrigin();
    const client = edgeClient(await createTenant());
    await client.hosts.view("8.8.8.8");
    expect(await adminClient().cache.purge("hosts", "8.8.8.8")).toEqual({
      deleted: expect.any(Number) as number,
    });
    expect((await adminClient().cache.purge("hosts", "8.8.8.8")).deleted).toBe(0);
  });

  it("throws BadRequestError for an index the cache does not hold", async () => {
    await expect(adminClient().cache.purge("nope" as "hosts", "x")).rejects.toBeInstanceOf(BadRequestError);
  });
});
