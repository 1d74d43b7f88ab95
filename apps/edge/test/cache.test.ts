import { parseRfc3339Nanos, type TenantWithSecret } from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { systemClock } from "@scangate/core/http";
import { D1DocumentCache } from "../src/cache/d1";
import { MemoryTieredCache } from "../src/cache/memory-tier";
import type { CachedDocument, DocumentCache, DocumentKey } from "../src/cache/interface";
import { edgeDb } from "../src/db/client";
import { delegatingCache } from "./support/delegating-cache";
import { hang, json } from "./support/fake-upstream";
import { askOrigin, originFacts, seedOrigin } from "./support/origin-data";
import { admin, buildRequest, createTenant, tenantAuth } from "./support/requests";
import { type LedgerCalls, spyOnLedgers } from "./support/ledger-spy";
import { type TestEdge, testClock, testEdge } from "./support/test-edge";
import { ledgerUsed } from "./support/ledger";

await seedOrigin();
const facts = await originFacts();
const [CERT_A, CERT_B, CERT_C] = facts.certificates as [string, string, string];
const [IP_1, IP_2, IP_3, IP_4, IP_5, IP_6] = facts.hosts as [string, string, string, string, string, string];
const HISTORIC = facts.historic;
const UNKNOWN = "e".repeat(64);
const HOUR = 3_600_000;

async function usedOf(tenant: TenantWithSecret): Promise<number> {
  return { used: await ledgerUsed(tenant.id) }?.used ?? -1;
}

function view(edge: TestEdge, tenant: TenantWithSecret, path: string, headers: Record<string, string> = {}) {
  return edge.fetch(buildRequest("GET", path, { auth: tenantAuth(tenant), headers }));
}

function bulk(edge: TestEdge, tenant: TenantWithSecret, fingerprints: string[]) {
  return edge.fetch(
    buildRequest("POST", "/api/v1/bulk/certificates", { body: { fingerprints }, auth: tenantAuth(tenant) }),
  );
}

async function setup(vars: Record<string, string> = {}) {
  // Every test gets its own cache rows: the documents table is shared within this file.
  await env.DB.prepare("delete from documents").run();
  const edge = testEdge({ vars });
  const tenant = await createTenant({ allowance: 1000 }, edge.fetch);
  return { edge, tenant };
}

/** The D1 cache, except that one chosen read answers what it read only once a gate opens. */
class HeldReadCache implements DocumentCache {
  private held: { gate: Promise<void>; read: () => void } | null = null;

  constructor(private readonly inner: DocumentCache) {}

  /** Holds the next `get`; resolves once that read has happened. */
  holdNextRead(gate: Promise<void>): Promise<void> {
    return new Promise((read) => (this.held = { gate, read }));
  }

  async get(key: DocumentKey): Promise<CachedDocument | null> {
    const held = this.held;
    this.held = null;
    const doc = await this.inner.get(key);
    if (held) {
      held.read();
      await held.gate;
    }
    return doc;
  }

  peek(key: DocumentKey) {
    return this.inner.peek(key);
  }

  bodyBytes(key: DocumentKey, body: string) {
    return this.inner.bodyBytes(key, body);
  }

  getMany(...args: Parameters<DocumentCache["getMany"]>) {
    return this.inner.getMany(...args);
  }

  put(...args: Parameters<DocumentCache["put"]>) {
    return this.inner.put(...args);
  }

  putSoon(...args: Parameters<DocumentCache["putSoon"]>) {
    return this.inner.putSoon(...args);
  }

  purge(...args: Parameters<DocumentCache["purge"]>) {
    return this.inner.purge(...args);
  }

  cleanup(...args: Parameters<DocumentCache["cleanup"]>) {
    return this.inner.cleanup(...args);
  }
}

/** Delays every upstream answer, so concurrent requests overlap. */
function slowOrigin(edge: TestEdge, ms = 50) {
  edge.upstream.answer(async (request) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    const origin = env.ORIGIN;
    if (!origin) throw new Error("no ORIGIN binding");
    return origin.fetch(request);
  });
}

describe("v1 view cache", () => {
  it("misses once, then serves every tenant from D1 for free, byte for byte", async () => {
    const { edge, tenant } = await setup();
    const first = await view(edge, tenant, `/api/v1/view/ipv4/${IP_1}`);
    expect(first.status).toBe(200);
    expect(first.headers.get("Cache-Status")).toBe("scangate; fwd=uri-miss; stored");
    expect(first.headers.get("Age")).toBe("0");
    const firstBody = await first.text();
    expect(await usedOf(tenant)).toBe(1);

    edge.clock.advance(90_000);
    const other = await createTenant({ allowance: 5 }, edge.fetch);
    const second = await view(edge, other, `/api/v1/view/ipv4/${IP_1}`);
    expect(second.status).toBe(200);
    expect(second.headers.get("Cache-Status")).toBe("scangate; hit; ttl=3510");
    expect(second.headers.get("Age")).toBe("90");
    expect(await second.text()).toBe(firstBody);
    expect(await usedOf(other)).toBe(0);
    expect(edge.upstream.requests).toHaveLength(1);
  });

  it("charges cache hits when CACHE_HITS_CHARGED is set", async () => {
    const { edge, tenant } = await setup({ CACHE_HITS_CHARGED: "true" });
    await view(edge, tenant, `/api/v1/view/websites/${facts.websites[0]}`);
    const hit = await view(edge, tenant, `/api/v1/view/websites/${(facts.websites[0] ?? "").toUpperCase()}`);
    expect(hit.headers.get("Cache-Status")).toMatch(/^scangate; hit/);
    expect(await usedOf(tenant)).toBe(2);
  });

  it("revalidates when the caller sends Cache-Control: no-cache", async () => {
    const { edge, tenant } = await setup();
    await view(edge, tenant, `/api/v1/view/ipv4/${IP_2}`);
    const res = await view(edge, tenant, `/api/v1/view/ipv4/${IP_2}`, { "cache-control": "no-cache" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Status")).toBe("scangate; fwd=request; stored");
    expect(edge.upstream.requests).toHaveLength(2);
    expect(await usedOf(tenant)).toBe(2);
  });

  it("makes one upstream call for concurrent misses of one document", async () => {
    const { edge, tenant } = await setup();
    slowOrigin(edge);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => view(edge, tenant, `/api/v1/view/ipv4/${IP_3}`)),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(edge.upstream.requests).toHaveLength(1);
    const statuses = responses.map((r) => r.headers.get("Cache-Status"));
    expect(statuses.filter((s) => s === "scangate; fwd=uri-miss; stored")).toHaveLength(1);
    expect(statuses.filter((s) => s?.includes("detail=collapsed"))).toHaveLength(9);
    // Only the request that went upstream pays; the others were answered by its call.
    expect(await usedOf(tenant)).toBe(1);
  });

  it("does not ask again for a document stored between a request's cache read and its fetch", async () => {
    await env.DB.prepare("delete from documents").run();
    // Held above the memory tier, as the edge builds it: the row the first request stores is
    // what the late one finds when it rechecks before going upstream.
    const tier = new MemoryTieredCache(new D1DocumentCache(edgeDb(env.DB)), systemClock, {
      holdMs: 60_000,
      maxChars: 1_000_000,
    });
    const cache = new HeldReadCache(tier);
    const edge = testEdge({ overrides: { cache } });
    const tenant = await createTenant({ allowance: 10 }, edge.fetch);
    const path = `/api/v1/view/ipv4/${IP_6}`;
    // The late request reads the empty cache, then waits until the first one has fetched and stored.
    let firstDone = () => {};
    const late = view(edge, tenant, path);
    const read = cache.holdNextRead(new Promise<void>((resolve) => (firstDone = resolve)));
    await read;
    const first = await view(edge, tenant, path);
    firstDone();
    const second = await late;
    expect(first.headers.get("Cache-Status")).toBe("scangate; fwd=uri-miss; stored");
    expect(second.status).toBe(200);
    expect(second.headers.get("Cache-Status")).toMatch(/^scangate; hit; ttl=\d+; detail=collapsed$/);
    expect(await second.text()).toBe(await first.text());
    expect(edge.upstream.requests).toHaveLength(1);
    expect(await usedOf(tenant)).toBe(1);
  });

  it("a request that joins another's upstream call reads no D1 and pays nothing", async () => {
    await env.DB.prepare("delete from documents").run();
    const db = edgeDb(env.DB);
    const d1 = new D1DocumentCache(db);
    const counts = { reads: 0, charges: 0, refunds: 0 };
    const counted = delegatingCache(d1, { peek: () => null, get: (k) => (counts.reads++, d1.get(k)) });
    const clock = testClock();
    const calls: LedgerCalls = [];
    const cache = new MemoryTieredCache(counted, clock, { holdMs: 60_000, maxChars: 1_000_000 });
    const edge = testEdge({ clock, overrides: { cache, ledgers: spyOnLedgers(calls) } });
    const tenant = await createTenant({ allowance: 100 }, edge.fetch);
    slowOrigin(edge);
    const path = `/api/v1/view/ipv4/${IP_5}`;
    const responses = await Promise.all(Array.from({ length: 20 }, () => view(edge, tenant, path)));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(edge.upstream.requests).toHaveLength(1);
    counts.charges = calls.filter((call) => call === "charge").length;
    counts.refunds = calls.filter((call) => call === "refund").length;
    // One D1 read shared by the requests that came before the call, one charge (the leader's),
    // and no refunds: the others joined the call without touching D1 or the ledger.
    expect(counts).toEqual({ reads: 1, charges: 1, refunds: 0 });
    expect(await usedOf(tenant)).toBe(1);
  });

  it("when the request leading a call cannot pay, one that joined it leads the next call", async () => {
    await env.DB.prepare("delete from documents").run();
    const edge = testEdge();
    const broke = await createTenant({ allowance: 1 }, edge.fetch);
    await admin("PATCH", `/admin/tenants/${broke.id}`, { used: 1 }, edge.fetch);
    const paying = await createTenant({ allowance: 5 }, edge.fetch);
    // Both tenants known to the isolate first (their rows and balances read), so the two views
    // take the same steps to the upstream call and the first sent leads it.
    for (const tenant of [broke, paying]) {
      await edge.fetch(buildRequest("GET", "/api/v1/account", { auth: tenantAuth(tenant) }));
    }
    slowOrigin(edge);
    const path = `/api/v1/view/ipv4/${IP_5}`;
    const [refused, answered] = await Promise.all([view(edge, broke, path), view(edge, paying, path)]);
    expect(refused.status).toBe(429);
    expect(await refused.json<{ error_type: string }>()).toMatchObject({ error_type: "quota_exceeded" });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("Cache-Status")).toBe("scangate; fwd=uri-miss; stored");
    expect(edge.upstream.requests).toHaveLength(1);
    expect(await usedOf(broke)).toBe(1);
    expect(await usedOf(paying)).toBe(1);
  });

  it("counts the D1 statements of a miss, a hit and a joined request in X-D1-Statements", async () => {
    await env.DB.prepare("delete from documents").run();
    const { edge, tenant } = await setup({ D1_STATEMENTS_HEADER: "true" });
    slowOrigin(edge);
    const path = `/api/v1/view/ipv4/${IP_5}`;
    const statements = (r: Response) => Number(r.headers.get("X-D1-Statements") ?? Number.NaN);
    // A request asks for its count by sending the header.
    const counted = { "X-D1-Statements": "1" };
    // The tenant's first request reads its row (its quota is its ledger's, not D1's), so the auth
    // cache knows the tenant from here on; the last-seen write is background work, uncounted.
    const account = await edge.fetch(
      buildRequest("GET", "/api/v1/account", { auth: tenantAuth(tenant), headers: counted }),
    );
    expect(statements(account)).toBe(1);
    const [leader, ...joined] = await Promise.all(
      Array.from({ length: 5 }, () => view(edge, tenant, path, counted)),
    );
    if (!leader) throw new Error("no response");
    // The cache read; the charge goes to the tenant's ledger, and the cache write to D1 after the
    // answer (write-behind).
    expect(leader.headers.get("Cache-Status")).toBe("scangate; fwd=uri-miss; stored");
    expect(statements(leader)).toBe(1);
    expect(leader.headers.get("X-Ledger-Calls")).toBe("1");
    expect(joined.map(statements)).toEqual([0, 0, 0, 0]);
    // A hit the memory tier answers, for a tenant the auth cache knows: no statement at all.
    const hit = await view(edge, tenant, path, counted);
    expect(hit.headers.get("Cache-Status")).toMatch(/^scangate; hit/);
    expect(statements(hit)).toBe(0);
    // A request that does not ask is not counted.
    expect((await view(edge, tenant, path)).headers.has("X-D1-Statements")).toBe(false);
    // Without the setting, no header even for one that asks.
    const plain = await setup();
    expect((await view(plain.edge, plain.tenant, path, counted)).headers.has("X-D1-Statements")).toBe(false);
  });

  it("serves a stale document while revalidating it in the background", async () => {
    const { edge, tenant } = await setup();
    await view(edge, tenant, `/api/v1/view/ipv4/${IP_4}`);
    edge.clock.advance(HOUR + 10_000);
    const stale = await view(edge, tenant, `/api/v1/view/ipv4/${IP_4}`);
    expect(stale.status).toBe(200);
    expect(stale.headers.get("Cache-Status")).toBe("scangate; hit; ttl=-10; detail=stale-while-revalidate");
    expect(await usedOf(tenant)).toBe(1);
    expect(edge.upstream.requests).toHaveLength(2);
    const fresh = await view(edge, tenant, `/api/v1/view/ipv4/${IP_4}`);
    expect(fresh.headers.get("Cache-Status")).toMatch(/^scangate; hit; ttl=3\d{3}$/);
    expect(fresh.headers.get("Age")).toBe("0");
  });

  for (const [fault, script] of [
    ["a 500", () => json(500, { error_code: 500, error: "unknown error occurred" })],
    ["a timeout", hang],
    [
      "an HTML page",
      () =>
        new Response("<h1>502 Bad Gateway</h1>", { status: 502, headers: { "content-type": "text/html" } }),
    ],
  ] as const) {
    it(`serves a stale document when the upstream fails with ${fault} (stale-if-error), free`, async () => {
      const { edge, tenant } = await setup({ UPSTREAM_TIMEOUT_MS: "50" });
      const original = await (await view(edge, tenant, `/api/v1/view/ipv4/${IP_5}`)).text();
      edge.clock.advance(3 * HOUR);
      edge.upstream.answer(script);
      const res = await view(edge, tenant, `/api/v1/view/ipv4/${IP_5}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("Cache-Status")).toMatch(
        /^scangate; fwd=stale; fwd-status=5\d\d; detail=stale-if-error$/,
      );
      expect(res.headers.get("Age")).toBe(String(3 * 3600));
      expect(await res.text()).toBe(original);
      expect(await usedOf(tenant)).toBe(1);
    });
  }

  it("gives up the stale copy once stale-if-error has passed", async () => {
    const { edge, tenant } = await setup({ CACHE_STALE_IF_ERROR_SECONDS: "7200" });
    await view(edge, tenant, `/api/v1/view/ipv4/${IP_6}`);
    edge.clock.advance(HOUR + 7200_000);
    edge.upstream.answer(() => json(500, { error_code: 500, error: "unknown error occurred" }));
    const res = await view(edge, tenant, `/api/v1/view/ipv4/${IP_6}`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error_code: 500, error: "unknown error occurred" });
  });

  it("caches an unknown certificate negatively for a short time", async () => {
    const { edge, tenant } = await setup();
    const miss = await view(edge, tenant, `/api/v1/view/certificates/${UNKNOWN}`);
    expect(miss.status).toBe(404);
    const hit = await view(edge, tenant, `/api/v1/view/certificates/${UNKNOWN}`);
    expect(hit.status).toBe(404);
    expect(await hit.json()).toEqual({ error_code: 404, error: "page not found" });
    expect(hit.headers.get("Cache-Status")).toMatch(/^scangate; hit; ttl=\d+$/);
    expect(edge.upstream.requests).toHaveLength(1);
    edge.clock.advance(301_000);
    await view(edge, tenant, `/api/v1/view/certificates/${UNKNOWN}`);
    expect(edge.upstream.requests).toHaveLength(2);
  });
});

describe("v1 bulk cache", () => {
  it("asks the upstream only for missing fingerprints, in one call, keeping order and spelling", async () => {
    const { edge, tenant } = await setup();
    const viewed = await (await view(edge, tenant, `/api/v1/view/certificates/${CERT_A}`)).json();
    const requested = [CERT_C, CERT_A.toUpperCase(), UNKNOWN, CERT_B];
    const res = await bulk(edge, tenant, requested);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Status")).toBe("scangate; fwd=partial; stored");
    const body = await res.json<Record<string, { error_type?: string }>>();
    expect(Object.keys(body)).toEqual(requested);
    expect(body[CERT_A.toUpperCase()]).toEqual(viewed);
    expect(body[UNKNOWN]).toMatchObject({ status: "error", error_type: "unknown" });
    const bulkCalls = edge.upstream.callsTo("/v1/bulk/certificates");
    expect(bulkCalls).toHaveLength(1);
    expect(await bulkCalls[0]?.json()).toEqual({ fingerprints: [CERT_C, UNKNOWN, CERT_B] });
  });

  it("serves a fully cached bulk for free, and a certificate from bulk to a later view", async () => {
    const { edge, tenant } = await setup();
    const first = await (await bulk(edge, tenant, [CERT_A, CERT_B])).json<Record<string, unknown>>();
    const again = await bulk(edge, tenant, [CERT_B, CERT_A]);
    expect(again.headers.get("Cache-Status")).toBe("scangate; hit");
    expect(await again.json()).toEqual({ [CERT_B]: first[CERT_B], [CERT_A]: first[CERT_A] });
    const viewed = await view(edge, tenant, `/api/v1/view/certificates/${CERT_B}`);
    expect(viewed.headers.get("Cache-Status")).toMatch(/^scangate; hit/);
    expect(await viewed.json()).toEqual(first[CERT_B]);
    expect(edge.upstream.requests).toHaveLength(1);
    expect(await usedOf(tenant)).toBe(1);
  });

  it("sends a repeated cached bulk's kept body, and assembles anew once a document's row changed", async () => {
    const { edge, tenant } = await setup();
    await bulk(edge, tenant, [CERT_A, CERT_B]);
    const first = await bulk(edge, tenant, [CERT_A, CERT_B]);
    const again = await bulk(edge, tenant, [CERT_A, CERT_B]);
    expect(again.headers.get("Cache-Status")).toBe("scangate; hit");
    const kept = await first.text();
    expect(await again.text()).toBe(kept);
    expect(edge.services().bulkAnswers.size).toBe(1);
    // Hits, kept body or not, are free: only the first request's upstream call was charged.
    expect(await usedOf(tenant)).toBe(1);

    // Another version of B in D1, found once the memory tier no longer holds the old one.
    const marked = { ...(JSON.parse(kept) as Record<string, object>)[CERT_B], marked: true };
    await env.DB.prepare("update documents set body = ? where id = ?")
      .bind(JSON.stringify(marked), CERT_B)
      .run();
    edge.clock.advance(6_000);
    const changed = await bulk(edge, tenant, [CERT_A, CERT_B]);
    expect(changed.headers.get("Cache-Status")).toBe("scangate; hit");
    const body = await changed.json<Record<string, unknown>>();
    expect(body[CERT_B]).toEqual(marked);
    expect(body[CERT_A]).toEqual((JSON.parse(kept) as Record<string, unknown>)[CERT_A]);
    expect(edge.upstream.requests).toHaveLength(1);
  });

  it("keeps unknown certificates negatively cached until the short TTL ends", async () => {
    const { edge, tenant } = await setup();
    await bulk(edge, tenant, [UNKNOWN]);
    const hit = await bulk(edge, tenant, [UNKNOWN]);
    expect(hit.headers.get("Cache-Status")).toBe("scangate; hit");
    expect(edge.upstream.requests).toHaveLength(1);
    edge.clock.advance(301_000);
    await bulk(edge, tenant, [UNKNOWN]);
    expect(edge.upstream.requests).toHaveLength(2);
  });

  it("makes one upstream call for concurrent bulk misses of the same certificates", async () => {
    const { edge, tenant } = await setup();
    // Long enough that all five start while the first call is under way, even on a loaded machine
    // (at 50 ms a CI run once saw a fifth request start after it ended).
    slowOrigin(edge, 250);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => bulk(edge, tenant, [CERT_A, CERT_C])),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(5).fill(200));
    expect(edge.upstream.requests).toHaveLength(1);
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(await usedOf(tenant)).toBe(1);
  });

  it("fills a failed upstream call from stale rows, or passes the failure on when it cannot", async () => {
    const { edge, tenant } = await setup();
    await bulk(edge, tenant, [CERT_A]);
    edge.clock.advance(8 * 24 * HOUR);
    edge.upstream.answer(() => json(500, { error_code: 500, error: "unknown error occurred" }));
    const stale = await bulk(edge, tenant, [CERT_A]);
    expect(stale.status).toBe(200);
    expect(stale.headers.get("Cache-Status")).toBe("scangate; fwd=stale; detail=stale-if-error");
    const failed = await bulk(edge, tenant, [CERT_A, CERT_B]);
    expect(failed.status).toBe(500);
    expect(await usedOf(tenant)).toBe(1);
  });

  it("forwards a malformed bulk body uncached for the upstream's own answer", async () => {
    const { edge, tenant } = await setup();
    // Longer than a requested string may be (one that is merely not a fingerprint is answered
    // unknown by the edge itself: bulk-malformed-fingerprints.test.ts).
    const res = await bulk(edge, tenant, ["a".repeat(257)]);
    expect(res.status).toBe(400);
    expect(res.headers.get("Cache-Status")).toBeNull();
    expect(edge.upstream.callsTo("/v1/bulk/certificates")).toHaveLength(1);
    const rows = await env.DB.prepare("select count(*) as n from documents").first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});

describe("v2 host view cache", () => {
  it("never expires a host at a past point in time, and equal instants share one row", async () => {
    const { edge, tenant } = await setup();
    const at = new Date(HISTORIC.atTime);
    const first = await view(
      edge,
      tenant,
      `/api/v2/hosts/${HISTORIC.ip}?at_time=${encodeURIComponent(at.toISOString())}`,
    );
    expect(first.status).toBe(200);
    const body = await first.text();
    edge.clock.advance(10 * 365 * 24 * HOUR);
    const iso = at.toISOString();
    const twoHoursAhead = new Date(at.getTime() + 2 * HOUR).toISOString().replace(/\.(\d{3})Z$/, ".$1+02:00");
    for (const spelling of [iso.replace(/Z$/, "000000Z"), twoHoursAhead]) {
      const res = await view(
        edge,
        tenant,
        `/api/v2/hosts/${HISTORIC.ip}?at_time=${encodeURIComponent(spelling)}`,
      );
      expect(res.headers.get("Cache-Status")).toBe("scangate; hit");
      expect(await res.text()).toBe(body);
    }
    expect(edge.upstream.requests).toHaveLength(1);
    const row = await new D1DocumentCache(edgeDb(env.DB)).get({
      index: "hosts",
      id: HISTORIC.ip.toLowerCase(),
      atTime: parseRfc3339Nanos(iso)?.nanos ?? "",
    });
    expect(row).toMatchObject({ expiresAt: null });
  });

  it("keeps the current host for the hosts TTL, apart from its points in time", async () => {
    const { edge, tenant } = await setup();
    const current = await (await view(edge, tenant, `/api/v2/hosts/${HISTORIC.ip}`)).text();
    const past = await (
      await view(edge, tenant, `/api/v2/hosts/${HISTORIC.ip}?at_time=${encodeURIComponent(HISTORIC.atTime)}`)
    ).text();
    expect(past).not.toBe(current);
    const hit = await view(edge, tenant, `/api/v2/hosts/${HISTORIC.ip}`);
    expect(await hit.clone().text()).toBe(current);
    expect(hit.headers.get("Cache-Status")).toMatch(/^scangate; hit; ttl=\d+$/);
    expect(edge.upstream.requests).toHaveLength(2);
  });

  it("does not cache a host the upstream does not know", async () => {
    const { edge, tenant } = await setup();
    const res = await view(edge, tenant, "/api/v2/hosts/10.255.254.253");
    expect(res.status).toBe(404);
    expect(res.headers.get("Cache-Status")).toBe("scangate; fwd=uri-miss");
    await view(edge, tenant, "/api/v2/hosts/10.255.254.253");
    expect(edge.upstream.requests).toHaveLength(2);
    expect(await usedOf(tenant)).toBe(0);
  });
});

/** The names path of the first seeded host with at least two names, asked of the origin. */
async function pagedNames(): Promise<string> {
  for (const ip of [facts.presented.ip, ...facts.hosts]) {
    const response = await askOrigin("GET", `/api/v2/hosts/${ip}/names`);
    const { result } = await response.json<{ result?: { names?: string[] } }>();
    if ((result?.names?.length ?? 0) >= 2) return `/api/v2/hosts/${ip}/names`;
  }
  throw new Error("no seeded host has two names");
}

describe("v2 paged lists cache (host names, hosts by certificate)", () => {
  const NAMES = `/api/v2/hosts/${facts.presented.ip}/names`;
  const CERT_HOSTS = `/api/v2/certificates/${facts.presented.certificate}/hosts`;

  it.each([
    ["host names", NAMES, "?per_page=100", "host_names", facts.presented.ip],
    ["hosts by certificate", CERT_HOSTS, "?per_page=100", "certificate_hosts", facts.presented.certificate],
  ])(
    "serves %s from the cache on the second call, with the default page size spelled either way",
    async (_, path, spelledOut, index, id) => {
      const { edge, tenant } = await setup();
      const first = await view(edge, tenant, path);
      expect(first.status).toBe(200);
      expect(first.headers.get("Cache-Status")).toMatch(/fwd=uri-miss; stored/);
      const body = await first.text();
      for (const again of [path, `${path}${spelledOut}`, path.replace(id, id.toUpperCase())]) {
        const hit = await view(edge, tenant, again);
        expect(hit.headers.get("Cache-Status")).toMatch(/^scangate; hit; ttl=\d+$/);
        expect(await hit.text()).toBe(body);
      }
      expect(edge.upstream.requests).toHaveLength(1);
      expect(await usedOf(tenant)).toBe(1);
      const row = await new D1DocumentCache(edgeDb(env.DB)).get({
        index: index as "host_names",
        id,
        atTime: "per_page=100",
      });
      expect(row?.body).toBe(body);
      expect(row?.expiresAt).toBe(row!.fetchedAt + HOUR);
    },
  );

  it("keeps each page (per_page, cursor) in a row of its own", async () => {
    const { edge, tenant } = await setup();
    // A host with at least two names (which hosts have several follows the generated dataset).
    const NAMES = await pagedNames();
    const small = await view(edge, tenant, `${NAMES}?per_page=1`);
    const { result } = await small.json<{ result: { names: string[]; links: { next: string } } }>();
    expect(result.names).toHaveLength(1);
    const whole = await (await view(edge, tenant, NAMES)).json<{ result: { names: string[] } }>();
    expect(whole.result.names[0]).toBe(result.names[0]);
    expect(result.links.next).not.toBe("");
    const next = await view(
      edge,
      tenant,
      `${NAMES}?per_page=1&cursor=${encodeURIComponent(result.links.next)}`,
    );
    expect((await next.json<{ result: { names: string[] } }>()).result.names).toEqual([
      whole.result.names[1],
    ]);
    const again = await view(
      edge,
      tenant,
      `${NAMES}?cursor=${encodeURIComponent(result.links.next)}&per_page=1`,
    );
    expect(again.headers.get("Cache-Status")).toMatch(/^scangate; hit/);
    expect(edge.upstream.requests).toHaveLength(3);
  });

  it.each([
    ["an unknown host", "/api/v2/hosts/10.255.254.253/names", 404],
    ["an unknown certificate", `/api/v2/certificates/${UNKNOWN}/hosts`, 404],
  ])("passes %s through as the upstream's %s, uncached and free", async (_, path, status) => {
    const { edge, tenant } = await setup();
    for (let i = 0; i < 2; i++) {
      const res = await view(edge, tenant, path);
      expect(res.status).toBe(status);
      expect((await res.json<{ code: number }>()).code).toBe(status);
    }
    expect(edge.upstream.requests).toHaveLength(2);
    expect(await usedOf(tenant)).toBe(0);
  });

  it.each([
    ["a malformed IP", "/api/v2/hosts/not-an-ip/names", 422, null],
    ["a per_page out of range", `${NAMES}?per_page=0`, 400, null],
    ["an unknown parameter", `${NAMES}?per_page=5&color=red`, 200, null],
    ["a repeated parameter", `${NAMES}?per_page=5&per_page=6`, 200, null],
    ["a malformed fingerprint", "/api/v2/certificates/abc/hosts", 422, null],
    // A cursor is opaque to the edge: it keys a page, and the upstream's refusal is not stored.
    ["a bad cursor", `${CERT_HOSTS}?cursor=junk`, 400, "scangate; fwd=uri-miss"],
  ])("answers %s with the upstream's %s and stores nothing", async (_, path, status, cacheStatus) => {
    const { edge, tenant } = await setup();
    const res = await view(edge, tenant, path);
    expect(res.status).toBe(status);
    expect(res.headers.get("Cache-Status")).toBe(cacheStatus);
    expect(edge.upstream.requests).toHaveLength(1);
    const rows = await env.DB.prepare("select count(*) as n from documents").first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it("serves a stale page when the upstream fails (stale-if-error)", async () => {
    const { edge, tenant } = await setup();
    const body = await (await view(edge, tenant, CERT_HOSTS)).text();
    edge.clock.advance(3 * HOUR);
    edge.upstream.answer(() => json(503, { code: 503, status: "Service Unavailable", error: "down" }));
    const res = await view(edge, tenant, CERT_HOSTS);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Status")).toMatch(/stale-if-error/);
    expect(await res.text()).toBe(body);
  });
});

describe("v2 host diff and events are not cached", () => {
  it.each([`/api/v2/hosts/${IP_1}/diff?ip_b=${IP_2}`, `/api/v2/experimental/hosts/${IP_1}/events`])(
    "%s goes upstream every time and is charged every time",
    async (path) => {
      const { edge, tenant } = await setup();
      for (let i = 0; i < 2; i++) {
        const res = await view(edge, tenant, path);
        expect(res.status).toBe(200);
        expect(res.headers.get("Cache-Status")).toBeNull();
      }
      expect(edge.upstream.requests).toHaveLength(2);
      expect(await usedOf(tenant)).toBe(2);
    },
  );
});
