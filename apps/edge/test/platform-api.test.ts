import {
  v1UnauthorizedErrorSchema,
  v2ErrorSchema,
  v3AuthenticationErrorSchema,
  v3Envelope,
  v3HostAssetSchema,
  v3OrganizationCreditsSchema,
  v3ProblemSchema,
} from "@scangate/core";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { admin, basicAuth, buildRequest, tenantAuth, tenantWithToken } from "./support/requests";
import { json } from "./support/fake-upstream";
import { FixedWindowRateLimiter, testClock, testEdge } from "./support/test-edge";
import { suiteSecretWatch } from "./reliability/secret-watch";
import { ORIGIN_PLATFORM, originFacts, seedOrigin } from "./support/origin-data";
import { ledgerUsed } from "./support/ledger";

// The Platform API (/v3) at the edge: bearer-token auth of tenants, problem+json errors, and
// the pass-through to the Platform token pool (scripted answers stand in for the upstream's /v3).

const POOL = [
  { token: "pool-token-alpha-0123456789", organization_id: "11111111-1111-4111-8111-111111111111" },
  { token: "pool-token-beta-0123456789", organization_id: "22222222-2222-4222-8222-222222222222" },
];
const VARS = { PLATFORM_CREDENTIALS: JSON.stringify(POOL) };

// Every answer of this file, and every console line, must be free of the pool's tokens.
beforeAll(() => suiteSecretWatch.addMarkers(POOL.map((p) => p.token)));
/**
 * A host lookup no earlier test made: lookups are cached (test/v3-cache.test.ts), and these tests
 * are about what reaches the upstream, so each asks for an address of its own.
 */
let hostsAsked = 0;
const host = () => {
  hostsAsked += 1;
  return `/v3/global/asset/host/10.0.${Math.floor(hostsAsked / 250)}.${(hostsAsked % 250) + 1}`;
};

async function expectProblem(res: Response, status: number, detail?: RegExp) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  // core's v3 problem (the SDK's ErrorModel); a 401 also carries the SDK's AuthenticationError.
  const body = (status === 401 ? v3AuthenticationErrorSchema : v3ProblemSchema).parse(await res.json());
  expect(body.status).toBe(status);
  expect(body.type).toBe("about:blank");
  if (detail) expect(body.detail).toMatch(detail);
  return body;
}

/**
 * An upstream that answers with what it was sent: method, URL, the headers that matter, body.
 * The bearer token is echoed as its place in the pool: an answer holding a pool token is
 * withheld by the edge (tested below).
 */
function echoEdge() {
  const edge = testEdge({ vars: VARS });
  edge.upstream.answer(async (request) =>
    json(
      200,
      {
        result: {
          method: request.method,
          url: request.url,
          pool_index: POOL.findIndex((p) => request.headers.get("authorization") === `Bearer ${p.token}`),
          organization: request.headers.get("x-organization-id"),
          accept: request.headers.get("accept"),
          content_type: request.headers.get("content-type"),
          cookie: request.headers.get("cookie"),
          body: await request.text(),
        },
      },
      { "content-type": "application/vnd.censys.api.v3.host.v1+json" },
    ),
  );
  return edge;
}

type Echo = {
  result: {
    method: string;
    url: string;
    pool_index: number;
    organization: string | null;
    accept: string | null;
    content_type: string | null;
    cookie: string | null;
    body: string;
  };
};

describe("/v3 authentication", () => {
  it("refuses a request without credentials with 401 problem+json and a Bearer challenge", async () => {
    const edge = echoEdge();
    const res = await edge.fetch(buildRequest("GET", host()));
    await expectProblem(res, 401, /Authorization: Bearer/);
    expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="scangate"');
    expect(edge.upstream.requests).toHaveLength(0);
  });

  it("refuses a tenant's Basic credentials on /v3, saying where they belong", async () => {
    const edge = echoEdge();
    const { tenant } = await tenantWithToken(edge.fetch);
    const res = await edge.fetch(buildRequest("GET", host(), { auth: tenantAuth(tenant) }));
    await expectProblem(res, 401, /Bearer .*Basic credentials .* are for the \/api routes/);
    expect(edge.upstream.requests).toHaveLength(0);
  });

  for (const [what, auth] of [
    ["an unknown token", "Bearer sgt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["an empty bearer", "Bearer "],
    ["the admin token", `Bearer ${env.ADMIN_TOKEN ?? ""}`],
    ["a pool token of the upstream", `Bearer ${POOL[0]?.token ?? ""}`],
    ["another scheme", "Token abc"],
  ] as const) {
    it(`refuses ${what} with 401 problem+json and never calls upstream`, async () => {
      const edge = echoEdge();
      const res = await edge.fetch(buildRequest("GET", host(), { auth }));
      await expectProblem(res, 401);
      expect(edge.upstream.requests).toHaveLength(0);
    });
  }

  it("refuses a bearer token on the legacy /api routes, in their v1 and v2 shapes", async () => {
    const edge = echoEdge();
    const { auth } = await tenantWithToken(edge.fetch);
    const v1 = await edge.fetch(buildRequest("GET", "/api/v1/account", { auth }));
    expect(v1.status).toBe(403);
    expect(v1UnauthorizedErrorSchema.parse(await v1.json()).error).toMatch(
      /Bearer tokens are for the Platform API/,
    );
    const v2 = await edge.fetch(buildRequest("GET", "/api/v2/hosts/1.1.1.1", { auth }));
    expect(v2.status).toBe(401);
    expect(v2ErrorSchema.parse(await v2.json()).error).toMatch(/take HTTP Basic with your API ID and secret/);
  });

  it("refuses a disabled tenant's token", async () => {
    const edge = echoEdge();
    const { tenant, auth } = await tenantWithToken(edge.fetch);
    await admin("PATCH", `/admin/tenants/${tenant.id}`, { disabled: true }, edge.fetch);
    await expectProblem(await edge.fetch(buildRequest("GET", host(), { auth })), 401, /disabled/);
  });

  it("a token revoked in D1 by another isolate stops within 5 s; its Basic credential is untouched", async () => {
    const edge = echoEdge();
    const { tenant, auth } = await tenantWithToken(edge.fetch);
    expect((await edge.fetch(buildRequest("GET", host(), { auth }))).status).toBe(200);
    // Another isolate's revoke: this isolate's cache is not told.
    await env.DB.prepare("delete from platform_tokens where tenant_id = ?").bind(tenant.id).run();
    edge.clock.advance(3_900);
    expect((await edge.fetch(buildRequest("GET", host(), { auth }))).status).toBe(200);
    edge.clock.advance(1_100);
    await expectProblem(await edge.fetch(buildRequest("GET", host(), { auth })), 401, /not valid/);
    const basic = await edge.fetch(buildRequest("GET", "/api/v1/account", { auth: tenantAuth(tenant) }));
    expect(basic.status).toBe(200);
  });

  it("a busy token's row is read again in the background from 4 s on, so a revocation shows before 5 s", async () => {
    const edge = echoEdge();
    const { tenant, auth } = await tenantWithToken(edge.fetch);
    expect((await edge.fetch(buildRequest("GET", host(), { auth }))).status).toBe(200);
    await env.DB.prepare("delete from platform_tokens where tenant_id = ?").bind(tenant.id).run();
    edge.clock.advance(4_000);
    expect((await edge.fetch(buildRequest("GET", host(), { auth }))).status).toBe(200);
    await expectProblem(await edge.fetch(buildRequest("GET", host(), { auth })), 401);
  });

  it("a tenant deleted by another isolate loses its token within 5 s", async () => {
    const edge = echoEdge();
    const { tenant, auth } = await tenantWithToken(edge.fetch);
    expect((await edge.fetch(buildRequest("GET", host(), { auth }))).status).toBe(200);
    await env.DB.prepare("delete from tenants where id = ?").bind(tenant.id).run();
    edge.clock.advance(5_000);
    await expectProblem(await edge.fetch(buildRequest("GET", host(), { auth })), 401);
  });

  it("tells a tenant whose rotated-out token's grace has ended so", async () => {
    const edge = echoEdge();
    const { tenant, auth } = await tenantWithToken(edge.fetch);
    await admin("POST", `/admin/tenants/${tenant.id}/platform-token`, { grace_seconds: 10 }, edge.fetch);
    expect((await edge.fetch(buildRequest("GET", host(), { auth }))).status).toBe(200);
    edge.clock.advance(10_000);
    await expectProblem(
      await edge.fetch(buildRequest("GET", host(), { auth })),
      401,
      /grace period has ended/,
    );
  });
});

describe("/v3 forwarding", () => {
  it("sends the pool's token and organization, never the caller's, and relays the answer as it came", async () => {
    const edge = echoEdge();
    const { token, auth } = await tenantWithToken(edge.fetch);
    const path = host();
    const res = await edge.fetch(
      buildRequest("GET", `${path}?at_time=2026-01-01T00%3A00%3A00Z&organization_id=caller-org&x=1`, {
        auth,
        headers: {
          accept: "application/vnd.censys.api.v3.host.v1+json",
          "x-organization-id": "caller-org",
          cookie: "session=abc",
        },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.censys.api.v3.host.v1+json");
    const { result } = await res.json<Echo>();
    const pool = POOL[result.pool_index];
    expect(pool).toBeDefined();
    const url = new URL(result.url);
    expect(url.pathname).toBe(path);
    expect(url.search).toBe(
      `?at_time=2026-01-01T00%3A00%3A00Z&x=1&organization_id=${pool?.organization_id ?? ""}`,
    );
    expect(result.organization).toBe(pool?.organization_id);
    expect(result.accept).toBe("application/vnd.censys.api.v3.host.v1+json");
    expect(result.cookie).toBeNull();
    expect(JSON.stringify(edge.upstream.requests.map((r) => [...r.headers]))).not.toContain(token);
  });

  it("adds no organization_id parameter where the caller sent none (the header carries it)", async () => {
    const edge = echoEdge();
    const { auth } = await tenantWithToken(edge.fetch);
    const res = await edge.fetch(buildRequest("GET", host(), { auth }));
    const { result } = await res.json<Echo>();
    expect(new URL(result.url).search).toBe("");
    expect(POOL.map((p) => p.organization_id)).toContain(result.organization);
  });

  it("forwards a POST body and its type", async () => {
    const edge = echoEdge();
    const { auth } = await tenantWithToken(edge.fetch);
    const body = { query: "host.services.port: 22", page_size: 10 };
    const res = await edge.fetch(
      buildRequest("POST", "/v3/global/search/query?organization_id=mine", { auth, body }),
    );
    const { result } = await res.json<Echo>();
    expect(result.method).toBe("POST");
    expect(JSON.parse(result.body)).toEqual(body);
    expect(result.content_type).toBe("application/json");
    expect(new URL(result.url).searchParams.getAll("organization_id")).toHaveLength(1);
  });

  it("relays the upstream's problem+json errors unchanged", async () => {
    const edge = testEdge({ vars: VARS });
    const { auth } = await tenantWithToken(edge.fetch);
    const problem = { title: "Not Found", status: 404, detail: "host not found" };
    edge.upstream.answer(() => json(404, problem, { "content-type": "application/problem+json" }));
    const res = await edge.fetch(buildRequest("GET", host(), { auth }));
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toEqual(problem);
  });

  it("refuses other methods with 405 problem+json", async () => {
    const edge = echoEdge();
    const { auth } = await tenantWithToken(edge.fetch);
    const res = await edge.fetch(buildRequest("DELETE", host(), { auth }));
    await expectProblem(res, 405);
    expect(res.headers.get("Allow")).toContain("GET");
    expect(edge.upstream.requests).toHaveLength(0);
  });

  it("refuses a body over the limit with 413 problem+json before calling upstream", async () => {
    const edge = echoEdge();
    const { auth } = await tenantWithToken(edge.fetch);
    const res = await edge.fetch(
      buildRequest("POST", "/v3/global/search/query", { auth, body: { query: "x".repeat(2_000_000) } }),
    );
    await expectProblem(res, 413);
    expect(edge.upstream.requests).toHaveLength(0);
  });

  it("refuses a request target past the limit with 400 problem+json", async () => {
    const edge = echoEdge();
    const { auth } = await tenantWithToken(edge.fetch);
    await expectProblem(
      await edge.fetch(buildRequest("GET", `${host()}?x=${"a".repeat(9000)}`, { auth })),
      400,
    );
    expect(edge.upstream.requests).toHaveLength(0);
  });

  it.each([
    [
      "an invitation",
      "POST",
      "/v3/accounts/organizations/any/invitations",
      { email: "a@example.com", roles: ["admin"] },
    ],
    ["a member's roles", "PATCH", "/v3/accounts/organizations/any/members/u1", { roles: ["admin"] }],
    ["a member's removal", "DELETE", "/v3/accounts/organizations/any/members/u1", undefined],
    [
      "an account write the SDK does not name",
      "POST",
      "/v3/accounts/organizations/any/api-keys",
      { name: "k" },
    ],
  ] as const)(
    "refuses %s with 403 problem+json, for nothing and never forwarded",
    async (_what, method, path, body) => {
      const edge = echoEdge();
      const { tenant, auth } = await tenantWithToken(edge.fetch);
      const res = await edge.fetch(buildRequest(method, path, { auth, ...(body ? { body } : {}) }));
      await expectProblem(res, 403, /administrators on the Censys Platform/);
      expect(edge.upstream.requests).toHaveLength(0);
      expect(await ledgerUsed(tenant.id)).toBe(0);
    },
  );

  it("still forwards reads of the organization (its members, its credits)", async () => {
    const edge = echoEdge();
    const { auth } = await tenantWithToken(edge.fetch);
    for (const path of ["/v3/accounts/organizations/any/members", "/v3/accounts/organizations/any/credits"]) {
      const res = await edge.fetch(buildRequest("GET", path, { auth }));
      expect(res.status).toBe(200);
      expect(new URL((await res.json<Echo>()).result.url).pathname).not.toContain("/any/");
    }
    expect(edge.upstream.requests).toHaveLength(2);
  });

  it("charges a host lookup its credit and counts the call in the tenant's usage", async () => {
    const edge = echoEdge();
    const { tenant, auth } = await tenantWithToken(edge.fetch);
    for (let i = 0; i < 3; i++) await (await edge.fetch(buildRequest("GET", host(), { auth }))).arrayBuffer();
    const row = { used: await ledgerUsed(tenant.id) };
    expect(row?.used).toBe(3);
    const usage = await env.DB.prepare(
      "select sum(requests) as requests, sum(upstream_calls) as calls, sum(quota_spent) as spent from usage where tenant_id = ? and operation = 'v3_host'",
    )
      .bind(tenant.id)
      .first<{ requests: number; calls: number; spent: number }>();
    expect(usage).toEqual({ requests: 3, calls: 3, spent: 3 });
  });
});

describe("/v3 token pool", () => {
  for (const status of [401, 403, 429]) {
    it(`rests a token the upstream answers ${status} and tries the next`, async () => {
      const edge = testEdge({ vars: VARS });
      const { auth } = await tenantWithToken(edge.fetch);
      const refused = POOL[0]?.token ?? "";
      edge.upstream.answer((request) =>
        request.headers.get("authorization") === `Bearer ${refused}`
          ? json(status, { title: "refused", status, detail: "no" }, { "retry-after": "30" })
          : json(200, { result: { by: request.headers.get("x-organization-id") } }),
      );
      // Two requests: whichever token the pool's turn starts with, one of them meets the refusal.
      for (let i = 0; i < 2; i++) {
        const res = await edge.fetch(buildRequest("GET", host(), { auth }));
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ result: { by: POOL[1]?.organization_id } });
      }
      const sentWith = edge.upstream.requests.map((r) => r.headers.get("authorization"));
      expect(sentWith.filter((a) => a === `Bearer ${refused}`)).toHaveLength(1);
      // Resting: the next requests go straight to the other token, until the rest ends.
      edge.upstream.requests.length = 0;
      await (await edge.fetch(buildRequest("GET", host(), { auth }))).arrayBuffer();
      await (await edge.fetch(buildRequest("GET", host(), { auth }))).arrayBuffer();
      expect(edge.upstream.requests.map((r) => r.headers.get("authorization"))).toEqual([
        `Bearer ${POOL[1]?.token ?? ""}`,
        `Bearer ${POOL[1]?.token ?? ""}`,
      ]);
      edge.clock.advance(30_000);
      edge.upstream.requests.length = 0;
      await (await edge.fetch(buildRequest("GET", host(), { auth }))).arrayBuffer();
      await (await edge.fetch(buildRequest("GET", host(), { auth }))).arrayBuffer();
      expect(edge.upstream.requests.map((r) => r.headers.get("authorization"))).toContain(
        `Bearer ${refused}`,
      );
    });
  }

  it("a 401 from every token is the gateway's fault: 502 problem+json that names no token", async () => {
    const edge = testEdge({ vars: VARS });
    const { auth } = await tenantWithToken(edge.fetch);
    edge.upstream.answer(() => json(401, { error: { code: 401, message: "bad token" } }));
    const res = await edge.fetch(buildRequest("GET", host(), { auth }));
    const text = await res.clone().text();
    await expectProblem(res, 502, /refused the gateway's tokens/);
    for (const p of POOL) expect(text).not.toContain(p.token);
    expect(edge.upstream.requests).toHaveLength(2);
  });

  it("relays a 429 when every token is rate limited, with its Retry-After", async () => {
    const edge = testEdge({ vars: VARS });
    const { auth } = await tenantWithToken(edge.fetch);
    edge.upstream.answer(() =>
      json(429, { title: "Too Many Requests", status: 429, detail: "slow down" }, { "retry-after": "7" }),
    );
    const res = await edge.fetch(buildRequest("GET", host(), { auth }));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
  });

  it("withholds an answer that echoes a pool token (502)", async () => {
    const edge = testEdge({ vars: VARS });
    const { auth } = await tenantWithToken(edge.fetch);
    edge.upstream.answer((request) => json(200, { debug: request.headers.get("authorization") }));
    const res = await edge.fetch(buildRequest("GET", host(), { auth }));
    const text = await res.clone().text();
    await expectProblem(res, 502);
    for (const p of POOL) expect(text).not.toContain(p.token);
  });

  it("answers 502 problem+json for an unreachable upstream and 504 past the deadline", async () => {
    const edge = testEdge({ vars: { ...VARS, UPSTREAM_TIMEOUT_MS: "50" } });
    const { auth } = await tenantWithToken(edge.fetch);
    edge.upstream.answer(() => Promise.reject(new Error("connection refused")));
    await expectProblem(await edge.fetch(buildRequest("GET", host(), { auth })), 502);
    edge.upstream.answer(
      (request) =>
        new Promise<Response>((_, reject) =>
          request.signal.addEventListener("abort", () => reject(new Error("aborted"))),
        ),
    );
    await expectProblem(await edge.fetch(buildRequest("GET", host(), { auth })), 504);
  });

  it("without Platform credentials /v3 answers a 503 that tells the caller to tell the operator", async () => {
    const edge = testEdge();
    const { auth } = await tenantWithToken(edge.fetch);
    await expectProblem(await edge.fetch(buildRequest("GET", host(), { auth })), 503, /no Platform upstream/);
    expect(edge.upstream.requests).toHaveLength(0);
  });

  it("a bad Platform setting answers /v3 with a 500 problem+json that names the variable, not its value", async () => {
    const edge = testEdge({ vars: { PLATFORM_CREDENTIALS: '[{"token":"leaky-token-value"}]' } });
    const res = await edge.fetch(buildRequest("GET", host(), { auth: "Bearer sgt_x" }));
    const text = await res.clone().text();
    await expectProblem(res, 500, /PLATFORM_CREDENTIALS\.0\.organization_id/);
    expect(text).not.toContain("leaky-token-value");
  });

  it("/v3 itself is the Platform API's too (authenticated, forwarded); /v3x is not", async () => {
    const edge = echoEdge();
    const { auth } = await tenantWithToken(edge.fetch);
    const bare = await edge.fetch(buildRequest("GET", "/v3", { auth }));
    expect(bare.status).toBe(200);
    expect(new URL((await bare.json<Echo>()).result.url).pathname).toBe("/v3");
    await expectProblem(await edge.fetch(buildRequest("GET", "/v3")), 401);
    const beside = await edge.fetch(buildRequest("GET", "/v3x", { auth }));
    expect(beside.status).toBe(404);
    expect(v2ErrorSchema.parse(await beside.json()).code).toBe(404);
    expect(edge.upstream.requests).toHaveLength(1);
  });

  it("the burst limit applies to /v3 too, as problem+json with Retry-After", async () => {
    const clock = testClock();
    const limited = testEdge({ vars: VARS, clock, rateLimiter: new FixedWindowRateLimiter(1, 60, clock) });
    limited.upstream.answer(() => json(200, { result: {} }));
    const { auth } = await tenantWithToken(limited.fetch);
    expect((await limited.fetch(buildRequest("GET", host(), { auth }))).status).toBe(200);
    const res = await limited.fetch(buildRequest("GET", host(), { auth }));
    await expectProblem(res, 429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("/v3 and Basic credentials", () => {
  it("a Basic header carrying a valid token as its password is still refused on /v3", async () => {
    const edge = echoEdge();
    const { token } = await tenantWithToken(edge.fetch);
    await expectProblem(await edge.fetch(buildRequest("GET", host(), { auth: basicAuth("x", token) })), 401);
  });
});

describe("/v3 through the real origin's Platform surface", () => {
  const ORIGIN_VARS = { PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]) };
  beforeAll(async () => {
    suiteSecretWatch.addMarkers([ORIGIN_PLATFORM.token]);
    await seedOrigin();
  });

  it("serves a host from the origin with the caller's organization id replaced by the pool's", async () => {
    const edge = testEdge({ vars: ORIGIN_VARS });
    const { auth } = await tenantWithToken(edge.fetch);
    const [ip] = (await originFacts()).hosts;
    // The origin refuses an organization its token does not belong to (403): a 200 shows the
    // edge sent the pool's organization, not this one.
    const res = await edge.fetch(
      buildRequest(
        "GET",
        `/v3/global/asset/host/${ip}?organization_id=33333333-3333-4333-8333-333333333333`,
        {
          auth,
        },
      ),
    );
    expect(res.status).toBe(200);
    const body = v3Envelope(v3HostAssetSchema).parse(await res.json());
    expect(body.result?.resource.ip).toBe(ip);
    const [call] = edge.upstream.callsTo(`/v3/global/asset/host/${ip}`);
    expect(new URL(call?.url ?? "http://x").searchParams.get("organization_id")).toBe(
      ORIGIN_PLATFORM.organization_id,
    );
  });

  it("answers an account path naming any organization with the pool organization's (the team's shared balance)", async () => {
    const edge = testEdge({ vars: ORIGIN_VARS });
    const { auth } = await tenantWithToken(edge.fetch);
    const res = await edge.fetch(
      buildRequest("GET", "/v3/accounts/organizations/my-own-org/credits", { auth }),
    );
    expect(res.status).toBe(200);
    const credits = v3Envelope(v3OrganizationCreditsSchema).parse(await res.json()).result;
    expect(credits?.uid).toBe(ORIGIN_PLATFORM.organization_id);
    expect(
      edge.upstream.callsTo(`/v3/accounts/organizations/${ORIGIN_PLATFORM.organization_id}/credits`),
    ).toHaveLength(1);
    expect(edge.upstream.callsTo("/v3/accounts/organizations/my-own-org/credits")).toHaveLength(0);
  });

  it("answers a path the origin does not serve with the origin's own 404 problem", async () => {
    const edge = testEdge({ vars: ORIGIN_VARS });
    const { auth } = await tenantWithToken(edge.fetch);
    const res = await edge.fetch(buildRequest("GET", "/v3/no-such-route", { auth }));
    await expectProblem(res, 404);
    expect(edge.upstream.callsTo("/v3/no-such-route")).toHaveLength(1);
  });
});
