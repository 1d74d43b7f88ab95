import { v1ErrorSchema, v2ErrorSchema } from "@scangate/core";
import { describe, expect, it } from "vitest";
import { hang, json, type Script } from "./support/fake-upstream";
import { buildRequest, createTenant, tenantAuth } from "./support/requests";
import { type TestEdge, testEdge } from "./support/test-edge";
import { ledgerUsed } from "./support/ledger";

const POOL = [
  { api_id: "upstream-a", api_secret: "secret-a-0123456789" },
  { api_id: "upstream-b", api_secret: "secret-b-0123456789" },
];
const SEARCH_OK = {
  status: "ok",
  metadata: { count: 0, query: "*", backend_time: 1, page: 1, pages: 0 },
  results: [],
};

async function faultyEdge(script: Script, vars: Record<string, string> = {}) {
  const edge = testEdge({
    vars: { UPSTREAM_CREDENTIALS: JSON.stringify(POOL), UPSTREAM_TIMEOUT_MS: "50", ...vars },
  });
  const tenant = await createTenant({ allowance: 100 }, edge.fetch);
  edge.upstream.answer(script);
  const v1 = () =>
    edge.fetch(
      buildRequest("POST", "/api/v1/search/ipv4", { body: { query: "*" }, auth: tenantAuth(tenant) }),
    );
  const v2 = () => edge.fetch(buildRequest("GET", "/api/v2/hosts/search?q=x", { auth: tenantAuth(tenant) }));
  return { edge, tenant, v1, v2 };
}

async function expectClean(res: Response): Promise<string> {
  const text = await res.clone().text();
  for (const { api_secret } of POOL) {
    expect(text).not.toContain(api_secret);
    for (const [, value] of res.headers) expect(value).not.toContain(api_secret);
  }
  return text;
}

const usedBy = (edge: TestEdge) =>
  edge.upstream.requests.map((r) => atob((r.headers.get("authorization") ?? "").slice(6)).split(":")[0]);

describe("upstream faults", () => {
  it("passes a JSON 500 through with its status and bytes", async () => {
    const body = '{"error_code": 500, "error": "unknown error occurred"}';
    const { v1 } = await faultyEdge(
      () => new Response(body, { status: 500, headers: { "content-type": "application/json" } }),
    );
    const res = await v1();
    expect(res.status).toBe(500);
    expect(await expectClean(res)).toBe(body);
  });

  for (const [what, script] of [
    [
      "an HTML page",
      () =>
        new Response("<html><body>Bad gateway</body></html>", {
          status: 502,
          headers: { "content-type": "text/html" },
        }),
    ],
    [
      "truncated JSON",
      () =>
        new Response('{"status": "ok", "metadata": {"cou', {
          status: 200,
          headers: { "content-type": "application/json" },
        }),
    ],
    ["an empty body", () => new Response(null, { status: 200 })],
    ["a network failure", () => Promise.reject(new Error("connection reset"))],
  ] as const) {
    it(`turns ${what} into a 502 JSON error in the route version's shape`, async () => {
      const { v1, v2 } = await faultyEdge(script);
      const one = await v1();
      expect(one.status).toBe(502);
      expect(v1ErrorSchema.parse(JSON.parse(await expectClean(one)))).toMatchObject({ error_code: 502 });
      const two = await v2();
      expect(two.status).toBe(502);
      expect(v2ErrorSchema.parse(JSON.parse(await expectClean(two)))).toMatchObject({
        code: 502,
        status: "Bad Gateway",
      });
    });
  }

  it("turns an upstream slower than UPSTREAM_TIMEOUT_MS into a 504, and refunds", async () => {
    const { v1, v2, tenant } = await faultyEdge(hang);
    const one = await v1();
    expect(one.status).toBe(504);
    expect(await one.json()).toEqual({ error_code: 504, error: "upstream service timed out; retry later" });
    const two = await v2();
    expect(two.status).toBe(504);
    expect(await two.json()).toMatchObject({ code: 504, status: "Gateway Timeout" });
    const used = { used: await ledgerUsed(tenant.id) };
    expect(used?.used).toBe(0);
  });

  it("withholds an upstream answer that echoes an upstream credential", async () => {
    const { v1 } = await faultyEdge((request) => json(200, { debug: request.headers.get("authorization") }));
    // The first answer works out the pool's markers, the second uses them as kept.
    for (let i = 0; i < 2; i++) {
      const res = await v1();
      expect(res.status).toBe(502);
      await expectClean(res);
    }
  });
});

describe("the upstream credential pool", () => {
  it("rests a credential the upstream refuses with 401 and carries on with the next", async () => {
    const { edge, v1 } = await faultyEdge((request) =>
      atob((request.headers.get("authorization") ?? "").slice(6)).startsWith("upstream-a:")
        ? json(401, { error: "bad credentials" })
        : json(200, SEARCH_OK),
    );
    for (let i = 0; i < 4; i++) expect((await v1()).status).toBe(200);
    // a was tried once, then rested: every later request went straight to b.
    expect(usedBy(edge).filter((id) => id === "upstream-a")).toHaveLength(1);
    expect(usedBy(edge).filter((id) => id === "upstream-b")).toHaveLength(4);
  });

  it("rests a credential answered with 429 for its Retry-After, then uses it again", async () => {
    let limited = true;
    const { edge, v1 } = await faultyEdge((request) =>
      limited && atob((request.headers.get("authorization") ?? "").slice(6)).startsWith("upstream-a:")
        ? json(429, { error_code: 429, error: "rate limit exceeded" }, { "retry-after": "30" })
        : json(200, SEARCH_OK),
    );
    expect((await v1()).status).toBe(200);
    expect((await v1()).status).toBe(200);
    limited = false;
    edge.clock.advance(30_000);
    await v1();
    await v1();
    // Turns alternate a, b, a, b: a refused (b answers), a resting (b), then a rested enough (a), b.
    expect(usedBy(edge)).toEqual(["upstream-a", "upstream-b", "upstream-b", "upstream-a", "upstream-b"]);
  });

  it("answers 502 when the upstream refuses every credential, without naming any", async () => {
    const { v1, v2 } = await faultyEdge(() => json(401, { error: "bad credentials" }));
    const one = await v1();
    expect(one.status).toBe(502);
    expect(await expectClean(one)).toMatch(/refused the gateway's credentials/);
    expect((await v2()).status).toBe(502);
  });

  it("passes the upstream's own 429 on, with Retry-After, when every credential is limited", async () => {
    const { v1, tenant } = await faultyEdge(() =>
      json(429, { error_code: 429, error: "rate limit exceeded" }, { "retry-after": "7" }),
    );
    const res = await v1();
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("7");
    expect(await res.json()).toEqual({ error_code: 429, error: "rate limit exceeded" });
    const used = { used: await ledgerUsed(tenant.id) };
    expect(used?.used).toBe(0);
  });
});
