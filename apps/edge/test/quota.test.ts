import { accountSchema, tenantSchema, v1RateLimitErrorSchema, v2RateLimitErrorSchema } from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FixedWindowRateLimiter } from "../src/ratelimit/fixed-window";
import { chargeOne } from "./support/charge-one";
import { ManualClock } from "./support/clock";
import { withinOneRateWindow } from "./support/rate-window";
import { json } from "./support/fake-upstream";
import { admin, buildRequest, createTenant, type Fetch, tenantAuth, workerFetch } from "./support/requests";
import { testEdge } from "./support/test-edge";

const SEARCH_OK = {
  status: "ok",
  metadata: { count: 0, query: "*", backend_time: 1, page: 1, pages: 0 },
  results: [],
};
const tags = (t: { api_id: string; api_secret: string }) =>
  buildRequest("GET", "/api/v2/tags", { auth: tenantAuth(t) });
const search = (auth: string) => buildRequest("POST", "/api/v1/search/ipv4", { body: { query: "*" }, auth });

/** The tenant's balance as the admin API reads it from its ledger, on `fetcher`'s clock. */
async function balanceOf(
  fetcher: Fetch,
  tenantId: string,
): Promise<{ used: number; resets_at: string | null }> {
  const res = await admin("GET", `/admin/tenants/${tenantId}`, undefined, fetcher);
  return tenantSchema.parse(await res.json());
}

async function usedOf(fetcher: Fetch, tenantId: string): Promise<number> {
  return (await balanceOf(fetcher, tenantId)).used;
}

describe("charging is exact under concurrency", () => {
  it("lets exactly 10 of 60 concurrent ledger charges through an allowance of 10", async () => {
    const edge = testEdge();
    const tenant = await createTenant({ allowance: 10 }, edge.fetch);
    const ledger = env.LEDGER.get(env.LEDGER.idFromName(tenant.id));
    const terms = { allowance: 10, period: tenant.period, version: Date.parse(tenant.updated_at) };
    const now = edge.clock.now();
    const results = await Promise.all(
      Array.from({ length: 60 }, () => chargeOne(ledger, { terms, cost: 1, now })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(results.filter((r) => !r.ok)).toHaveLength(50);
    expect(await usedOf(edge.fetch, tenant.id)).toBe(10);
  });

  // D1 runs ~10 ms per statement under miniflare: 500 requests take a few seconds.
  it(
    "answers exactly 100 of 500 concurrent requests and 429s the rest, asking the upstream 100 times",
    { timeout: 60_000 },
    async () => {
      const edge = testEdge();
      edge.upstream.answer(() => json(200, SEARCH_OK));
      const tenant = await createTenant({ allowance: 100 }, edge.fetch);
      const responses = await Promise.all(
        Array.from({ length: 500 }, () => edge.fetch(search(tenantAuth(tenant)))),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(100);
      expect(statuses.filter((s) => s === 429)).toHaveLength(400);
      expect(edge.upstream.requests).toHaveLength(100);
      expect(await usedOf(edge.fetch, tenant.id)).toBe(100);
    },
  );
});

describe("the quota 429", () => {
  it("has the v1 quota body, Retry-After until resets_at and RateLimit headers", async () => {
    const edge = testEdge();
    edge.upstream.answer(() => json(200, SEARCH_OK));
    const tenant = await createTenant({ allowance: 1, period: "daily" }, edge.fetch);
    expect((await edge.fetch(search(tenantAuth(tenant)))).status).toBe(200);
    const res = await edge.fetch(search(tenantAuth(tenant)));
    expect(res.status).toBe(429);
    expect(v1RateLimitErrorSchema.parse(await res.json())).toEqual({
      error_code: 429,
      status: "error",
      error_type: "quota_exceeded",
      error: "You have used your full quota for this billing period.",
    });
    const resetsAt = Date.parse(tenant.resets_at ?? "");
    expect(Number(res.headers.get("Retry-After"))).toBe(Math.ceil((resetsAt - edge.clock.now()) / 1000));
    expect(res.headers.get("RateLimit-Policy")).toBe('"quota";q=1;w=86400');
    expect(res.headers.get("RateLimit")).toBe(`"quota";r=0;t=${res.headers.get("Retry-After")}`);
    expect(edge.upstream.requests).toHaveLength(1);
  });

  it("has the v2 shape on v2 routes", async () => {
    const edge = testEdge();
    edge.upstream.answer(() => json(200, { code: 200, status: "OK", result: {} }));
    const tenant = await createTenant({ allowance: 1 }, edge.fetch);
    const aggregate = () =>
      edge.fetch(buildRequest("GET", "/api/v2/hosts/aggregate?field=x", { auth: tenantAuth(tenant) }));
    expect((await aggregate()).status).toBe(200);
    const res = await aggregate();
    expect(res.status).toBe(429);
    expect(v2RateLimitErrorSchema.parse(await res.json())).toMatchObject({
      code: 429,
      error_type: "quota_exceeded",
    });
  });

  it("has no Retry-After for one-time credits, which never refill", async () => {
    const edge = testEdge();
    edge.upstream.answer(() => json(200, SEARCH_OK));
    const tenant = await createTenant({ allowance: 1, period: "never" }, edge.fetch);
    await edge.fetch(search(tenantAuth(tenant)));
    edge.clock.advance(400 * 86_400_000);
    const res = await edge.fetch(search(tenantAuth(tenant)));
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBeNull();
    expect(res.headers.get("RateLimit-Policy")).toBe('"quota";q=1');
    expect(res.headers.get("RateLimit")).toBe('"quota";r=0');
  });
});

describe("period reset", () => {
  it("starts a new period once resets_at has passed", async () => {
    const edge = testEdge();
    edge.upstream.answer(() => json(200, SEARCH_OK));
    const tenant = await createTenant({ allowance: 2, period: "daily" }, edge.fetch);
    await edge.fetch(search(tenantAuth(tenant)));
    await edge.fetch(search(tenantAuth(tenant)));
    expect((await edge.fetch(search(tenantAuth(tenant)))).status).toBe(429);
    const resetsAt = Date.parse(tenant.resets_at ?? "");
    edge.clock.set(resetsAt);
    const res = await edge.fetch(search(tenantAuth(tenant)));
    expect(res.status).toBe(200);
    expect(await balanceOf(edge.fetch, tenant.id)).toMatchObject({
      used: 1,
      resets_at: new Date(resetsAt + 86_400_000).toISOString(),
    });
  });

  it("shows a passed period as already reset in the account", async () => {
    const edge = testEdge();
    edge.upstream.answer(() => json(200, SEARCH_OK));
    const tenant = await createTenant({ allowance: 5, period: "monthly" }, edge.fetch);
    await edge.fetch(search(tenantAuth(tenant)));
    edge.clock.set(Date.parse(tenant.resets_at ?? "") + 1000);
    const res = await edge.fetch(buildRequest("GET", "/api/v1/account", { auth: tenantAuth(tenant) }));
    expect(accountSchema.parse(await res.json()).quota.used).toBe(0);
  });
});

describe("refunds", () => {
  for (const [name, script] of [
    ["a 500", () => json(500, { error_code: 500, error: "unknown error occurred" })],
    [
      "an upstream 429",
      () => json(429, { error_code: 429, error: "rate limit exceeded" }, { "retry-after": "5" }),
    ],
    ["a 400", () => json(400, { error_code: 400, error: "query could not be parsed" })],
    [
      "an HTML page",
      () => new Response("<html>oops</html>", { status: 200, headers: { "content-type": "text/html" } }),
    ],
  ] as const) {
    it(`gives the charge back when the upstream answers ${name}`, async () => {
      const edge = testEdge();
      edge.upstream.answer(script);
      const tenant = await createTenant({ allowance: 3 }, edge.fetch);
      const res = await edge.fetch(search(tenantAuth(tenant)));
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(await usedOf(edge.fetch, tenant.id)).toBe(0);
      expect(res.headers.get("RateLimit")).toMatch(/^"quota";r=3;/);
    });
  }
});

describe("burst limit", () => {
  it("answers 429 rate_limit_exceeded with Retry-After past the tier's burst, charging nothing", async () => {
    const clock = new ManualClock();
    const edge = testEdge({ rateLimiter: new FixedWindowRateLimiter(2, 60, clock) });
    edge.upstream.answer(() => json(200, SEARCH_OK));
    const tenant = await createTenant({ allowance: 10 }, edge.fetch);
    expect((await edge.fetch(search(tenantAuth(tenant)))).status).toBe(200);
    expect((await edge.fetch(search(tenantAuth(tenant)))).status).toBe(200);
    const res = await edge.fetch(search(tenantAuth(tenant)));
    expect(res.status).toBe(429);
    expect(v1RateLimitErrorSchema.parse(await res.json())).toEqual({
      error_code: 429,
      status: "error",
      error_type: "rate_limit_exceeded",
      error: "rate limit exceeded",
    });
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(res.headers.get("RateLimit")).toMatch(/^"quota";r=8;/);
    expect(await usedOf(edge.fetch, tenant.id)).toBe(2);
    clock.advance(60_000);
    expect((await edge.fetch(search(tenantAuth(tenant)))).status).toBe(200);
  });

  it("keeps tenants apart: one tenant's burst does not limit another", async () => {
    const clock = new ManualClock();
    const edge = testEdge({ rateLimiter: new FixedWindowRateLimiter(1, 60, clock) });
    const a = await createTenant({}, edge.fetch);
    const b = await createTenant({}, edge.fetch);
    expect((await edge.fetch(tags(a))).status).toBe(200);
    expect((await edge.fetch(tags(a))).status).toBe(429);
    expect((await edge.fetch(tags(b))).status).toBe(200);
  });

  it("uses the Workers Rate Limiting binding of the tenant's tier", async () => {
    const tenant = await createTenant({ tier: "low" });
    await withinOneRateWindow(60, 20_000);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await workerFetch(tags(tenant))).status);
    // RATE_LIMIT_LOW allows 10 per 60 s.
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const unlimited = await createTenant({ tier: "unlimited" });
    for (let i = 0; i < 12; i++) expect((await workerFetch(tags(unlimited))).status).toBe(200);
  }, 90_000);
});

describe("account reads' own bucket", () => {
  const account = (t: { api_id: string; api_secret: string }) =>
    buildRequest("GET", "/api/v1/account", { auth: tenantAuth(t) });

  it("lets a tenant at its burst limit read its own quota", async () => {
    const clock = new ManualClock();
    const edge = testEdge({
      rateLimiter: new FixedWindowRateLimiter(2, 60, clock),
      accountReads: new FixedWindowRateLimiter(3, 60, clock),
    });
    edge.upstream.answer(() => json(200, SEARCH_OK));
    const tenant = await createTenant({ allowance: 10 }, edge.fetch);
    expect((await edge.fetch(search(tenantAuth(tenant)))).status).toBe(200);
    expect((await edge.fetch(search(tenantAuth(tenant)))).status).toBe(200);
    expect((await edge.fetch(search(tenantAuth(tenant)))).status).toBe(429);
    const res = await edge.fetch(account(tenant));
    expect(res.status).toBe(200);
    expect(accountSchema.parse(await res.json()).quota).toMatchObject({ used: 2, allowance: 10 });
    // HEAD is the same read.
    expect(
      (await edge.fetch(buildRequest("HEAD", "/api/v1/account", { auth: tenantAuth(tenant) }))).status,
    ).toBe(200);
  });

  it("is bounded itself: past its own limit an account read is 429 rate_limit_exceeded, with Retry-After", async () => {
    const clock = new ManualClock();
    const edge = testEdge({
      rateLimiter: new FixedWindowRateLimiter(100, 60, clock),
      accountReads: new FixedWindowRateLimiter(3, 60, clock),
    });
    const tenant = await createTenant({ allowance: 10 }, edge.fetch);
    for (let i = 0; i < 3; i++) expect((await edge.fetch(account(tenant))).status).toBe(200);
    const res = await edge.fetch(account(tenant));
    expect(res.status).toBe(429);
    expect(v1RateLimitErrorSchema.parse(await res.json()).error_type).toBe("rate_limit_exceeded");
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Spent account reads leave the tier's bucket alone, and the window passes.
    expect((await edge.fetch(tags(tenant))).status).toBe(200);
    clock.advance(60_000);
    expect((await edge.fetch(account(tenant))).status).toBe(200);
  });

  it("uses its own Workers Rate Limiting binding: 20 a minute, whatever the tier's state", async () => {
    const tenant = await createTenant({ tier: "low" });
    await withinOneRateWindow(60, 30_000);
    for (let i = 0; i < 11; i++) await workerFetch(tags(tenant));
    expect((await workerFetch(tags(tenant))).status).toBe(429);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await workerFetch(account(tenant))).status);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  }, 90_000);
});

describe("GET /api/v1/account", () => {
  it("answers with the tenant's own login, email, times and quota, not the upstream's", async () => {
    const edge = testEdge();
    edge.upstream.answer(() => json(200, SEARCH_OK));
    const tenant = await createTenant(
      { name: "carol", email: "carol@example.com", allowance: 50, period: "monthly" },
      edge.fetch,
    );
    await edge.fetch(search(tenantAuth(tenant)));
    const res = await edge.fetch(buildRequest("GET", "/api/v1/account", { auth: tenantAuth(tenant) }));
    expect(res.status).toBe(200);
    const account = accountSchema.parse(await res.json());
    const resetsAt = new Date(tenant.resets_at ?? "").toISOString().replace("T", " ").slice(0, 19);
    expect(account).toMatchObject({
      login: "carol",
      email: "carol@example.com",
      quota: { used: 1, allowance: 50, resets_at: resetsAt },
    });
    expect(account.first_login).toBe(new Date(edge.clock.now()).toISOString().replace("T", " ").slice(0, 19));
    expect(edge.upstream.callsTo("/v1/account")).toHaveLength(0);
  });

  it("shows one-time credits as never resetting", async () => {
    const tenant = await createTenant({ period: "never", allowance: 3 });
    const res = await workerFetch(buildRequest("GET", "/api/v1/account", { auth: tenantAuth(tenant) }));
    expect(accountSchema.parse(await res.json()).quota).toEqual({
      used: 0,
      allowance: 3,
      resets_at: "9999-12-31 23:59:59",
    });
  });
});
