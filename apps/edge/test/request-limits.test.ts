import {
  CURSOR_MAX_CHARS,
  REQUEST_TARGET_MAX_CHARS,
  SEARCH_QUERY_MAX_CHARS,
  type TenantWithSecret,
} from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { json } from "./support/fake-upstream";
import { buildRequest, createTenant, tenantAuth } from "./support/requests";
import { testEdge } from "./support/test-edge";
import { ledgerUsed } from "./support/ledger";

// The length limits that are ours (core's limits.ts): over one is a JSON 400 in the route's
// version shape that asks the upstream nothing and changes nothing stored; at one, the request
// goes through.

const HOSTS_OK = { code: 200, status: "OK", result: { total: 0, hits: [], links: { prev: "", next: "" } } };

async function storedState(tenant: TenantWithSecret) {
  const used = { used: await ledgerUsed(tenant.id) };
  const usage = await env.DB.prepare("select count(*) as n from usage where tenant_id = ?")
    .bind(tenant.id)
    .first<{ n: number }>();
  return { used: used?.used, usageRows: usage?.n };
}

async function setup() {
  const edge = testEdge();
  edge.upstream.answer(() => json(200, HOSTS_OK));
  const tenant = await createTenant({ allowance: 100 }, edge.fetch);
  const get = (path: string) => edge.fetch(buildRequest("GET", path, { auth: tenantAuth(tenant) }));
  return { edge, tenant, get };
}

/** `/api/v2/hosts/search?q=…` padded with a parameter of ours so the whole target is `length` long. */
function targetOf(base: string, length: number): string {
  const prefix = `${base}${base.includes("?") ? "&" : "?"}pad=`;
  return prefix + "a".repeat(length - prefix.length);
}

describe("request length limits", () => {
  const cases = [
    ["q", "/api/v2/hosts/search?q=", SEARCH_QUERY_MAX_CHARS],
    ["cursor", "/api/v2/hosts/search?q=x&cursor=", CURSOR_MAX_CHARS],
  ] as const;

  for (const [name, prefix, max] of cases) {
    it(`refuses a ${name} over ${max} characters with a v2 400, asking and storing nothing`, async () => {
      const { edge, tenant, get } = await setup();
      const before = await storedState(tenant);
      const res = await get(prefix + "a".repeat(max + 1));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: 400,
        status: "Bad Request",
        error: `${name} exceeds ${max} characters`,
      });
      expect(edge.upstream.requests).toHaveLength(0);
      expect(await storedState(tenant)).toEqual(before);
    });

    it(`accepts a ${name} of exactly ${max} characters`, async () => {
      const { edge, get } = await setup();
      const res = await get(prefix + "a".repeat(max));
      expect(res.status).toBe(200);
      expect(edge.upstream.requests).toHaveLength(1);
    });
  }

  it("refuses a repeated q when any of its values is too long", async () => {
    const { edge, get } = await setup();
    const res = await get(`/api/v2/hosts/search?q=x&q=${"a".repeat(SEARCH_QUERY_MAX_CHARS + 1)}`);
    expect(res.status).toBe(400);
    expect(edge.upstream.requests).toHaveLength(0);
  });

  it(`refuses a request target over ${REQUEST_TARGET_MAX_CHARS} characters in the v1 shape, storing nothing`, async () => {
    const { edge, tenant, get } = await setup();
    const before = await storedState(tenant);
    const res = await get(targetOf("/api/v1/account", REQUEST_TARGET_MAX_CHARS + 1));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error_code: 400,
      error: `request URL exceeds ${REQUEST_TARGET_MAX_CHARS} characters`,
    });
    expect(edge.upstream.requests).toHaveLength(0);
    expect(await storedState(tenant)).toEqual(before);
  });

  it(`refuses a v2 request target over ${REQUEST_TARGET_MAX_CHARS} characters in the v2 shape`, async () => {
    const { get } = await setup();
    const res = await get(targetOf("/api/v2/hosts/search?q=x", REQUEST_TARGET_MAX_CHARS + 1));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 400, status: "Bad Request" });
  });

  it(`accepts a request target of exactly ${REQUEST_TARGET_MAX_CHARS} characters`, async () => {
    const { get } = await setup();
    const res = await get(targetOf("/api/v1/account", REQUEST_TARGET_MAX_CHARS));
    expect(res.status).toBe(200);
  });
});
