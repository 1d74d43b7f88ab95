import {
  auditListSchema,
  platformTokenRevokeResultSchema,
  platformTokenStatusSchema,
  platformTokenWithSecretSchema,
  v2ErrorSchema,
} from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashSecret } from "../src/auth/secrets";
import { admin, buildRequest, createTenant, type Fetch } from "./support/requests";
import { testEdge } from "./support/test-edge";

const PLATFORM = JSON.stringify([{ token: "pool-token-0123456789", organization_id: "org-upstream-1" }]);

async function tokenRows(tenantId: string): Promise<Array<Record<string, unknown>>> {
  const { results } = await env.DB.prepare("select * from platform_tokens where tenant_id = ?")
    .bind(tenantId)
    .all<Record<string, unknown>>();
  return results;
}

function bearer(token: string): string {
  return `Bearer ${token}`;
}

/** A /v3 call answered by a scripted upstream: 200 when the tenant's token is accepted. */
async function v3Status(fetcher: Fetch, token: string): Promise<number> {
  const res = await fetcher(buildRequest("GET", "/v3/global/asset/host/1.1.1.1", { auth: bearer(token) }));
  await res.arrayBuffer();
  return res.status;
}

function scriptedEdge() {
  const edge = testEdge({ vars: { PLATFORM_CREDENTIALS: PLATFORM } });
  edge.upstream.answer(() => Response.json({ result: { resource: { ip: "1.1.1.1" } } }));
  return edge;
}

async function issue(fetcher: Fetch, tenantId: string, body?: unknown): Promise<Response> {
  return admin("POST", `/admin/tenants/${tenantId}/platform-token`, body, fetcher);
}

describe("POST /admin/tenants/:id/platform-token", () => {
  it("issues a token shown once and stored only as its SHA-256", async () => {
    const tenant = await createTenant();
    const issued = await admin("POST", `/admin/tenants/${tenant.id}/platform-token`);
    expect(issued.status).toBe(201);
    const body = platformTokenWithSecretSchema.parse(await issued.json());
    expect(body.tenant_id).toBe(tenant.id);
    expect(body.token).toMatch(/^sgt_[A-Za-z0-9_-]{43}$/);
    expect(body.token_id).toMatch(/^ptk_[0-9a-f]{32}$/);
    expect(body.previous_token_expires_at).toBeNull();

    const rows = await tokenRows(tenant.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: body.token_id,
      token_hash: await hashSecret(body.token),
      expires_at: null,
    });
    // Nowhere in D1 in clear: not in the token table, the tenant row, or the audit log.
    for (const table of ["platform_tokens", "tenants", "audit_log"]) {
      const { results } = await env.DB.prepare(`select * from ${table}`).all();
      expect(JSON.stringify(results)).not.toContain(body.token);
    }

    const shown = await admin("GET", `/admin/tenants/${tenant.id}/platform-token`);
    expect(shown.status).toBe(200);
    const status = platformTokenStatusSchema.strict().parse(await shown.json());
    expect(status).toEqual({
      tenant_id: tenant.id,
      token_id: body.token_id,
      issued_at: body.issued_at,
      previous_token_expires_at: null,
    });
  });

  it("shows a tenant without a token as none", async () => {
    const tenant = await createTenant();
    const res = await admin("GET", `/admin/tenants/${tenant.id}/platform-token`);
    expect(platformTokenStatusSchema.parse(await res.json())).toEqual({
      tenant_id: tenant.id,
      token_id: null,
      issued_at: null,
      previous_token_expires_at: null,
    });
  });

  it("rotates with the default one-hour grace: the old token works until it ends", async () => {
    const edge = scriptedEdge();
    const tenant = await createTenant({}, edge.fetch);
    const first = platformTokenWithSecretSchema.parse(await (await issue(edge.fetch, tenant.id)).json());
    expect(await v3Status(edge.fetch, first.token)).toBe(200);

    const res = await issue(edge.fetch, tenant.id, {});
    expect(res.status).toBe(201);
    const second = platformTokenWithSecretSchema.parse(await res.json());
    expect(second.token).not.toBe(first.token);
    expect(second.previous_token_expires_at).toBe(new Date(edge.clock.now() + 3_600_000).toISOString());
    expect(await tokenRows(tenant.id)).toHaveLength(2);

    expect(await v3Status(edge.fetch, first.token)).toBe(200);
    expect(await v3Status(edge.fetch, second.token)).toBe(200);
    edge.clock.advance(3_599_000);
    expect(await v3Status(edge.fetch, first.token)).toBe(200);
    edge.clock.advance(1_000);
    expect(await v3Status(edge.fetch, first.token)).toBe(401);
    expect(await v3Status(edge.fetch, second.token)).toBe(200);
  });

  it("rotates with grace_seconds 0: the old token stops at once", async () => {
    const edge = scriptedEdge();
    const tenant = await createTenant({}, edge.fetch);
    const first = platformTokenWithSecretSchema.parse(await (await issue(edge.fetch, tenant.id)).json());
    expect(await v3Status(edge.fetch, first.token)).toBe(200);
    const second = platformTokenWithSecretSchema.parse(
      await (await issue(edge.fetch, tenant.id, { grace_seconds: 0 })).json(),
    );
    expect(second.previous_token_expires_at).toBeNull();
    expect(await v3Status(edge.fetch, first.token)).toBe(401);
    expect(await v3Status(edge.fetch, second.token)).toBe(200);
    expect(await tokenRows(tenant.id)).toHaveLength(1);
  });

  it("keeps at most one rotated-out token: a second rotation ends the first one's grace", async () => {
    const edge = scriptedEdge();
    const tenant = await createTenant({}, edge.fetch);
    const first = platformTokenWithSecretSchema.parse(await (await issue(edge.fetch, tenant.id)).json());
    const second = platformTokenWithSecretSchema.parse(await (await issue(edge.fetch, tenant.id)).json());
    const third = platformTokenWithSecretSchema.parse(await (await issue(edge.fetch, tenant.id)).json());
    expect(await tokenRows(tenant.id)).toHaveLength(2);
    expect(await v3Status(edge.fetch, first.token)).toBe(401);
    expect(await v3Status(edge.fetch, second.token)).toBe(200);
    expect(await v3Status(edge.fetch, third.token)).toBe(200);
  });

  for (const [what, body] of [
    ["a negative grace", { grace_seconds: -1 }],
    ["a grace past 30 days", { grace_seconds: 30 * 86_400 + 1 }],
    ["a fractional grace", { grace_seconds: 1.5 }],
    ["a grace as a string", { grace_seconds: "60" }],
    ["an unknown field", { token: "sgt_mine" }],
  ] as const) {
    it(`refuses ${what} with 400 and issues nothing`, async () => {
      const tenant = await createTenant();
      const res = await admin("POST", `/admin/tenants/${tenant.id}/platform-token`, body);
      expect(res.status).toBe(400);
      expect(v2ErrorSchema.parse(await res.json()).code).toBe(400);
      expect(await tokenRows(tenant.id)).toHaveLength(0);
    });
  }

  it("refuses a body that is not JSON with 400", async () => {
    const tenant = await createTenant();
    const res = await admin("POST", `/admin/tenants/${tenant.id}/platform-token`, "{not json");
    expect(res.status).toBe(400);
    expect(await tokenRows(tenant.id)).toHaveLength(0);
  });

  it("answers 404 for an unknown tenant on issue, show and revoke", async () => {
    for (const method of ["POST", "GET", "DELETE"]) {
      const res = await admin(method, "/admin/tenants/tnt_00000000000000000000000000000000/platform-token");
      expect(res.status).toBe(404);
      expect(v2ErrorSchema.parse(await res.json())).toMatchObject({
        code: 404,
        error: "no tenant with this id",
      });
    }
  });

  it("refuses every token route without the admin token", async () => {
    const tenant = await createTenant();
    for (const method of ["POST", "GET", "DELETE"]) {
      const res = await testEdge().fetch(
        buildRequest(method, `/admin/tenants/${tenant.id}/platform-token`, { auth: "Bearer sgt_not-admin" }),
      );
      expect(res.status).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="scangate-admin"');
    }
    expect(await tokenRows(tenant.id)).toHaveLength(0);
  });
});

describe("DELETE /admin/tenants/:id/platform-token", () => {
  it("revokes the current token and one in its grace period, at once in this isolate", async () => {
    const edge = scriptedEdge();
    const tenant = await createTenant({}, edge.fetch);
    const first = platformTokenWithSecretSchema.parse(await (await issue(edge.fetch, tenant.id)).json());
    const second = platformTokenWithSecretSchema.parse(await (await issue(edge.fetch, tenant.id)).json());
    expect(await v3Status(edge.fetch, first.token)).toBe(200);
    expect(await v3Status(edge.fetch, second.token)).toBe(200);

    const res = await admin("DELETE", `/admin/tenants/${tenant.id}/platform-token`, undefined, edge.fetch);
    expect(res.status).toBe(200);
    expect(platformTokenRevokeResultSchema.parse(await res.json())).toEqual({
      tenant_id: tenant.id,
      revoked: 2,
    });
    expect(await v3Status(edge.fetch, first.token)).toBe(401);
    expect(await v3Status(edge.fetch, second.token)).toBe(401);
    expect(await tokenRows(tenant.id)).toHaveLength(0);

    const again = await admin("DELETE", `/admin/tenants/${tenant.id}/platform-token`, undefined, edge.fetch);
    expect(platformTokenRevokeResultSchema.parse(await again.json()).revoked).toBe(0);
  });

  it("deleting the tenant deletes its tokens", async () => {
    const tenant = await createTenant();
    await admin("POST", `/admin/tenants/${tenant.id}/platform-token`);
    expect(await tokenRows(tenant.id)).toHaveLength(1);
    expect((await admin("DELETE", `/admin/tenants/${tenant.id}`)).status).toBe(200);
    expect(await tokenRows(tenant.id)).toHaveLength(0);
  });
});

describe("token changes in the audit log", () => {
  it("records issue, rotate and revoke with ids and times, never the token", async () => {
    const tenant = await createTenant();
    const first = platformTokenWithSecretSchema.parse(
      await (await admin("POST", `/admin/tenants/${tenant.id}/platform-token`)).json(),
    );
    const second = platformTokenWithSecretSchema.parse(
      await (await admin("POST", `/admin/tenants/${tenant.id}/platform-token`, { grace_seconds: 60 })).json(),
    );
    await admin("DELETE", `/admin/tenants/${tenant.id}/platform-token`);
    const res = await admin("GET", `/admin/audit?tenant_id=${tenant.id}`);
    const { entries } = auditListSchema.parse(await res.json());
    const text = JSON.stringify(entries);
    expect(text).not.toContain(first.token);
    expect(text).not.toContain(second.token);
    expect(text).not.toContain(await hashSecret(first.token));
    const tokenEntries = entries.filter((e) => e.action.startsWith("tenant.token.")).reverse();
    expect(tokenEntries.map((e) => [e.action, e.actor])).toEqual([
      ["tenant.token.issue", "admin"],
      ["tenant.token.rotate", "admin"],
      ["tenant.token.revoke", "admin"],
    ]);
    expect(tokenEntries[0]?.after).toMatchObject({ token_id: first.token_id });
    expect(tokenEntries[1]?.before).toMatchObject({ token_id: first.token_id });
    expect(tokenEntries[1]?.after).toMatchObject({ token_id: second.token_id, grace_seconds: 60 });
    expect(tokenEntries[2]?.after).toEqual({ tenant_id: tenant.id, revoked: 2 });
  });
});
