import { v1ErrorSchema, v2ErrorSchema } from "@scangate/core";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { ORIGIN_CREDENTIAL, originFacts, seedOrigin } from "../support/origin-data";
import { buildRequest, createTenant, tenantAuth } from "../support/requests";
import { testEdge } from "../support/test-edge";
import { ledgerUsed } from "../support/ledger";

/**
 * The edge in front of a real fault-injecting upstream worker (test/fault-upstream/worker.mjs,
 * reached over a service binding, forwarding to the real origin when healthy). Whatever the
 * upstream does, the edge answers JSON in the route's shape, charges nothing for a failed call,
 * serves a stale document where it has one, and works normally once the upstream recovers.
 */
await seedOrigin();
const facts = await originFacts();
const CERT = facts.certificates[0]!;
const HOST = facts.hosts[0]!;

type Mode = "pass" | "500" | "429" | "slow" | "html" | "truncated" | "drop" | "throw" | "text";

async function setFault(mode: Mode, delayMs = 0): Promise<void> {
  const res = await env.FAULTS.fetch("http://faults/__fault", {
    method: "POST",
    body: JSON.stringify({ mode, delay_ms: delayMs }),
  });
  expect(res.status).toBe(200);
}

async function upstreamCalls(): Promise<number> {
  const res = await env.FAULTS.fetch("http://faults/__fault");
  return (await res.json<{ seen: number }>()).seen;
}

/** An edge whose upstream is the fault worker; short timeout, no hidden background work. */
async function edgeBehindFaults() {
  const edge = testEdge({
    vars: { UPSTREAM_TIMEOUT_MS: "300", CACHE_STALE_WHILE_REVALIDATE_SECONDS: "0" },
    overrides: { transport: (request) => env.FAULTS.fetch(request) },
  });
  const tenant = await createTenant({ allowance: 1000 }, edge.fetch);
  const auth = tenantAuth(tenant);
  const used = async () => ({ used: await ledgerUsed(tenant.id) })?.used;
  return {
    edge,
    used,
    v1Search: () =>
      edge.fetch(buildRequest("POST", "/api/v1/search/ipv4", { body: { query: `ip: ${HOST}` }, auth })),
    v2Search: () =>
      edge.fetch(
        buildRequest("GET", `/api/v2/hosts/search?q=${encodeURIComponent(`ip: ${HOST}`)}`, { auth }),
      ),
    view: () => edge.fetch(buildRequest("GET", `/api/v1/view/certificates/${CERT}`, { auth })),
  };
}

const FAULTS: ReadonlyArray<readonly [string, Mode, number, number]> = [
  // what, mode, status through v1, status through v2
  ["a JSON 500", "500", 500, 500],
  ["a 429 (every credential limited)", "429", 429, 429],
  ["an answer slower than the timeout", "slow", 504, 504],
  ["an HTML error page", "html", 502, 502],
  ["truncated JSON", "truncated", 502, 502],
  ["a connection dropped mid-body", "drop", 502, 502],
  ["a connection dropped before answering", "throw", 502, 502],
  ["a 200 with a plain-text body", "text", 502, 502],
];

beforeEach(() => setFault("pass"));

describe("a real faulty upstream worker", () => {
  for (const [what, mode, v1Status, v2Status] of FAULTS) {
    it(`answers ${what} with JSON in each version's shape, charges nothing, and recovers`, async () => {
      const gate = await edgeBehindFaults();
      await setFault(mode, mode === "slow" ? 2_000 : 0);

      const one = await gate.v1Search();
      expect(one.status).toBe(v1Status);
      expect(one.headers.get("content-type")).toMatch(/^application\/json/);
      const oneBody: unknown = await one.json();
      if (v1Status === 429) expect(oneBody).toMatchObject({ error_code: 429 });
      else expect(v1ErrorSchema.parse(oneBody).error_code).toBe(v1Status);
      expect(JSON.stringify(oneBody)).not.toContain(ORIGIN_CREDENTIAL.api_secret);

      const two = await gate.v2Search();
      expect(two.status).toBe(v2Status);
      expect(two.headers.get("content-type")).toMatch(/^application\/json/);
      const twoBody: unknown = await two.json();
      if (v2Status === 429) expect(twoBody).toMatchObject({ code: 429 });
      else expect(v2ErrorSchema.parse(twoBody).code).toBe(v2Status);

      expect(await upstreamCalls()).toBeGreaterThanOrEqual(2);
      expect(await gate.used()).toBe(0);

      await setFault("pass");
      const healthy = await gate.v1Search();
      expect(healthy.status).toBe(200);
      expect((await healthy.json<{ results: { ip: string }[] }>()).results.map((r) => r.ip)).toEqual([HOST]);
      expect(await gate.used()).toBe(1);
    });
  }

  it("serves a stale cached certificate when the upstream fails, and a fresh one after", async () => {
    const gate = await edgeBehindFaults();
    const first = await gate.view();
    expect(first.status).toBe(200);
    const document = await first.text();

    // Past the certificate TTL (7 days) with no stale-while-revalidate: the next read must ask.
    gate.edge.clock.advance(8 * 24 * 3_600_000);
    for (const mode of ["500", "html", "drop", "slow"] as const) {
      await setFault(mode, 2_000);
      const stale = await gate.view();
      expect(stale.status, mode).toBe(200);
      expect(await stale.text()).toBe(document);
      expect(stale.headers.get("Cache-Status")).toMatch(/stale/i);
      expect(await upstreamCalls()).toBe(1);
    }

    await setFault("pass");
    const fresh = await gate.view();
    expect(fresh.status).toBe(200);
    expect(await fresh.text()).toBe(document);
    expect(await upstreamCalls()).toBe(1);
  });

  it("answers a fault on a document it never cached in the route's shape, without caching the failure", async () => {
    const gate = await edgeBehindFaults();
    await setFault("truncated");
    const res = await gate.edge.fetch(
      buildRequest("GET", `/api/v2/hosts/${facts.hosts[1]!}`, {
        auth: tenantAuth(await createTenant({}, gate.edge.fetch)),
      }),
    );
    expect(res.status).toBe(502);
    expect(v2ErrorSchema.parse(await res.json()).code).toBe(502);

    await setFault("pass");
    const tenant = await createTenant({}, gate.edge.fetch);
    const ok = await gate.edge.fetch(
      buildRequest("GET", `/api/v2/hosts/${facts.hosts[1]!}`, { auth: tenantAuth(tenant) }),
    );
    expect(ok.status).toBe(200);
    expect((await ok.json<{ result: { ip: string } }>()).result.ip).toBe(facts.hosts[1]);
  });
});
