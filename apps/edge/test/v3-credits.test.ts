import {
  CREDIT_COSTS,
  platformTokenWithSecretSchema,
  tenantSchema,
  v3Envelope,
  v3HostAssetSchema,
  v3ProblemSchema,
} from "@scangate/core";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { edgeDb } from "../src/db/client";
import { CREDIT_HOLD_TTL_MS, CreditHolds } from "../src/quota/holds";
import { D1QuotaLedger } from "../src/quota/ledger";
import { maximumCredits, platformOperation, settledCredits } from "../src/routes/v3/credits";
import { suiteSecretWatch } from "./reliability/secret-watch";
import { json } from "./support/fake-upstream";
import { ORIGIN_PLATFORM, originFacts, seedOrigin } from "./support/origin-data";
import { admin, buildRequest, createTenant, type Fetch } from "./support/requests";
import { testClock, testEdge } from "./support/test-edge";

// Platform credits at the edge: /v3 calls spend the tenant's quota ledger by core's cost table,
// through the real origin's Platform surface (its local account is the pool's one credential).

const VARS = { PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]) };
const ORG = ORIGIN_PLATFORM.organization_id;

beforeAll(async () => {
  suiteSecretWatch.addMarkers([ORIGIN_PLATFORM.token]);
  await seedOrigin();
});

async function tenantWithToken(fetcher: Fetch, allowance: number) {
  const tenant = await createTenant({ allowance }, fetcher);
  const res = await admin(
    "POST",
    `/admin/tenants/${tenant.id}/platform-token`,
    { grace_seconds: 0 },
    fetcher,
  );
  const issued = platformTokenWithSecretSchema.parse(await res.json());
  return { id: tenant.id, auth: `Bearer ${issued.token}` };
}

async function used(fetcher: Fetch, id: string): Promise<number> {
  const res = await admin("GET", `/admin/tenants/${id}`, undefined, fetcher);
  return tenantSchema.parse(await res.json()).used;
}

function post(path: string, auth: string, body: unknown) {
  return buildRequest("POST", path, { auth, body });
}

describe("the /v3 cost table at the edge", () => {
  it("names every cost table entry from its method and path", () => {
    const seen = new Set([
      platformOperation("GET", "/v3/global/asset/host/1.1.1.1"),
      platformOperation("POST", "/v3/global/asset/host"),
      platformOperation("GET", "/v3/global/asset/host/1.1.1.1/timeline"),
      platformOperation("GET", "/v3/global/asset/certificate/abc"),
      platformOperation("GET", "/v3/global/asset/certificate/abc/raw"),
      platformOperation("POST", "/v3/global/asset/certificate"),
      platformOperation("POST", "/v3/global/asset/certificate/raw"),
      platformOperation("GET", "/v3/global/asset/webproperty/a.com:443"),
      platformOperation("POST", "/v3/global/asset/webproperty"),
      platformOperation("POST", "/v3/global/search/query"),
      platformOperation("POST", "/v3/global/search/aggregate"),
      platformOperation("POST", "/v3/global/search/convert"),
      platformOperation("GET", `/v3/accounts/organizations/${ORG}`),
      platformOperation("GET", `/v3/accounts/organizations/${ORG}/credits`),
      platformOperation("GET", `/v3/accounts/organizations/${ORG}/credits/usage`),
      platformOperation("GET", `/v3/accounts/organizations/${ORG}/members/u1/credits/usage`),
    ]);
    expect([...seen].sort()).toEqual(Object.keys(CREDIT_COSTS).sort());
    expect(platformOperation("GET", "/v3/no-such-route")).toBeNull();
  });

  it("holds a bulk's distinct ids and settles to the assets answered, never above the hold", () => {
    const body = new TextEncoder().encode(JSON.stringify({ host_ids: ["1.1.1.1", "1.1.1.1", "8.8.8.8"] }));
    expect(maximumCredits("v3_hosts", body)).toBe(2);
    expect(maximumCredits("v3_hosts", new TextEncoder().encode("not json"))).toBe(0);
    expect(maximumCredits("v3_host", undefined)).toBe(1);
    expect(maximumCredits("v3_organization_credits", undefined)).toBe(0);
    const answer = new TextEncoder().encode(JSON.stringify({ result: [{}] }));
    expect(settledCredits("v3_hosts", 2, answer)).toBe(1);
    expect(settledCredits("v3_hosts", 2, new TextEncoder().encode("{}"))).toBe(2);
  });
});

describe("/v3 credits through the real origin", () => {
  it("charges a lookup 1 credit and an account read nothing", async () => {
    const edge = testEdge({ vars: VARS });
    const { id, auth } = await tenantWithToken(edge.fetch, 10);
    const [ip] = (await originFacts()).hosts;
    expect((await edge.fetch(buildRequest("GET", `/v3/global/asset/host/${ip}`, { auth }))).status).toBe(200);
    expect(await used(edge.fetch, id)).toBe(1);
    const credits = await edge.fetch(
      buildRequest("GET", `/v3/accounts/organizations/${ORG}/credits`, { auth }),
    );
    expect(credits.status).toBe(200);
    expect(await used(edge.fetch, id)).toBe(1);
  });

  it("refunds a call the origin answers with a 4xx", async () => {
    const edge = testEdge({ vars: VARS });
    const { id, auth } = await tenantWithToken(edge.fetch, 10);
    const res = await edge.fetch(buildRequest("GET", "/v3/global/asset/host/not-an-ip", { auth }));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(edge.upstream.callsTo("/v3/global/asset/host/not-an-ip")).toHaveLength(1);
    expect(await used(edge.fetch, id)).toBe(0);
  });

  it("settles a bulk with unknown ids to the hosts found, releasing the rest of its hold", async () => {
    const edge = testEdge({ vars: VARS });
    const { id, auth } = await tenantWithToken(edge.fetch, 10);
    // Hosts no other test of this file looked up: a cached one would cost nothing (v3-cache.test.ts).
    const [a, b] = (await originFacts()).hosts.slice(5, 7);
    const res = await edge.fetch(
      post("/v3/global/asset/host", auth, { host_ids: [a, b, "203.0.113.254", "198.51.100.254"] }),
    );
    expect(res.status).toBe(200);
    const body = v3Envelope(v3HostAssetSchema.array()).parse(await res.json());
    expect(body.result ?? []).toHaveLength(2);
    expect(await used(edge.fetch, id)).toBe(2);
  });

  it("refuses a call that would overspend with 422 before it reaches the upstream", async () => {
    const edge = testEdge({ vars: VARS });
    const { id, auth } = await tenantWithToken(edge.fetch, 3);
    const hosts = (await originFacts()).hosts.slice(10, 14);
    // A bulk of 4 needs a hold of 4: more than the 3 left, even if fewer would be found.
    const res = await edge.fetch(post("/v3/global/asset/host", auth, { host_ids: hosts }));
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(v3ProblemSchema.parse(await res.json()).status).toBe(422);
    expect(edge.upstream.callsTo("/v3/global/asset/host")).toHaveLength(0);
    expect(await used(edge.fetch, id)).toBe(0);
  });

  it("never overspends a small allowance under 500 concurrent calls", async () => {
    const edge = testEdge({ vars: VARS });
    const allowance = 5;
    const { id, auth } = await tenantWithToken(edge.fetch, allowance);
    const [ip] = (await originFacts()).hosts;
    // A host's timeline: a charged call every time (concurrent lookups of one cached host would
    // share one upstream call instead, v3-cache.test.ts).
    const timeline = `/v3/global/asset/host/${ip}/timeline`;
    const query = "?start_time=2026-11-01T00:00:00Z&end_time=2026-01-01T00:00:00Z";
    const answers = await Promise.all(
      Array.from({ length: 500 }, () => edge.fetch(buildRequest("GET", `${timeline}${query}`, { auth }))),
    );
    const statuses = answers.map((r) => r.status);
    await Promise.all(answers.map((r) => r.text()));
    expect(statuses.filter((s) => s === 200)).toHaveLength(allowance);
    expect(statuses.filter((s) => s === 422)).toHaveLength(500 - allowance);
    expect(edge.upstream.callsTo(timeline)).toHaveLength(allowance);
    expect(await used(edge.fetch, id)).toBe(allowance);
  }, 60_000);
});

describe("/v3 credits when the upstream fails", () => {
  it("refunds a call the upstream answers with a 5xx", async () => {
    const edge = testEdge({ vars: VARS });
    edge.upstream.answer(() => json(503, { title: "Service Unavailable", status: 503 }));
    const { id, auth } = await tenantWithToken(edge.fetch, 10);
    const res = await edge.fetch(buildRequest("GET", "/v3/global/asset/host/1.1.1.1", { auth }));
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(await used(edge.fetch, id)).toBe(0);
  });
});

describe("credit holds that never settle", () => {
  it("are released once expired, exactly once, and a late settlement gives nothing more back", async () => {
    const clock = testClock();
    const edge = testEdge({ vars: VARS, clock });
    const { id } = await tenantWithToken(edge.fetch, 10);
    const ledger = new D1QuotaLedger(edgeDb(env.DB), clock);
    const holds = new CreditHolds(edgeDb(env.DB), ledger);
    // A bulk's hold of 4 whose isolate dies before the answer.
    const charged = await ledger.charge(id, 4);
    if (!charged.ok) throw new Error("charge refused");
    const hold = await holds.open(charged.charge, clock.now());
    expect(await used(edge.fetch, id)).toBe(4);
    expect(await holds.expire(clock.now() + CREDIT_HOLD_TTL_MS - 1)).toBe(0);
    expect(await used(edge.fetch, id)).toBe(4);
    expect(await holds.expire(clock.now() + CREDIT_HOLD_TTL_MS)).toBe(1);
    expect(await used(edge.fetch, id)).toBe(0);
    expect(await holds.expire(clock.now() + CREDIT_HOLD_TTL_MS)).toBe(0);
    expect(await holds.settle(hold, charged.charge, 1)).toBe(false);
    expect(await used(edge.fetch, id)).toBe(0);
  });

  it("leave no hold behind once a bulk call has settled", async () => {
    const edge = testEdge({ vars: VARS });
    const { id, auth } = await tenantWithToken(edge.fetch, 10);
    const [a] = (await originFacts()).hosts.slice(15);
    const res = await edge.fetch(post("/v3/global/asset/host", auth, { host_ids: [a, "203.0.113.253"] }));
    expect(res.status).toBe(200);
    expect(await used(edge.fetch, id)).toBe(1);
    const left = await env.DB.prepare("select count(*) as n from credit_holds where tenant_id = ?")
      .bind(id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});
