import { platformTokenWithSecretSchema, type TenantWithSecret } from "@scangate/core";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { hang, json } from "./support/fake-upstream";
import { ORIGIN_PLATFORM, originBalance, originFacts, seedOrigin } from "./support/origin-data";
import { admin, adminAuth, buildRequest, createTenant, EDGE, type Fetch } from "./support/requests";
import { type TestEdge, testClock, testEdge } from "./support/test-edge";
import { BALANCE_FAILURE_TTL_MS, BALANCE_TTL_MS, BalanceCache } from "../src/reports/organization-credits";
import { suiteSecretWatch } from "./reliability/secret-watch";

// The dashboards' credit figures over HTTP: a tenant's Platform credits spent this period and
// saved by the cache (from usage rollups this file writes), whether it holds a Platform token,
// and the upstream organizations' balances, read from the Platform's credits endpoint and held
// for a minute per isolate (a failure shows "unavailable", never an error page).

const OTHER_ORGANIZATION = "44444444-4444-4444-8444-444444444444";
const VARS = { PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]) };
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  suiteSecretWatch.addMarkers([ORIGIN_PLATFORM.token, "another-pool-token-0123456789"]);
  await seedOrigin();
});

let addressCounter = 0;
const freshAddress = () => `203.0.113.${++addressCounter}`;

function post(fetcher: Fetch, path: string, fields: Record<string, string>, cookie?: string) {
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    origin: EDGE,
    "sec-fetch-site": "same-origin",
    "cf-connecting-ip": freshAddress(),
  };
  if (cookie) headers.cookie = cookie;
  return fetcher(
    new Request(`${EDGE}${path}`, {
      method: "POST",
      headers,
      body: new URLSearchParams(fields).toString(),
      redirect: "manual",
    }),
  );
}

function cookieOf(res: Response, name: string): string {
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(";")[0];
  if (!cookie) throw new Error(`no ${name} cookie (HTTP ${res.status})`);
  return cookie;
}

async function tenantPage(edge: TestEdge, tenant: TenantWithSecret): Promise<() => Promise<string>> {
  const res = await post(edge.fetch, "/dashboard/login", {
    api_id: tenant.api_id,
    secret: tenant.api_secret,
  });
  expect(res.status).toBe(303);
  const cookie = cookieOf(res, "sg_tenant");
  return async () => {
    const page = await edge.fetch(new Request(`${EDGE}/dashboard`, { headers: { cookie } }));
    expect(page.status).toBe(200);
    return page.text();
  };
}

async function adminPage(edge: TestEdge): Promise<(path?: string) => Promise<string>> {
  const res = await post(edge.fetch, "/admin/login", { token: adminAuth().replace(/^Bearer /, "") });
  expect(res.status).toBe(303);
  const cookie = cookieOf(res, "sg_admin");
  return async (path = "/admin") => {
    const page = await edge.fetch(new Request(`${EDGE}${path}`, { headers: { cookie } }));
    expect(page.status).toBe(200);
    return page.text();
  };
}

/** The `data-value` of the element marked `data-figure="name"` (the first, or the `n`th). */
function figure(html: string, name: string, n = 0): string | undefined {
  const pattern = new RegExp(`data-figure="${name}"[^>]*?data-value="([^"]*)"`, "g");
  return [...html.matchAll(pattern)][n]?.[1];
}

function figures(html: string, name: string): string[] {
  const pattern = new RegExp(`data-figure="${name}"[^>]*?data-value="([^"]*)"`, "g");
  return [...html.matchAll(pattern)].map((m) => m[1] ?? "");
}

interface Rollup {
  tenantId: string;
  hour: number;
  operation: string;
  quotaSpent: number;
  quotaSaved: number;
  cacheHits?: number;
}

async function writeRollups(rows: readonly Rollup[]): Promise<void> {
  await env.DB.batch(
    rows.map((r) =>
      env.DB.prepare(
        "insert into usage (tenant_id, hour, operation, requests, cache_hits, upstream_calls, errors, quota_spent, quota_saved) values (?, ?, ?, ?, ?, ?, 0, ?, ?)",
      ).bind(
        r.tenantId,
        r.hour,
        r.operation,
        1 + (r.cacheHits ?? 0),
        r.cacheHits ?? 0,
        r.quotaSpent > 0 ? 1 : 0,
        r.quotaSpent,
        r.quotaSaved,
      ),
    ),
  );
}

function toOrigin(request: Request): Promise<Response> {
  if (!env.ORIGIN) throw new Error("no ORIGIN binding");
  return env.ORIGIN.fetch(request);
}

const creditCalls = (edge: TestEdge) => edge.upstream.callsTo("/credits").length;

describe("tenant dashboard: Platform credits", () => {
  it("shows credits spent by v3 operations and saved by the cache this period, from the rollups", async () => {
    const edge = testEdge({ vars: VARS });
    const now = edge.clock.now(); // 2026-11-10 12:00 UTC: the monthly period began 2026-11-01
    const periodStart = Date.UTC(2026, 10, 1);
    const tenant = await createTenant({ period: "monthly" }, edge.fetch);
    const other = await createTenant({ period: "monthly" }, edge.fetch);
    const rows: Rollup[] = [
      { tenantId: tenant.id, hour: periodStart, operation: "v3_host", quotaSpent: 3, quotaSaved: 2 },
      { tenantId: tenant.id, hour: now - 2 * HOUR_MS, operation: "v3_hosts", quotaSpent: 5, quotaSaved: 4 },
      // Legacy quota shares the ledger but is not credits; a legacy answer from a cached Platform
      // document (translation mode) still saved upstream credits.
      { tenantId: tenant.id, hour: now - HOUR_MS, operation: "view", quotaSpent: 7, quotaSaved: 1 },
      // The previous period and another tenant count for neither figure.
      {
        tenantId: tenant.id,
        hour: periodStart - HOUR_MS,
        operation: "v3_host",
        quotaSpent: 100,
        quotaSaved: 50,
      },
      { tenantId: other.id, hour: now - HOUR_MS, operation: "v3_host", quotaSpent: 30, quotaSaved: 20 },
    ];
    await writeRollups(rows);
    const expected = { spent: 3 + 5, saved: 2 + 4 + 1 };

    const html = await (await tenantPage(edge, tenant))();
    expect(html).toContain("Platform credits");
    expect(figure(html, "credits-spent")).toBe(String(expected.spent));
    expect(figure(html, "credits-saved")).toBe(String(expected.saved));
    expect(html).toContain("since 2026-11-01");
    // The legacy quota panel stays, with the ledger's figures.
    expect(figure(html, "quota-allowance")).toBe(String(tenant.allowance));
  });

  it("counts legacy calls in the credits spent where the upstream speaks only the Platform API", async () => {
    const edge = testEdge({ vars: { ...VARS, UPSTREAM_API: "platform" } });
    const now = edge.clock.now();
    const tenant = await createTenant({ period: "monthly" }, edge.fetch);
    await writeRollups([
      { tenantId: tenant.id, hour: now - 2 * HOUR_MS, operation: "v3_host", quotaSpent: 3, quotaSaved: 0 },
      // Charged the credits of the Platform calls they became (each route's `translatedPrice`).
      { tenantId: tenant.id, hour: now - HOUR_MS, operation: "view", quotaSpent: 14, quotaSaved: 2 },
      { tenantId: tenant.id, hour: now - HOUR_MS, operation: "bulk", quotaSpent: 40, quotaSaved: 10 },
    ]);
    const html = await (await tenantPage(edge, tenant))();
    expect(figure(html, "credits-spent")).toBe(String(3 + 14 + 40));
    expect(figure(html, "credits-saved")).toBe(String(2 + 10));
    const console = await (await adminPage(edge))();
    const cell = new RegExp(
      `data-tenant="${tenant.id}"[\\s\\S]*?data-credits-spent="(\\d+)" data-credits-saved="(\\d+)"`,
    ).exec(console);
    expect(cell?.slice(1)).toEqual([String(3 + 14 + 40), String(2 + 10)]);
  });

  it("counts one-time credits from the tenant's creation and a daily period from midnight UTC", async () => {
    const edge = testEdge({ vars: VARS });
    const now = edge.clock.now();
    const daily = await createTenant({ period: "daily" }, edge.fetch);
    const never = await createTenant({ period: "never" }, edge.fetch);
    const midnight = Date.UTC(2026, 10, 10);
    await writeRollups([
      { tenantId: daily.id, hour: midnight, operation: "v3_certificate", quotaSpent: 2, quotaSaved: 1 },
      {
        tenantId: daily.id,
        hour: midnight - HOUR_MS,
        operation: "v3_certificate",
        quotaSpent: 9,
        quotaSaved: 9,
      },
      {
        tenantId: never.id,
        hour: now - 20 * DAY_MS,
        operation: "v3_search_query",
        quotaSpent: 6,
        quotaSaved: 0,
      },
    ]);
    const dailyHtml = await (await tenantPage(edge, daily))();
    expect(figure(dailyHtml, "credits-spent")).toBe("2");
    expect(figure(dailyHtml, "credits-saved")).toBe("1");
    // One-time credits never reset: every rollup of the tenant counts.
    const neverHtml = await (await tenantPage(edge, never))();
    expect(figure(neverHtml, "credits-spent")).toBe("6");
    expect(neverHtml).toContain("one-time credits: all time");
  });

  it("says whether the tenant holds a Platform token, before and after one is issued", async () => {
    const edge = testEdge({ vars: VARS });
    const tenant = await createTenant({}, edge.fetch);
    const view = await tenantPage(edge, tenant);
    expect(figure(await view(), "platform-token")).toBe("no");
    const issued = await admin("POST", `/admin/tenants/${tenant.id}/platform-token`, {}, edge.fetch);
    expect(issued.status).toBe(201);
    expect(figure(await view(), "platform-token")).toBe("yes");
    const revoked = await admin(
      "DELETE",
      `/admin/tenants/${tenant.id}/platform-token`,
      undefined,
      edge.fetch,
    );
    expect(revoked.status).toBe(200);
    expect(figure(await view(), "platform-token")).toBe("no");
  });

  it("shows the team's upstream balance without the organization's id", async () => {
    const edge = testEdge({ vars: VARS });
    const tenant = await createTenant({}, edge.fetch);
    const html = await (await tenantPage(edge, tenant))();
    expect(figure(html, "team-balance")).toBe(String(await originBalance()));
    expect(html).not.toContain(ORIGIN_PLATFORM.organization_id);
  });

  it("shows no balance where the edge has no Platform upstream", async () => {
    const edge = testEdge();
    const tenant = await createTenant({}, edge.fetch);
    const html = await (await tenantPage(edge, tenant))();
    expect(figure(html, "credits-spent")).toBe("0");
    expect(html).not.toContain('data-figure="team-balance"');
    expect(creditCalls(edge)).toBe(0);
  });
});

describe("admin console: Platform credits", () => {
  it("shows each tenant's credits spent and saved over 30 days, and the fleet's", async () => {
    const edge = testEdge({ vars: VARS });
    const now = edge.clock.now();
    const a = await createTenant({ name: `credits-a-${crypto.randomUUID().slice(0, 6)}` }, edge.fetch);
    const b = await createTenant({ name: `credits-b-${crypto.randomUUID().slice(0, 6)}` }, edge.fetch);
    await writeRollups([
      { tenantId: a.id, hour: now - 3 * DAY_MS, operation: "v3_host", quotaSpent: 4, quotaSaved: 6 },
      { tenantId: a.id, hour: now - 3 * DAY_MS, operation: "v3_webproperty", quotaSpent: 1, quotaSaved: 0 },
      { tenantId: a.id, hour: now - 40 * DAY_MS, operation: "v3_host", quotaSpent: 50, quotaSaved: 50 },
      { tenantId: b.id, hour: now - HOUR_MS, operation: "v3_certificates", quotaSpent: 12, quotaSaved: 3 },
      { tenantId: b.id, hour: now - HOUR_MS, operation: "search", quotaSpent: 8, quotaSaved: 0 },
    ]);
    const html = await (await adminPage(edge))();
    const cell = (id: string) =>
      new RegExp(`data-tenant="${id}"[\\s\\S]*?data-credits-spent="(\\d+)" data-credits-saved="(\\d+)"`).exec(
        html,
      );
    expect(cell(a.id)?.slice(1)).toEqual(["5", "6"]);
    expect(cell(b.id)?.slice(1)).toEqual(["12", "3"]);
    // Every rollup of this file's edge is here, so the fleet's figures are the sums over them.
    const fleet = await env.DB.prepare(
      "select sum(case when operation glob 'v3_*' then quota_spent else 0 end) as spent, sum(quota_saved) as saved from usage where hour >= ?",
    )
      .bind(Date.UTC(2026, 9, 12))
      .first<{ spent: number; saved: number }>();
    expect(figure(html, "fleet-credits-spent")).toBe(String(fleet?.spent));
    expect(figure(html, "fleet-credits-saved")).toBe(String(fleet?.saved));
  });

  it("sorts tenants by credits spent", async () => {
    const edge = testEdge({ vars: VARS });
    const now = edge.clock.now();
    const low = await createTenant({}, edge.fetch);
    const high = await createTenant({}, edge.fetch);
    await writeRollups([
      { tenantId: low.id, hour: now - HOUR_MS * 5, operation: "v3_host", quotaSpent: 1, quotaSaved: 0 },
      { tenantId: high.id, hour: now - HOUR_MS * 5, operation: "v3_host", quotaSpent: 1000, quotaSaved: 0 },
    ]);
    const html = await (await adminPage(edge))("/admin?sort=credits&dir=desc");
    expect(html.indexOf(`data-tenant="${high.id}"`)).toBeLessThan(html.indexOf(`data-tenant="${low.id}"`));
  });

  it("shows the organization's balance from the upstream's credits endpoint, and the tenant page the credits panel", async () => {
    const edge = testEdge({ vars: VARS });
    const tenant = await createTenant({}, edge.fetch);
    const view = await adminPage(edge);
    const html = await view();
    expect(html).toContain(`data-organization="${ORIGIN_PLATFORM.organization_id}"`);
    expect(figure(html, "organization-balance")).toBe(String(await originBalance()));
    const tenantHtml = await view(`/admin/console/tenants/${tenant.id}`);
    expect(figure(tenantHtml, "credits-spent")).toBe("0");
    expect(figure(tenantHtml, "platform-token")).toBe("no");
  });

  it("asks the upstream once for any number of page views within a minute, then again", async () => {
    const edge = testEdge({ vars: VARS });
    const tenant = await createTenant({}, edge.fetch);
    const [consolePage, dashboard] = [await adminPage(edge), await tenantPage(edge, tenant)];
    await Promise.all([consolePage(), consolePage(), dashboard(), dashboard(), consolePage()]);
    for (let i = 0; i < 5; i++) await (i % 2 ? dashboard() : consolePage());
    expect(creditCalls(edge)).toBe(1);
    edge.clock.advance(59_000);
    await consolePage();
    expect(creditCalls(edge)).toBe(1);
    edge.clock.advance(2_000);
    const html = await consolePage();
    expect(creditCalls(edge)).toBe(2);
    expect(figure(html, "organization-balance")).toBe(String(await originBalance()));
  });

  for (const [what, script, problem] of [
    ["a 500", () => json(500, { title: "oops" }), "the upstream answered HTTP 500"],
    ["a body that is not JSON", () => new Response("<html>", { status: 200 }), "is not JSON"],
    [
      "an answer that is not an organization's credits",
      () => json(200, { result: { balance: "lots" } }),
      "is not an organization's credits",
    ],
    [
      "a refusal of every token",
      () => json(401, { title: "Unauthorized" }, { "content-type": "application/problem+json" }),
      "the upstream refused the gateway's token",
    ],
    [
      "no connection",
      () => {
        throw new TypeError("connection refused");
      },
      "the upstream could not be reached",
    ],
  ] as const) {
    it(`shows the balance as unavailable on ${what}, and asks again after 15 seconds`, async () => {
      const edge = testEdge({ vars: VARS });
      const tenant = await createTenant({}, edge.fetch);
      edge.upstream.answer((request) =>
        new URL(request.url).pathname.endsWith("/credits") ? script() : toOrigin(request),
      );
      const [consolePage, dashboard] = [await adminPage(edge), await tenantPage(edge, tenant)];
      const html = await consolePage();
      expect(figure(html, "organization-balance")).toBe("unavailable");
      expect(html).toContain("balance unavailable");
      expect(html).toContain(problem.replaceAll("'", "&#39;"));
      expect(figure(await dashboard(), "team-balance")).toBe("unavailable");
      expect(creditCalls(edge)).toBe(1);

      edge.upstream.answer(null);
      edge.clock.advance(16_000);
      expect(figure(await consolePage(), "organization-balance")).toBe(String(await originBalance()));
      expect(creditCalls(edge)).toBe(2);
    });
  }

  it("gives up on a stalled upstream and shows the page with the balance unavailable", async () => {
    const edge = testEdge({ vars: VARS });
    edge.upstream.answer((request) =>
      new URL(request.url).pathname.endsWith("/credits") ? hang(request) : toOrigin(request),
    );
    const html = await (await adminPage(edge))();
    expect(figure(html, "organization-balance")).toBe("unavailable");
    expect(html).toContain("did not answer in time");
  }, 15_000);

  it("reads each organization of the pool with its own token, showing one that fails as unavailable", async () => {
    const pool = [
      ORIGIN_PLATFORM,
      { token: "another-pool-token-0123456789", organization_id: OTHER_ORGANIZATION },
    ];
    const edge = testEdge({ vars: { PLATFORM_CREDENTIALS: JSON.stringify(pool) } });
    const view = await adminPage(edge);
    const html = await view();
    expect(figures(html, "organization-balance")).toEqual([String(await originBalance()), "unavailable"]);
    expect(html).toContain(`Organization ${OTHER_ORGANIZATION}: balance unavailable`);

    // The shared pool never rested the origin's token over a question about the other organization:
    // /v3 calls keep working with it, whichever turn they take.
    const tenant = await createTenant({}, edge.fetch);
    const issued = await admin("POST", `/admin/tenants/${tenant.id}/platform-token`, {}, edge.fetch);
    const { token } = platformTokenWithSecretSchema.parse(await issued.json());
    const [ip] = (await originFacts()).hosts;
    for (let i = 0; i < 2; i++) {
      const res = await edge.fetch(
        buildRequest("GET", `/v3/global/asset/host/${ip}`, { auth: `Bearer ${token}` }),
      );
      // One of the two turns is the other organization's token, which the origin refuses; the
      // edge then tries the origin's. Both answer 200.
      expect(res.status).toBe(200);
    }
  });
});

describe("the balance cache", () => {
  const balance = (organizationId: string, value: number, readAt: number) =>
    ({ organizationId, ok: true, balance: value, readAt }) as const;

  it("shares one read among concurrent views and keeps it for the TTL, per organization", async () => {
    const clock = testClock();
    const reads: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const cache = new BalanceCache(async (organizationId) => {
      reads.push(organizationId);
      await gate;
      return balance(organizationId, reads.length, clock.now());
    }, clock);
    const views = Promise.all([
      cache.get("org-a"),
      cache.get("org-a"),
      cache.get("org-b"),
      cache.get("org-a"),
    ]);
    release();
    expect((await views).map((b) => b.organizationId)).toEqual(["org-a", "org-a", "org-b", "org-a"]);
    expect(reads).toEqual(["org-a", "org-b"]);
    clock.advance(BALANCE_TTL_MS - 1);
    await cache.get("org-a");
    expect(reads).toEqual(["org-a", "org-b"]);
    clock.advance(1);
    await cache.get("org-a");
    expect(reads).toEqual(["org-a", "org-b", "org-a"]);
  });

  it("gives a view up on a read another view leads once it waited past the join wait", async () => {
    const clock = testClock();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const cache = new BalanceCache(
      async (organizationId) => {
        await gate;
        return balance(organizationId, 7, clock.now());
      },
      clock,
      BALANCE_TTL_MS,
      BALANCE_FAILURE_TTL_MS,
      10,
    );
    const leader = cache.get("org-a");
    expect(await cache.get("org-a")).toMatchObject({
      ok: false,
      problem: "the upstream did not answer in time",
    });
    release();
    expect(await leader).toMatchObject({ ok: true, balance: 7 });
    expect(await cache.get("org-a")).toMatchObject({ ok: true, balance: 7 });
  });

  it("turns a reader that throws into an unavailable balance, retried after the failure TTL", async () => {
    const clock = testClock();
    let calls = 0;
    const cache = new BalanceCache(() => {
      calls += 1;
      return Promise.reject(new Error("boom"));
    }, clock);
    const first = await cache.get("org-a");
    expect(first).toMatchObject({ organizationId: "org-a", ok: false, problem: "it could not be read" });
    clock.advance(BALANCE_FAILURE_TTL_MS - 1);
    await cache.get("org-a");
    expect(calls).toBe(1);
    clock.advance(1);
    await cache.get("org-a");
    expect(calls).toBe(2);
  });
});
