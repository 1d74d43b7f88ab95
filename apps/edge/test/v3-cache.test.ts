import {
  platformTokenWithSecretSchema,
  tenantSchema,
  usageListSchema,
  v3CertificateAssetSchema,
  v3Envelope,
  v3HostAssetSchema,
  v3WebpropertyAssetSchema,
  V3_MEDIA_TYPES,
  v3ProblemSchema,
} from "@scangate/core";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { suiteSecretWatch } from "./reliability/secret-watch";
import { hang, json } from "./support/fake-upstream";
import { ORIGIN_PLATFORM, originFacts, type OriginFacts, seedOrigin } from "./support/origin-data";
import { admin, buildRequest, createTenant, type Fetch } from "./support/requests";
import { type TestEdge, testEdge } from "./support/test-edge";

// The v3 document cache: Platform hosts, certificates and web properties looked up through the
// edge against the real origin's Platform surface, paid for once. Documents stay in D1 for the
// whole file, so each test looks up ids no other test has.

const VARS = { PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]), UPSTREAM_TIMEOUT_MS: "200" };
const HOUR = 3_600_000;
const SEC = 1000;

let facts: OriginFacts;
beforeAll(async () => {
  suiteSecretWatch.addMarkers([ORIGIN_PLATFORM.token]);
  await seedOrigin();
  facts = await originFacts();
});

/** A host of the dataset no other test of this file looks up. */
const host = (n: number) => facts.hosts[n] ?? "";
const certificate = (n: number) => facts.certificates[n] ?? "";

async function setup(allowance = 100, vars: Record<string, string> = {}) {
  const edge = testEdge({ vars: { ...VARS, ...vars } });
  const tenant = await createTenant({ allowance }, edge.fetch);
  const res = await admin(
    "POST",
    `/admin/tenants/${tenant.id}/platform-token`,
    { grace_seconds: 0 },
    edge.fetch,
  );
  const issued = platformTokenWithSecretSchema.parse(await res.json());
  return { edge, id: tenant.id, auth: `Bearer ${issued.token}` };
}

async function used(fetcher: Fetch, id: string): Promise<number> {
  const res = await admin("GET", `/admin/tenants/${id}`, undefined, fetcher);
  return tenantSchema.parse(await res.json()).used;
}

/** The tenant's usage rollups summed by operation. */
async function usageOf(edge: TestEdge, id: string) {
  const res = await admin("GET", `/admin/usage?tenant_id=${id}`, undefined, edge.fetch);
  const { usage } = usageListSchema.parse(await res.json());
  const sums: Record<string, { spent: number; saved: number; hits: number; upstream: number }> = {};
  for (const row of usage) {
    const sum = (sums[row.operation] ??= { spent: 0, saved: 0, hits: 0, upstream: 0 });
    sum.spent += row.quota_spent;
    sum.saved += row.quota_saved;
    sum.hits += row.cache_hits;
    sum.upstream += row.upstream_calls;
  }
  return sums;
}

const get = (path: string, auth: string, headers: Record<string, string> = {}) =>
  buildRequest("GET", path, { auth, headers });
const post = (path: string, auth: string, body: unknown) => buildRequest("POST", path, { auth, body });

/** Upstream calls to exactly `path` (not its sub-paths). */
function callsTo(edge: TestEdge, path: string): Request[] {
  return edge.upstream.requests.filter((r) => new URL(r.url).pathname === path);
}

function slowOrigin(edge: TestEdge, ms = 50) {
  edge.upstream.answer(async (request) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    const origin = env.ORIGIN;
    if (!origin) throw new Error("no ORIGIN binding");
    return origin.fetch(request);
  });
}

/** The address of a single lookup's host. */
const ipOf = (body: unknown) => v3Envelope(v3HostAssetSchema).parse(body).result.resource.ip;

const ips = (body: unknown) =>
  v3Envelope(v3HostAssetSchema.array())
    .parse(body)
    .result.map((asset) => asset.resource.ip);

describe("v3 single lookups", () => {
  it("misses once, then serves the host from the cache for free, byte for byte, counting the credit saved", async () => {
    const { edge, id, auth } = await setup();
    const path = `/v3/global/asset/host/${host(0)}`;
    const sdk = { accept: V3_MEDIA_TYPES.host };
    const miss = await edge.fetch(get(path, auth, sdk));
    expect(miss.status).toBe(200);
    expect(miss.headers.get("content-type")).toBe(V3_MEDIA_TYPES.host);
    expect(miss.headers.get("Cache-Status")).toBe("scangate; fwd=uri-miss; stored");
    const original = await miss.text();
    expect(await used(edge.fetch, id)).toBe(1);

    edge.clock.advance(90 * SEC);
    const hit = await edge.fetch(get(path, auth, sdk));
    expect(hit.status).toBe(200);
    expect(hit.headers.get("content-type")).toBe(V3_MEDIA_TYPES.host);
    expect(hit.headers.get("Cache-Status")).toBe("scangate; hit; ttl=3510");
    expect(hit.headers.get("Age")).toBe("90");
    expect(await hit.text()).toBe(original);
    expect(callsTo(edge, path)).toHaveLength(1);
    expect(await used(edge.fetch, id)).toBe(1);
    expect((await usageOf(edge, id)).v3_host).toEqual({ spent: 1, saved: 1, hits: 1, upstream: 1 });
  });

  it("keeps v3 documents apart from the legacy v2 host view of the same address", async () => {
    const { edge, auth } = await setup();
    const legacy = await createTenant({ allowance: 10 }, edge.fetch);
    const basic = `Basic ${btoa(`${legacy.api_id}:${legacy.api_secret}`)}`;
    expect((await edge.fetch(get(`/api/v2/hosts/${host(1)}`, basic))).status).toBe(200);
    const v3 = await edge.fetch(get(`/v3/global/asset/host/${host(1)}`, auth));
    expect(v3.headers.get("Cache-Status")).toBe("scangate; fwd=uri-miss; stored");
    expect(ipOf(await v3.json())).toBe(host(1));
  });

  it("keys a host at a point in time apart from now; a past instant never expires, however it is spelled", async () => {
    const { edge, auth } = await setup();
    const { ip, atTime } = facts.historic;
    const at = (text: string) => `/v3/global/asset/host/${ip}?at_time=${encodeURIComponent(text)}`;
    // The host now (cached or not: other tests may have looked it up), then at a past instant.
    const now = await edge.fetch(get(`/v3/global/asset/host/${ip}`, auth));
    expect(now.status).toBe(200);
    const then = await edge.fetch(get(at(atTime), auth));
    expect(then.status).toBe(200);
    expect(then.headers.get("Cache-Status")).toBe("scangate; fwd=uri-miss; stored");
    expect(await now.text()).not.toBe(await then.clone().text());
    const asked = callsTo(edge, `/v3/global/asset/host/${ip}`).length;
    edge.clock.advance(30 * 24 * HOUR);
    // The same instant with an explicit offset: one row, no TTL.
    const sameInstant = atTime.replace("Z", "+00:00");
    const again = await edge.fetch(get(at(sameInstant), auth));
    expect(again.headers.get("Cache-Status")).toBe("scangate; hit");
    expect(await again.text()).toBe(await then.text());
    expect(callsTo(edge, `/v3/global/asset/host/${ip}`)).toHaveLength(asked);
  });

  it("treats a fingerprint in any case as one certificate, and caches its PEM form apart", async () => {
    const { edge, id, auth } = await setup();
    const fp = certificate(0);
    const upper = await edge.fetch(get(`/v3/global/asset/certificate/${fp.toUpperCase()}`, auth));
    expect(upper.status).toBe(200);
    expect(upper.headers.get("content-type")).toBe(V3_MEDIA_TYPES.certificate);
    const lower = await edge.fetch(get(`/v3/global/asset/certificate/${fp}`, auth));
    expect(lower.headers.get("Cache-Status")).toMatch(/^scangate; hit; ttl=\d+$/);
    expect(await lower.text()).toBe(await upper.text());

    const pem = await edge.fetch(get(`/v3/global/asset/certificate/${fp}/raw`, auth));
    expect(pem.status).toBe(200);
    expect(pem.headers.get("content-type")).toBe(V3_MEDIA_TYPES.pem);
    expect(pem.headers.get("Cache-Status")).toBe("scangate; fwd=uri-miss; stored");
    const pemText = await pem.text();
    expect(pemText).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const pemHit = await edge.fetch(get(`/v3/global/asset/certificate/${fp.toUpperCase()}/raw`, auth));
    expect(pemHit.headers.get("content-type")).toBe(V3_MEDIA_TYPES.pem);
    expect(pemHit.headers.get("Cache-Status")).toMatch(/^scangate; hit/);
    expect(await pemHit.text()).toBe(pemText);
    expect(edge.upstream.requests).toHaveLength(2);
    expect(await used(edge.fetch, id)).toBe(2);
  });

  it("caches a web property under its lower-case hostname:port", async () => {
    const { edge, auth } = await setup();
    const name = `${facts.httpsWebsites[0] ?? ""}:443`;
    const first = await edge.fetch(get(`/v3/global/asset/webproperty/${name}`, auth));
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe(V3_MEDIA_TYPES.webproperty);
    const second = await edge.fetch(get(`/v3/global/asset/webproperty/${name.toUpperCase()}`, auth));
    expect(second.headers.get("Cache-Status")).toMatch(/^scangate; hit/);
    expect(await second.text()).toBe(await first.text());
    expect(edge.upstream.requests).toHaveLength(1);
  });

  it("keeps the origin's 404 problem as a negative row: answered again from the cache, free", async () => {
    const { edge, id, auth } = await setup();
    const path = "/v3/global/asset/host/203.0.113.77";
    const first = await edge.fetch(get(path, auth));
    expect(first.status).toBe(404);
    expect(first.headers.get("content-type")).toBe("application/problem+json");
    const problem = await first.text();
    expect(v3ProblemSchema.parse(JSON.parse(problem)).status).toBe(404);
    const second = await edge.fetch(get(path, auth));
    expect(second.status).toBe(404);
    expect(second.headers.get("content-type")).toBe("application/problem+json");
    expect(second.headers.get("Cache-Status")).toMatch(/^scangate; hit; ttl=\d+$/);
    expect(await second.text()).toBe(problem);
    expect(callsTo(edge, path)).toHaveLength(1);
    expect(await used(edge.fetch, id)).toBe(0);
    // A 404 costs nothing upstream, so answering it from the cache saves nothing either.
    expect((await usageOf(edge, id)).v3_host?.saved).toBe(0);
  });

  it("forwards what the cache cannot key (a bad id, other parameters) for the upstream's own answer", async () => {
    const { edge, id, auth } = await setup();
    const bad = await edge.fetch(get("/v3/global/asset/host/not-an-ip", auth));
    expect(bad.status).toBe(400);
    expect(bad.headers.has("Cache-Status")).toBe(false);
    const badTime = await edge.fetch(get(`/v3/global/asset/host/${host(2)}?at_time=yesterday`, auth));
    expect(badTime.status).toBe(400);
    expect(badTime.headers.has("Cache-Status")).toBe(false);
    expect(edge.upstream.requests).toHaveLength(2);
    expect(await used(edge.fetch, id)).toBe(0);
  });

  it("ignores the caller's organization id and token: the pool's go upstream, and every organization shares the row", async () => {
    const { edge, auth } = await setup();
    const path = `/v3/global/asset/host/${host(3)}`;
    const mine = await edge.fetch(get(`${path}?organization_id=11111111-1111-4111-8111-111111111111`, auth));
    expect(mine.status).toBe(200);
    const [call] = callsTo(edge, path);
    expect(call?.headers.get("authorization")).toBe(`Bearer ${ORIGIN_PLATFORM.token}`);
    expect(call?.headers.get("x-organization-id")).toBe(ORIGIN_PLATFORM.organization_id);
    expect(new URL(call?.url ?? "").searchParams.get("organization_id")).toBe(
      ORIGIN_PLATFORM.organization_id,
    );
    const theirs = await edge.fetch(
      get(`${path}?organization_id=22222222-2222-4222-8222-222222222222`, auth),
    );
    expect(theirs.headers.get("Cache-Status")).toMatch(/^scangate; hit/);
    expect(callsTo(edge, path)).toHaveLength(1);
  });

  it("coalesces concurrent misses into one upstream call; only the leader pays", async () => {
    const { edge, id, auth } = await setup();
    slowOrigin(edge);
    const path = `/v3/global/asset/host/${host(4)}`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => edge.fetch(get(path, auth))));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    const statuses = answers.map((r) => r.headers.get("Cache-Status"));
    expect(statuses.filter((s) => s === "scangate; fwd=uri-miss; stored")).toHaveLength(1);
    expect(statuses.filter((s) => s?.includes("detail=collapsed"))).toHaveLength(9);
    expect(callsTo(edge, path)).toHaveLength(1);
    expect(await used(edge.fetch, id)).toBe(1);
    expect((await usageOf(edge, id)).v3_host?.saved).toBe(9);
  });

  it("serves a stale host while revalidating it in the background, free", async () => {
    const { edge, id, auth } = await setup();
    const path = `/v3/global/asset/host/${host(5)}`;
    await edge.fetch(get(path, auth));
    edge.clock.advance(HOUR + 10 * SEC);
    const stale = await edge.fetch(get(path, auth));
    expect(stale.status).toBe(200);
    expect(stale.headers.get("Cache-Status")).toBe("scangate; hit; ttl=-10; detail=stale-while-revalidate");
    expect(callsTo(edge, path)).toHaveLength(2);
    const fresh = await edge.fetch(get(path, auth));
    expect(fresh.headers.get("Cache-Status")).toMatch(/^scangate; hit; ttl=3\d{3}$/);
    expect(fresh.headers.get("Age")).toBe("0");
    expect(await used(edge.fetch, id)).toBe(1);
  });

  for (const [fault, script] of [
    ["a 503", () => json(503, { title: "Service Unavailable", status: 503 })],
    ["a timeout", hang],
  ] as const) {
    it(`serves a stale host when the upstream fails with ${fault} (stale-if-error), free`, async () => {
      const { edge, id, auth } = await setup();
      const path = `/v3/global/asset/host/${fault === "a 503" ? host(6) : host(7)}`;
      const original = await (await edge.fetch(get(path, auth))).text();
      edge.clock.advance(3 * HOUR);
      edge.upstream.answer(script);
      const res = await edge.fetch(get(path, auth));
      expect(res.status).toBe(200);
      expect(res.headers.get("Cache-Status")).toMatch(
        /^scangate; fwd=stale; fwd-status=5\d\d; detail=stale-if-error$/,
      );
      expect(res.headers.get("Age")).toBe(String(3 * 3600));
      expect(res.headers.get("content-type")).toBe(V3_MEDIA_TYPES.host);
      expect(await res.text()).toBe(original);
      expect(await used(edge.fetch, id)).toBe(1);
    });
  }

  it("asks the upstream again when the caller sends Cache-Control: no-cache, charged as a miss", async () => {
    const { edge, id, auth } = await setup();
    const path = `/v3/global/asset/certificate/${certificate(3)}`;
    await edge.fetch(get(path, auth));
    const again = await edge.fetch(get(path, auth, { "cache-control": "no-cache" }));
    expect(again.status).toBe(200);
    expect(again.headers.get("Cache-Status")).toBe("scangate; fwd=request; stored");
    expect(callsTo(edge, path)).toHaveLength(2);
    expect(await used(edge.fetch, id)).toBe(2);
  });

  it("answers an upstream failure with no cached copy as problem+json, refunded", async () => {
    const { edge, id, auth } = await setup();
    edge.upstream.answer(hang);
    const res = await edge.fetch(get(`/v3/global/asset/host/${host(8)}`, auth));
    expect(res.status).toBe(504);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await used(edge.fetch, id)).toBe(0);
  });
});

describe("v3 bulk lookups", () => {
  it("asks the upstream only for the ids the cache lacks and answers every found one in the order asked", async () => {
    const { edge, id, auth } = await setup();
    const [a, b, c] = [host(9), host(10), host(11)];
    await edge.fetch(get(`/v3/global/asset/host/${a}`, auth));
    expect(await used(edge.fetch, id)).toBe(1);
    const unknown = "198.51.100.77";
    const res = await edge.fetch(post("/v3/global/asset/host", auth, { host_ids: [b, a, unknown, b, c] }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(V3_MEDIA_TYPES.host);
    expect(res.headers.get("Cache-Status")).toBe("scangate; fwd=partial; stored");
    // As the upstream answers: found hosts in the order first asked, each once, unknown ones left out.
    expect(ips(await res.json())).toEqual([b, a, c]);
    const [call, ...more] = callsTo(edge, "/v3/global/asset/host");
    expect(more).toHaveLength(0);
    expect(await call?.json()).toEqual({ host_ids: [b, unknown, c] });
    // Held 3 for the missing ids, settled to the 2 found; the cached one saved its credit.
    expect(await used(edge.fetch, id)).toBe(3);
    expect((await usageOf(edge, id)).v3_hosts).toMatchObject({ spent: 2, saved: 1 });

    // Asked again, everything (the unknown id as a negative row) comes from the cache.
    const again = await edge.fetch(post("/v3/global/asset/host", auth, { host_ids: [b, a, unknown, b, c] }));
    expect(again.headers.get("Cache-Status")).toBe("scangate; hit");
    expect(ips(await again.json())).toEqual([b, a, c]);
    expect(callsTo(edge, "/v3/global/asset/host")).toHaveLength(1);
    expect(await used(edge.fetch, id)).toBe(3);
    // The unknown id is a negative row for a single lookup too.
    const single = await edge.fetch(get(`/v3/global/asset/host/${unknown}`, auth));
    expect(single.status).toBe(404);
    expect(single.headers.get("Cache-Status")).toMatch(/^scangate; hit/);
    expect(v3ProblemSchema.parse(await single.json()).status).toBe(404);
    // And a host a bulk fetched serves the single lookup.
    const fromBulk = await edge.fetch(get(`/v3/global/asset/host/${c}`, auth));
    expect(fromBulk.headers.get("Cache-Status")).toMatch(/^scangate; hit/);
    expect(ipOf(await fromBulk.json())).toBe(c);
    expect(edge.upstream.requests.filter((r) => r.method === "GET")).toHaveLength(1);
  });

  it("holds credits only for the missing ids: a bulk mostly cached fits a small allowance", async () => {
    const { edge, id, auth } = await setup(2);
    const [a, b, c] = [host(12), host(13), host(14)];
    await edge.fetch(post("/v3/global/asset/host", auth, { host_ids: [a, b] }));
    expect(await used(edge.fetch, id)).toBe(2);
    // Three hosts, two of them cached: the hold is 1, yet the allowance is spent.
    const res = await edge.fetch(post("/v3/global/asset/host", auth, { host_ids: [a, b, c] }));
    expect(res.status).toBe(422);
    expect(v3ProblemSchema.parse(await res.json()).status).toBe(422);
    expect(callsTo(edge, "/v3/global/asset/host")).toHaveLength(1);
    const cachedOnly = await edge.fetch(post("/v3/global/asset/host", auth, { host_ids: [b, a] }));
    expect(cachedOnly.status).toBe(200);
    expect(ips(await cachedOnly.json())).toEqual([b, a]);
    expect(await used(edge.fetch, id)).toBe(2);
  });

  it("keys certificates in any case and a host bulk at a point in time apart from now", async () => {
    const { edge, auth } = await setup();
    const [x, y] = [certificate(1), certificate(2)];
    const first = await edge.fetch(
      post("/v3/global/asset/certificate", auth, { certificate_ids: [x.toUpperCase(), y] }),
    );
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe(V3_MEDIA_TYPES.certificate);
    const second = await edge.fetch(
      post("/v3/global/asset/certificate", auth, { certificate_ids: [y.toUpperCase(), x] }),
    );
    expect(second.headers.get("Cache-Status")).toBe("scangate; hit");
    const fingerprints = v3Envelope(v3CertificateAssetSchema.array())
      .parse(await second.json())
      .result.map((asset) => asset.resource.fingerprint_sha256);
    expect(fingerprints).toEqual([y, x]);
    expect(callsTo(edge, "/v3/global/asset/certificate")).toHaveLength(1);

    // An instant no other test asked for, inside the host's older version.
    const { ip } = facts.historic;
    const atTime = new Date(Date.parse(facts.historic.atTime) + 1000).toISOString();
    const then = await edge.fetch(post("/v3/global/asset/host", auth, { host_ids: [ip], at_time: atTime }));
    expect(then.headers.get("Cache-Status")).toBe("scangate; fwd=uri-miss; stored");
    const thenAgain = await edge.fetch(
      post("/v3/global/asset/host", auth, { host_ids: [ip], at_time: atTime }),
    );
    expect(thenAgain.headers.get("Cache-Status")).toBe("scangate; hit");
    const now = await edge.fetch(post("/v3/global/asset/host", auth, { host_ids: [ip] }));
    expect(await now.text()).not.toBe(await then.text());
    const bodies = await Promise.all(callsTo(edge, "/v3/global/asset/host").map((r) => r.json()));
    expect(bodies.filter((b) => JSON.stringify(b).includes("at_time"))).toEqual([
      { host_ids: [ip], at_time: atTime },
    ]);
  });

  it("caches web properties from a bulk", async () => {
    const { edge, auth } = await setup();
    const name = `${facts.httpsWebsites[1] ?? ""}:443`;
    const first = await edge.fetch(
      post("/v3/global/asset/webproperty", auth, { webproperty_ids: [name, "unknown.invalid:443"] }),
    );
    expect(first.status).toBe(200);
    expect(v3Envelope(v3WebpropertyAssetSchema.array()).parse(await first.json()).result).toHaveLength(1);
    const single = await edge.fetch(get(`/v3/global/asset/webproperty/${name.toUpperCase()}`, auth));
    expect(single.headers.get("Cache-Status")).toMatch(/^scangate; hit/);
    expect(edge.upstream.requests).toHaveLength(1);
  });

  it("coalesces concurrent bulks for the same ids into one upstream call", async () => {
    const { edge, id, auth } = await setup();
    slowOrigin(edge);
    const ids = [host(15), host(16)];
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => edge.fetch(post("/v3/global/asset/host", auth, { host_ids: ids }))),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(5).fill(200));
    for (const answer of answers) expect(ips(await answer.json())).toEqual(ids);
    expect(callsTo(edge, "/v3/global/asset/host")).toHaveLength(1);
    // The leader pays for the two hosts; the others' holds are given back, their hosts saved.
    expect(await used(edge.fetch, id)).toBe(2);
    expect((await usageOf(edge, id)).v3_hosts).toMatchObject({ spent: 2, saved: 8 });
  });

  it("answers cached ids past their TTL when the upstream fails (stale-if-error), free", async () => {
    const { edge, id, auth } = await setup();
    const ids = [host(17), host(18)];
    await edge.fetch(post("/v3/global/asset/host", auth, { host_ids: ids }));
    edge.clock.advance(3 * HOUR);
    edge.upstream.answer(() => json(503, { title: "Service Unavailable", status: 503 }));
    const res = await edge.fetch(post("/v3/global/asset/host", auth, { host_ids: ids }));
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Status")).toBe("scangate; fwd=stale; detail=stale-if-error");
    expect(ips(await res.json())).toEqual(ids);
    expect(await used(edge.fetch, id)).toBe(2);
    // With nothing to fall back on, the upstream's failure is the answer, and refunded.
    const failed = await edge.fetch(post("/v3/global/asset/host", auth, { host_ids: [host(19)] }));
    expect(failed.status).toBe(503);
    expect(await used(edge.fetch, id)).toBe(2);
  });

  it("asks the upstream for every id when the caller sends Cache-Control: no-cache", async () => {
    const { edge, id, auth } = await setup();
    const ids = [certificate(4), certificate(5)];
    await edge.fetch(post("/v3/global/asset/certificate", auth, { certificate_ids: ids }));
    const again = await edge.fetch(
      buildRequest("POST", "/v3/global/asset/certificate", {
        auth,
        body: { certificate_ids: ids },
        headers: { "cache-control": "no-cache" },
      }),
    );
    expect(again.headers.get("Cache-Status")).toBe("scangate; fwd=request; stored");
    const bodies = await Promise.all(callsTo(edge, "/v3/global/asset/certificate").map((r) => r.json()));
    expect(bodies).toEqual([{ certificate_ids: ids }, { certificate_ids: ids }]);
    expect(await used(edge.fetch, id)).toBe(4);
  });

  it("forwards a body the cache cannot read for the upstream's own 400, refunded", async () => {
    const { edge, id, auth } = await setup();
    const res = await edge.fetch(post("/v3/global/asset/host", auth, { host_ids: ["not-an-ip"] }));
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.has("Cache-Status")).toBe(false);
    const empty = await edge.fetch(post("/v3/global/asset/certificate", auth, { certificate_ids: [] }));
    expect(empty.status).toBe(400);
    expect(edge.upstream.requests).toHaveLength(2);
    expect(await used(edge.fetch, id)).toBe(0);
  });
});
