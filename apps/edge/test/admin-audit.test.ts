import { auditListSchema, cachePurgeResultSchema } from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { D1DocumentCache } from "../src/cache/d1";
import { edgeDb } from "../src/db/client";
import { admin, createTenant } from "./support/requests";

describe("GET /admin/audit", () => {
  it("records every admin action with before and after, and never a secret", async () => {
    const tenant = await createTenant({ name: "audited", allowance: 10 });
    await admin("PATCH", `/admin/tenants/${tenant.id}`, { allowance: 20 });
    const rotated = await (
      await admin("POST", `/admin/tenants/${tenant.id}/rotate`)
    ).json<{ api_secret: string }>();
    await admin("DELETE", `/admin/tenants/${tenant.id}`);

    const res = await admin("GET", `/admin/audit?tenant_id=${tenant.id}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const { entries } = auditListSchema.parse(JSON.parse(text));
    expect(entries.map((e) => e.action)).toEqual([
      "tenant.delete",
      "tenant.rotate",
      "tenant.update",
      "tenant.create",
    ]);
    const update = entries.find((e) => e.action === "tenant.update");
    expect(update?.before).toMatchObject({ allowance: 10 });
    expect(update?.after).toMatchObject({ allowance: 20 });
    expect(entries.every((e) => e.actor === "admin" && e.tenant_id === tenant.id)).toBe(true);
    expect(text).not.toContain(tenant.api_secret);
    expect(text).not.toContain(rotated.api_secret);
    expect(text).not.toContain("secret_hash");
  });

  it("limits the list and refuses a bad limit", async () => {
    await createTenant();
    await createTenant();
    const { entries } = auditListSchema.parse(await (await admin("GET", "/admin/audit?limit=1")).json());
    expect(entries).toHaveLength(1);
    expect((await admin("GET", "/admin/audit?limit=0")).status).toBe(400);
    expect((await admin("GET", "/admin/audit?limit=many")).status).toBe(400);
  });
});

describe("DELETE /admin/cache/:index/:id", () => {
  const fp = "ab".repeat(32);
  const documents = new D1DocumentCache(edgeDb(env.DB));
  const unexpiring = { body: "{}", negative: false, fetchedAt: 0, expiresAt: null };

  it("purges a cached document (any spelling of its id) and audits it", async () => {
    await documents.put([{ key: { index: "certificates", id: fp, atTime: "" }, doc: unexpiring }]);
    const res = await admin("DELETE", `/admin/cache/certificates/${fp.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(cachePurgeResultSchema.parse(await res.json())).toEqual({ deleted: 1 });
    expect(await documents.get({ index: "certificates", id: fp, atTime: "" })).toBeNull();
    const { entries } = auditListSchema.parse(await (await admin("GET", "/admin/audit?limit=1")).json());
    expect(entries[0]).toMatchObject({ action: "cache.purge", after: { deleted: 1 } });
  });

  it("purges every point in time of a host", async () => {
    await documents.put(
      ["", "1", "2"].map((atTime) => ({ key: { index: "hosts", id: "10.0.0.9", atTime }, doc: unexpiring })),
    );
    const res = await admin("DELETE", "/admin/cache/hosts/10.0.0.9");
    expect(await res.json()).toEqual({ deleted: 3 });
  });

  it("purges every page of a host's names and of a certificate's hosts", async () => {
    const pages = ["per_page=100", "per_page=1", "per_page=1&cursor=abc"];
    await documents.put([
      ...pages.map((atTime) => ({
        key: { index: "host_names" as const, id: "10.0.0.9", atTime },
        doc: unexpiring,
      })),
      ...pages.map((atTime) => ({
        key: { index: "certificate_hosts" as const, id: fp, atTime },
        doc: unexpiring,
      })),
    ]);
    expect(await (await admin("DELETE", "/admin/cache/host_names/10.0.0.9")).json()).toEqual({ deleted: 3 });
    expect(
      await (await admin("DELETE", `/admin/cache/certificate_hosts/${fp.toUpperCase()}`)).json(),
    ).toEqual({
      deleted: 3,
    });
  });

  it("purges Platform documents: a v3 host at every point in time, a certificate in any case", async () => {
    await documents.put([
      ...["", "2026-01-01T00:00:00Z"].map((atTime) => ({
        key: { index: "v3_host" as const, id: "10.0.0.9", atTime },
        doc: unexpiring,
      })),
      { key: { index: "v3_certificate", id: fp, atTime: "" }, doc: unexpiring },
      { key: { index: "v3_webproperty", id: "example.com:443", atTime: "" }, doc: unexpiring },
    ]);
    expect(await (await admin("DELETE", "/admin/cache/v3_host/10.0.0.9")).json()).toEqual({ deleted: 2 });
    expect(await (await admin("DELETE", `/admin/cache/v3_certificate/${fp.toUpperCase()}`)).json()).toEqual({
      deleted: 1,
    });
    expect(await (await admin("DELETE", "/admin/cache/v3_webproperty/Example.com:443")).json()).toEqual({
      deleted: 1,
    });
    expect(await documents.get({ index: "v3_certificate", id: fp, atTime: "" })).toBeNull();
    const { entries } = auditListSchema.parse(await (await admin("GET", "/admin/audit?limit=1")).json());
    expect(entries[0]).toMatchObject({
      action: "cache.purge",
      before: { index: "v3_webproperty", id: "example.com:443" },
    });
  });

  it("refuses a Platform index with an id that cannot name its document, changing nothing", async () => {
    await documents.put([{ key: { index: "v3_host", id: "10.0.0.8", atTime: "" }, doc: unexpiring }]);
    for (const path of ["v3_host/not-an-ip", "v3_certificate/10.0.0.8", "v3_webproperty/no-port"]) {
      const res = await admin("DELETE", `/admin/cache/${path}`);
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toMatch(/id: not a valid v3_/);
    }
    expect(await documents.get({ index: "v3_host", id: "10.0.0.8", atTime: "" })).not.toBeNull();
  });

  it("refuses an unknown index or an id that cannot name a document", async () => {
    expect((await admin("DELETE", "/admin/cache/host_names/not-an-ip")).status).toBe(400);
    expect((await admin("DELETE", "/admin/cache/certificate_hosts/10.0.0.9")).status).toBe(400);
    expect((await admin("DELETE", `/admin/cache/domains/${fp}`)).status).toBe(400);
    expect((await admin("DELETE", "/admin/cache/certificates/not-a-fingerprint")).status).toBe(400);
    expect((await admin("DELETE", "/admin/cache/ipv4/999.1.1.1")).status).toBe(400);
  });
});
