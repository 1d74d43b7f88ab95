import {
  CREDIT_COSTS,
  v3Envelope,
  v3HostAssetSchema,
  v3OrganizationCreditsSchema,
  v3ProblemSchema,
} from "@scangate/core";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { PLATFORM_ROUTES } from "../src/routes/v3";
import { answeredAssets, bodyIds, queryIds } from "../src/routes/v3/passthrough";
import { type LedgerCalls, spyOnLedgers } from "./support/ledger-spy";
import { waitFor } from "./support/wait-for";
import { suiteSecretWatch } from "./reliability/secret-watch";
import { hang, json } from "./support/fake-upstream";
import { ledgerHeld } from "./support/ledger";
import { ORIGIN_PLATFORM, originFacts, seedOrigin } from "./support/origin-data";
import { buildRequest, type Fetch, tenantWithToken, usedOf as used } from "./support/requests";
import { testEdge } from "./support/test-edge";

// Platform credits at the edge: /v3 calls spend the tenant's quota ledger by core's cost table,
// through the real origin's Platform surface (its local account is the pool's one credential).

const VARS = { PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]) };
const ORG = ORIGIN_PLATFORM.organization_id;

beforeAll(async () => {
  suiteSecretWatch.addMarkers([ORIGIN_PLATFORM.token]);
  await seedOrigin();
});

function post(path: string, auth: string, body: unknown) {
  return buildRequest("POST", path, { auth, body });
}

describe("the /v3 cost table at the edge", () => {
  it("prices every cost table entry on the route of that operation, in both upstream modes", () => {
    const priced = new Map(PLATFORM_ROUTES.map((route) => [route.operation, route.price]));
    for (const [operation, cost] of Object.entries(CREDIT_COSTS)) {
      const price = priced.get(operation);
      expect(price, operation).toBeDefined();
      const expected =
        cost.per === "target"
          ? { credits: 1, per: "credit" }
          : { credits: cost.credits, per: cost.per === "call" ? "request" : cost.per };
      expect(price?.legacy, operation).toEqual(expected);
      expect(price?.platform, operation).toEqual(expected);
    }
  });

  it("holds a bulk's distinct ids and settles to the assets answered", () => {
    const body = new TextEncoder().encode(JSON.stringify({ host_ids: ["1.1.1.1", "1.1.1.1", "8.8.8.8"] }));
    expect(bodyIds(body, "host_ids")).toBe(2);
    expect(bodyIds(new TextEncoder().encode("not json"), "host_ids")).toBe(0);
    expect(bodyIds(undefined, "host_ids")).toBe(0);
    // A query's ids as the upstream reads them (core v3BulkInputOfQuery): a repeated key adds its ids.
    expect(queryIds("?host_ids=1.1.1.1,8.8.8.8&host_ids=1.1.1.1,9.9.9.9&other=1", "host_ids")).toBe(3);
    expect(queryIds("?host_ids=&other=1", "host_ids")).toBe(0);
    expect(queryIds("?other=1", "host_ids")).toBe(0);
    expect(queryIds("?host_ids=1.1.1.1", "certificate_ids")).toBe(0);
    expect(answeredAssets(new TextEncoder().encode(JSON.stringify({ result: [{}] })))).toBe(1);
    expect(answeredAssets(new TextEncoder().encode("{}"))).toBeNull();
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
  const FAULTS = [
    ["a 5xx", () => json(503, { title: "Service Unavailable", status: 503 })],
    ["a 429", () => json(429, { title: "Too Many Requests", status: 429 }, { "retry-after": "3" })],
    ["a timeout", hang],
  ] as const;

  for (const [name, script] of FAULTS) {
    it(`refunds a charged call the upstream answers with ${name}`, async () => {
      const edge = testEdge({ vars: { ...VARS, UPSTREAM_TIMEOUT_MS: "300" } });
      edge.upstream.answer(script);
      const { id, auth } = await tenantWithToken(edge.fetch, 10);
      for (const request of [
        buildRequest("GET", "/v3/global/asset/host/1.1.1.1", { auth }),
        post("/v3/global/search/query", auth, { query: "host.services.port=22" }),
      ]) {
        const res = await edge.fetch(request);
        expect(res.status).toBeGreaterThanOrEqual(429);
      }
      expect(await used(edge.fetch, id)).toBe(0);
    });

    it(`settles a held bulk to nothing when the upstream answers ${name}`, async () => {
      const edge = testEdge({ vars: { ...VARS, UPSTREAM_TIMEOUT_MS: "300" } });
      edge.upstream.answer(script);
      const { id, auth } = await tenantWithToken(edge.fetch, 10);
      const res = await edge.fetch(
        post("/v3/global/asset/certificate/raw", auth, { certificate_ids: ["a".repeat(64)] }),
      );
      expect(res.status).toBeGreaterThanOrEqual(429);
      const bulk = await edge.fetch(
        post("/v3/global/asset/host", auth, { host_ids: ["203.0.113.41", "203.0.113.42"] }),
      );
      expect(bulk.status).toBeGreaterThanOrEqual(429);
      // A GET the cache cannot describe (an unknown parameter), forwarded as sent, holds alike.
      const byQuery = await edge.fetch(
        buildRequest("GET", "/v3/global/asset/host?host_ids=203.0.113.43,203.0.113.44&other=1", { auth }),
      );
      expect(byQuery.status).toBeGreaterThanOrEqual(429);
      expect(await used(edge.fetch, id)).toBe(0);
      expect(await ledgerHeld(id)).toBe(0);
    });
  }
});

describe("credit holds that never settle", () => {
  it("are released by the tenant's ledger alarm, with every credit back", async () => {
    const calls: LedgerCalls = [];
    const edge = testEdge({
      // A hold is taken for dead after twice the upstream deadline: 0.6 s here.
      vars: { ...VARS, UPSTREAM_TIMEOUT_MS: "300" },
      overrides: {
        // The request's settlement never reaches the ledger (its isolate died after the call).
        ledgers: (inner) => {
          const spied = spyOnLedgers(calls)(inner);
          return (id) => ({ ...spied(id), settle: () => Promise.reject(new Error("isolate gone")) });
        },
      },
    });
    const { id, auth } = await tenantWithToken(edge.fetch, 10);
    const [a, b] = (await originFacts()).hosts.slice(17, 19);
    const res = await edge.fetch(post("/v3/global/asset/host", auth, { host_ids: [a, b, "203.0.113.252"] }));
    expect(res.status).toBe(200);
    expect(calls).toContain("charge");
    // Held at its most (3), never settled: the tenant's ledger still holds it.
    expect(await used(edge.fetch, id)).toBe(3);
    // The object's alarm fires at the hold's expiry, on its own.
    await waitFor(async () => (await used(edge.fetch, id)) === 0);
    expect(await used(edge.fetch, id)).toBe(0);
  });

  it("leave no hold behind once a bulk call has settled", async () => {
    const edge = testEdge({ vars: VARS });
    const { id, auth } = await tenantWithToken(edge.fetch, 10);
    const [a] = (await originFacts()).hosts.slice(15);
    const res = await edge.fetch(post("/v3/global/asset/host", auth, { host_ids: [a, "203.0.113.253"] }));
    expect(res.status).toBe(200);
    expect(await used(edge.fetch, id)).toBe(1);
    const ledger = env.LEDGER.get(env.LEDGER.idFromName(id));
    const [tenant] = (
      await env.DB.prepare("select allowance, period, updated_at from tenants where id = ?")
        .bind(id)
        .all<{ allowance: number; period: "monthly"; updated_at: number }>()
    ).results;
    const reading = await ledger.read({
      terms: { allowance: tenant?.allowance ?? 0, period: "monthly", version: tenant?.updated_at ?? 0 },
      now: edge.clock.now(),
    });
    expect(reading.held).toBe(0);
  });
});

describe("the Platform SDK's operations through a tenant token", () => {
  async function balance(fetcher: Fetch, auth: string): Promise<number> {
    const res = await fetcher(buildRequest("GET", `/v3/accounts/organizations/${ORG}/credits`, { auth }));
    expect(res.status).toBe(200);
    return v3Envelope(v3OrganizationCreditsSchema).parse(await res.json()).result.balance;
  }

  it("forwards every method the SDK sends, with its status, and charges what the organization lost", async () => {
    const edge = testEdge({ vars: VARS });
    const { id, auth } = await tenantWithToken(edge.fetch, 1_000);
    const { hosts, certificates } = await originFacts();
    const [ip] = hosts;
    const [certificate] = certificates;
    const before = await balance(edge.fetch, auth);
    const send = (method: string, path: string, body?: unknown) =>
      edge.fetch(buildRequest(method, path, { auth, ...(body === undefined ? {} : { body }) }));

    const tag = await send("POST", "/v3/tags", { name: `edge-${crypto.randomUUID()}`, privacy: "private" });
    expect(tag.status).toBe(201);
    const tagId = v3Envelope(z.object({ id: z.string() }).loose()).parse(await tag.json()).result.id;
    expect((await send("GET", `/v3/tags/${tagId}`)).status).toBe(200);
    const deleted = await send("DELETE", `/v3/tags/${tagId}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect((await send("GET", `/v3/global/dns/resolutions/ip/${ip}/ranges`)).status).toBe(200);
    const counts = await send("POST", "/v3/threat-hunting/value-counts", {
      and_count_conditions: [
        { field_value_pairs: [{ field: "host.services.port", value: "22" }] },
        { field_value_pairs: [{ field: "host.services.port", value: "443" }] },
      ],
    });
    expect(counts.status).toBe(200);
    const job = await send("POST", "/v3/threat-hunting/censeye/jobs", {
      target: { certificate_id: certificate },
    });
    expect(job.status).toBe(200);

    const charged = await used(edge.fetch, id);
    // DNS ranges 1, two count conditions 2, a CensEye job on a certificate 7; tags are free.
    expect(charged).toBe(
      CREDIT_COSTS.v3_dns_ip_ranges.credits +
        2 * CREDIT_COSTS.v3_value_counts.credits +
        CREDIT_COSTS.v3_censeye_job_create.targets.certificate,
    );
    expect(before - (await balance(edge.fetch, auth))).toBe(charged);
  });
});
