import type { TenantWithSecret } from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { RateLimiter } from "../src/ratelimit/interface";
import { suiteSecretWatch } from "./reliability/secret-watch";
import type { ManualClock } from "./support/clock";
import { ORIGIN_PLATFORM, originFacts, seedOrigin } from "./support/origin-data";
import { admin, buildRequest, createTenant, tenantAuth } from "./support/requests";
import { FixedWindowRateLimiter, type TestEdge, testClock, testEdge } from "./support/test-edge";

await seedOrigin();
const facts = await originFacts();
const [CERT_A, CERT_B] = facts.certificates as [string, string];
const [IP_1] = facts.hosts as [string];

/** The document routes whose hits the lane may answer, one path of each. */
const PATHS = [
  `/api/v1/view/certificates/${CERT_A}`,
  `/api/v1/view/ipv4/${IP_1}`,
  `/api/v2/hosts/${IP_1}`,
  `/api/v2/certificates/${CERT_A}/hosts`,
  `/api/v2/hosts/${IP_1}/names`,
];

async function setup(
  options: { vars?: Record<string, string>; rateLimiter?: RateLimiter; clock?: ManualClock } = {},
) {
  await env.DB.prepare("delete from documents").run();
  const edge = testEdge(options);
  const tenant = await createTenant({ allowance: 1000 }, edge.fetch);
  // Every answer the lane gives, in order (null: it left the request to the full way).
  const lane = vi.spyOn(edge.services().hits, "answer");
  // A lane that threw counts as not answering (the full way answered instead).
  const laneAnswers = async () =>
    Promise.all(
      lane.mock.results.map((result) =>
        Promise.resolve(result.value).then(
          (answer) => answer !== null,
          () => false,
        ),
      ),
    );
  return { edge, tenant, laneAnswers };
}

function get(edge: TestEdge, tenant: TenantWithSecret, path: string, headers: Record<string, string> = {}) {
  return edge.fetch(
    buildRequest("GET", path, {
      auth: tenantAuth(tenant),
      headers: { "X-Request-Id": "same-id", ...headers },
    }),
  );
}

/** Everything a client sees of an answer. */
async function seen(response: Response) {
  return { status: response.status, headers: [...response.headers], body: await response.text() };
}

async function usageOf(tenant: TenantWithSecret) {
  return env.DB.prepare(
    `select operation, sum(requests) as requests, sum(cache_hits) as hits, sum(upstream_calls) as upstream,
       sum(errors) as errors, sum(quota_spent) as spent, sum(quota_saved) as saved
     from usage where tenant_id = ? group by operation order by operation`,
  )
    .bind(tenant.id)
    .all();
}

describe("the cache-hit lane", () => {
  it.each(PATHS)("answers a repeated hit on %s exactly as the full way answered it", async (path) => {
    const { edge, tenant, laneAnswers } = await setup();
    const miss = await get(edge, tenant, path);
    expect(miss.headers.get("Cache-Status")).toContain("fwd=uri-miss");
    const full = await seen(await get(edge, tenant, path));
    const laned = await seen(await get(edge, tenant, path));
    // The miss and the first hit took the full way; that hit taught the lane the path.
    expect(await laneAnswers()).toEqual([false, false, true]);
    expect(full.status).toBe(200);
    expect(laned).toEqual(full);
    expect(laned.headers.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        "cache-status",
        "age",
        "ratelimit",
        "ratelimit-policy",
        "cache-control",
        "x-request-id",
      ]),
    );
    const usage = (await usageOf(tenant)).results;
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ requests: 3, hits: 2, upstream: 1, errors: 0, spent: 1, saved: 0 });
  });

  it("counts the credits a hit saves on a Platform-only upstream, as the full way does", async () => {
    suiteSecretWatch.addMarkers([ORIGIN_PLATFORM.token]);
    const vars = { UPSTREAM_API: "platform", PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]) };
    const { edge, tenant, laneAnswers } = await setup({ vars });
    const path = `/api/v1/view/certificates/${CERT_B}`;
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await seen(await get(edge, tenant, path)));
    expect(await laneAnswers()).toEqual([false, false, true]);
    expect(answers[2]).toEqual(answers[1]);
    // A certificate costs 2 Platform credits: paid once, saved by each of the two hits.
    const usage = (await usageOf(tenant)).results;
    expect(usage[0]).toMatchObject({ requests: 3, hits: 2, upstream: 1, spent: 2, saved: 4 });
  });

  it("gives each answer its own request id when the client sends none", async () => {
    const { edge, tenant, laneAnswers } = await setup();
    const path = PATHS[0] ?? "";
    const ids = [];
    for (let i = 0; i < 3; i++) {
      const response = await edge.fetch(buildRequest("GET", path, { auth: tenantAuth(tenant) }));
      ids.push(response.headers.get("X-Request-Id"));
    }
    expect(await laneAnswers()).toEqual([false, false, true]);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(3);
  });

  it("leaves to the full way what is not a plain free hit of a path it knows", async () => {
    const { edge, tenant, laneAnswers } = await setup();
    const path = `/api/v1/view/certificates/${CERT_B}`;
    const other = await createTenant({ allowance: 1000 }, edge.fetch);
    await get(edge, tenant, path);
    await get(edge, tenant, path);
    const cases: Array<[string, () => Promise<Response>, number]> = [
      ["a query string", () => get(edge, tenant, `${path}?`), 200],
      ["another path", () => get(edge, tenant, `/api/v1/view/certificates/${CERT_A}`), 200],
      ["HEAD", () => edge.fetch(buildRequest("HEAD", path, { auth: tenantAuth(tenant) })), 200],
      ["Cache-Control: no-cache", () => get(edge, tenant, path, { "Cache-Control": "no-cache" }), 200],
      ["a tenant this isolate has not checked yet", () => get(edge, other, path), 200],
      ["a wrong secret", () => get(edge, { ...tenant, api_secret: `${tenant.api_secret}x` }, path), 403],
      ["no credentials", () => edge.fetch(buildRequest("GET", path)), 403],
    ];
    for (const [name, send, status] of cases) {
      expect((await send()).status, name).toBe(status);
    }
    // The admin call that made `other`, the miss and first hit, then each case: all the full way.
    expect(await laneAnswers()).toEqual(Array.from({ length: 3 + cases.length }, () => false));
    // The other tenant is known now: its next hit is the lane's.
    expect((await get(edge, other, path)).status).toBe(200);
    expect((await laneAnswers()).at(-1)).toBe(true);
  });

  it("stops answering a tenant the admin disables, and a document past its freshness", async () => {
    const { edge, tenant, laneAnswers } = await setup();
    const path = PATHS[0] ?? "";
    for (let i = 0; i < 3; i++) await get(edge, tenant, path);
    expect(await laneAnswers()).toEqual([false, false, true]);

    edge.clock.advance(edge.services().config.cache.ttlSeconds.certificates * 1000 + 1);
    const stale = await get(edge, tenant, path);
    expect(stale.headers.get("Cache-Status")).toContain("stale-while-revalidate");

    const disabled = await admin("PATCH", `/admin/tenants/${tenant.id}`, { disabled: true }, edge.fetch);
    expect(disabled.status).toBe(200);
    const refused = await get(edge, tenant, path);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("disabled");
    // The stale hit, the admin's change, the disabled tenant's request.
    expect((await laneAnswers()).slice(3)).toEqual([false, false, false]);
  });

  it("leaves a request its burst limit refuses to the full way, which answers the 429", async () => {
    const clock = testClock();
    const limiter = new FixedWindowRateLimiter(3, 60, clock);
    const checks = vi.spyOn(limiter, "check");
    const { edge, tenant, laneAnswers } = await setup({ rateLimiter: limiter, clock });
    const path = PATHS[0] ?? "";
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(edge, tenant, path)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The lane asked the limiter for the third and fourth; the full way answered the fourth from
    // the lane's refusal, so each request counted once against the tenant.
    expect(await laneAnswers()).toEqual([false, false, true, false]);
    expect(checks).toHaveBeenCalledTimes(4);
    const refused = await get(edge, tenant, path);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("60");
    expect(await refused.json()).toMatchObject({ error_type: "rate_limit_exceeded" });
  });

  it("answers the full way when the lane fails after the burst limit (the limiter itself failing)", async () => {
    let failNext = false;
    const limiter: RateLimiter = {
      check: () => {
        if (!failNext) return Promise.resolve({ allowed: true });
        failNext = false;
        return Promise.reject(new Error("rate limiter unavailable"));
      },
    };
    const { edge, tenant, laneAnswers } = await setup({ rateLimiter: limiter });
    const path = PATHS[0] ?? "";
    const full = [];
    for (let i = 0; i < 2; i++) full.push(await seen(await get(edge, tenant, path)));
    failNext = true;
    const after = await seen(await get(edge, tenant, path));
    expect(await laneAnswers()).toEqual([false, false, false]);
    expect(after).toEqual(full[1]);
    const usage = (await usageOf(tenant)).results;
    expect(usage[0]).toMatchObject({ requests: 3, hits: 2, upstream: 1, errors: 0 });
  });

  it("learns no path when hits are charged, and none while a statement count is asked", async () => {
    const charged = await setup({ vars: { CACHE_HITS_CHARGED: "true" } });
    const path = PATHS[0] ?? "";
    for (let i = 0; i < 3; i++) await get(charged.edge, charged.tenant, path);
    expect(await charged.laneAnswers()).toEqual([false, false, false]);

    const counted = await setup({ vars: { D1_STATEMENTS_HEADER: "true" } });
    for (let i = 0; i < 2; i++) await get(counted.edge, counted.tenant, path);
    const asked = await get(counted.edge, counted.tenant, path, { "X-D1-Statements": "" });
    expect(asked.headers.get("X-D1-Statements")).toBe("0");
    expect(await counted.laneAnswers()).toEqual([false, false, false]);
  });
});
