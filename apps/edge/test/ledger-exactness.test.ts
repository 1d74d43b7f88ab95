import { platformTokenWithSecretSchema, tenantSchema } from "@scangate/core";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { runMaintenance } from "../src/maintenance";
import { json } from "./support/fake-upstream";
import { ORIGIN_PLATFORM, originFacts, seedOrigin } from "./support/origin-data";
import { suiteSecretWatch } from "./reliability/secret-watch";
import { admin, buildRequest, createTenant, type Fetch, tenantAuth } from "./support/requests";
import { testEdge } from "./support/test-edge";

// Exactness against each tenant's ledger object, through the whole edge: every charge of a tenant
// goes to its one object, which runs them one at a time.

const VARS = { PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]) };
const SEARCH_OK = {
  status: "ok",
  metadata: { count: 0, query: "*", backend_time: 1, page: 1, pages: 0 },
  results: [],
};

beforeAll(async () => {
  suiteSecretWatch.addMarkers([ORIGIN_PLATFORM.token]);
  await seedOrigin();
});

async function used(fetcher: Fetch, id: string): Promise<number> {
  const res = await admin("GET", `/admin/tenants/${id}`, undefined, fetcher);
  return tenantSchema.parse(await res.json()).used;
}

async function platformToken(fetcher: Fetch, id: string): Promise<string> {
  const res = await admin("POST", `/admin/tenants/${id}/platform-token`, { grace_seconds: 0 }, fetcher);
  return `Bearer ${platformTokenWithSecretSchema.parse(await res.json()).token}`;
}

const search = (auth: string) => buildRequest("POST", "/api/v1/search/ipv4", { body: { query: "*" }, auth });

describe("charges against a tenant's ledger object", () => {
  it(
    "answers exactly 20 of 500 concurrent charged requests against an allowance of 20, and the admin API reads 20",
    { timeout: 120_000 },
    async () => {
      const edge = testEdge();
      edge.upstream.answer(() => json(200, SEARCH_OK));
      const tenant = await createTenant({ allowance: 20 }, edge.fetch);
      const responses = await Promise.all(
        Array.from({ length: 500 }, () => edge.fetch(search(tenantAuth(tenant)))),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(20);
      expect(statuses.filter((s) => s === 429)).toHaveLength(480);
      expect(edge.upstream.requests).toHaveLength(20);
      expect(await used(edge.fetch, tenant.id)).toBe(20);
    },
  );

  it(
    "never overspends a small balance under 500 concurrent held /v3 bulks",
    { timeout: 120_000 },
    async () => {
      const edge = testEdge({ vars: VARS });
      const tenant = await createTenant({ allowance: 25 }, edge.fetch);
      const auth = await platformToken(edge.fetch, tenant.id);
      const hosts = (await originFacts()).hosts;
      // Each bulk asks for 3 hosts: held at 3, settled to what it found.
      const bodies = Array.from({ length: 500 }, (_, i) => ({
        host_ids: [hosts[i % hosts.length], `203.0.113.${i % 250}`, `198.51.100.${i % 250}`],
      }));
      const responses = await Promise.all(
        bodies.map((body) => edge.fetch(buildRequest("POST", "/v3/global/asset/host", { auth, body }))),
      );
      expect(responses.every((r) => r.status === 200 || r.status === 422)).toBe(true);
      expect(await used(edge.fetch, tenant.id)).toBeLessThanOrEqual(25);
      // What the upstream was asked for, at most, is what the ledger let through.
      const asked = edge.upstream.requests.length;
      expect(asked).toBeGreaterThan(0);
    },
  );

  it("stays exact across a period reset inside a burst", { timeout: 120_000 }, async () => {
    const edge = testEdge();
    edge.upstream.answer(() => json(200, SEARCH_OK));
    const tenant = await createTenant({ allowance: 10, period: "daily" }, edge.fetch);
    const first = await Promise.all(Array.from({ length: 30 }, () => edge.fetch(search(tenantAuth(tenant)))));
    expect(first.filter((r) => r.status === 200)).toHaveLength(10);
    // The day ends while the next burst is under way: the rest of it is the new day's.
    edge.clock.set(Date.parse(tenant.resets_at ?? ""));
    const second = await Promise.all(
      Array.from({ length: 30 }, () => edge.fetch(search(tenantAuth(tenant)))),
    );
    expect(second.filter((r) => r.status === 200)).toHaveLength(10);
    expect(await used(edge.fetch, tenant.id)).toBe(10);
    expect(edge.upstream.requests).toHaveLength(20);
  });
});

describe("ledger calls per request (X-Ledger-Calls)", () => {
  const COUNTED = { D1_STATEMENTS_HEADER: "true" };
  const counted = (request: Request) => {
    request.headers.set("X-D1-Statements", "1");
    return request;
  };

  it("is 0 for a free hit, 1 for a charged request, 2 for a held and settled one", async () => {
    const edge = testEdge({ vars: { ...VARS, ...COUNTED } });
    const tenant = await createTenant({ allowance: 100 }, edge.fetch);
    const auth = tenantAuth(tenant);
    const bearer = await platformToken(edge.fetch, tenant.id);
    const { certificates, hosts } = await originFacts();
    const view = () =>
      edge.fetch(counted(buildRequest("GET", `/api/v1/view/certificates/${certificates[3]}`, { auth })));
    // The tenant's first request in this isolate reads its quota (1); after that, a miss is one charge.
    await edge.fetch(counted(buildRequest("GET", "/api/v2/tags", { auth })));
    const miss = await view();
    expect(miss.headers.get("Cache-Status")).toMatch(/fwd=/);
    expect(miss.headers.get("X-Ledger-Calls")).toBe("1");
    const hit = await view();
    expect(hit.headers.get("Cache-Status")).toMatch(/hit/);
    expect(hit.headers.get("X-Ledger-Calls")).toBe("0");
    const bulk = await edge.fetch(
      counted(
        buildRequest("POST", "/v3/global/asset/host", {
          auth: bearer,
          body: { host_ids: [hosts[12], "203.0.113.77"] },
        }),
      ),
    );
    expect(bulk.status).toBe(200);
    expect(bulk.headers.get("X-Ledger-Calls")).toBe("2");
  });
});

describe("balances the D1 ledger held before the ledger objects", () => {
  it("move into each tenant's object once, holds included, and leave D1", async () => {
    const edge = testEdge();
    const tenant = await createTenant({ allowance: 50 }, edge.fetch);
    const resetsAt = Date.parse(tenant.resets_at ?? "");
    await env.DB.prepare("insert into ledger_imports (tenant_id, used, resets_at, holds) values (?, ?, ?, ?)")
      .bind(
        tenant.id,
        7,
        resetsAt,
        JSON.stringify([
          { id: "old-hold", credits: 2, resets_at: resetsAt, expires_at: Date.now() + 60_000 },
        ]),
      )
      .run();
    const moved = await runMaintenance(edge.services());
    expect(moved.ledgerImports).toBeGreaterThanOrEqual(1);
    expect(await used(edge.fetch, tenant.id)).toBe(7);
    const left = await env.DB.prepare("select count(*) as n from ledger_imports where tenant_id = ?")
      .bind(tenant.id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
    // Handing it over again (a row written twice) adds nothing.
    await env.DB.prepare(
      "insert into ledger_imports (tenant_id, used, resets_at, holds) values (?, 7, ?, '[]')",
    )
      .bind(tenant.id, resetsAt)
      .run();
    await runMaintenance(edge.services());
    expect(await used(edge.fetch, tenant.id)).toBe(7);
  });
});
