import { describe, expect, it } from "vitest";
import { askOrigin, ORIGIN_CREDENTIAL, originFacts, seedOrigin } from "./support/origin-data";
import { buildRequest, createTenant, EDGE, tenantAuth, workerFetch } from "./support/requests";
import { testEdge } from "./support/test-edge";
import { ledgerUsed } from "./support/ledger";

await seedOrigin();
const facts = await originFacts();
const [HOST_A, HOST_B, HOST_C] = facts.hosts as [string, string, string];
const [CERT_A, CERT_B] = facts.certificates as [string, string];

const UPSTREAM_BASIC = btoa(`${ORIGIN_CREDENTIAL.api_id}:${ORIGIN_CREDENTIAL.api_secret}`);

/** Timing fields differ from call to call; everything else must be identical. */
function comparable(text: string): unknown {
  return JSON.parse(
    text.replaceAll("http://scangate-origin.internal/api", `${EDGE}/api`),
    (key, value: unknown) => (key === "backend_time" ? "<time>" : value),
  );
}

function expectNoUpstreamSecret(res: Response, text: string): void {
  for (const [name, value] of res.headers) {
    expect(`${name}: ${value}`).not.toContain(ORIGIN_CREDENTIAL.api_secret);
    expect(value).not.toContain(UPSTREAM_BASIC);
  }
  expect(text).not.toContain(ORIGIN_CREDENTIAL.api_secret);
  expect(text).not.toContain(UPSTREAM_BASIC);
}

/** One request per forwarded spec route (the edge's own routes have their own test files). */
const CASES: Array<{ name: string; method: "GET" | "POST"; path: string; body?: unknown }> = [
  {
    name: "v1 search",
    method: "POST",
    path: "/api/v1/search/ipv4",
    body: { query: "location.country_code: US", fields: ["ip"] },
  },
  {
    name: "v1 search, bad query",
    method: "POST",
    path: "/api/v1/search/ipv4",
    body: { query: "location.country_code: [1 TO" },
  },
  { name: "v1 search, unknown index", method: "POST", path: "/api/v1/search/planets", body: { query: "*" } },
  {
    name: "v1 report",
    method: "POST",
    path: "/api/v1/report/ipv4",
    body: { query: "*", field: "location.country_code" },
  },
  { name: "v1 view ipv4", method: "GET", path: `/api/v1/view/ipv4/${HOST_A}` },
  { name: "v1 view websites", method: "GET", path: `/api/v1/view/websites/${facts.websites[0]}` },
  { name: "v1 view certificates", method: "GET", path: `/api/v1/view/certificates/${CERT_A}` },
  { name: "v1 view, unknown index", method: "GET", path: "/api/v1/view/planets/mars" },
  {
    name: "v1 bulk",
    method: "POST",
    path: "/api/v1/bulk/certificates",
    body: { fingerprints: [CERT_A, CERT_B, "f".repeat(64)] },
  },
  {
    name: "v1 bulk, wrong index",
    method: "POST",
    path: "/api/v1/bulk/ipv4",
    body: { fingerprints: [CERT_A] },
  },
  { name: "v1 query definitions", method: "GET", path: "/api/v1/query_definitions" },
  { name: "v1 query definitions of a series", method: "GET", path: "/api/v1/query_definitions/ipv4" },
  { name: "v1 query definitions, unknown series", method: "GET", path: "/api/v1/query_definitions/nope" },
  { name: "v1 raw data series", method: "GET", path: "/api/v1/data" },
  { name: "v1 raw data, unknown series", method: "GET", path: "/api/v1/data/nope" },
  {
    name: "v2 hosts aggregate",
    method: "GET",
    path: "/api/v2/hosts/aggregate?field=services.port&num_buckets=3",
  },
  { name: "v2 hosts aggregate, no field", method: "GET", path: "/api/v2/hosts/aggregate" },
  {
    name: "v2 hosts search",
    method: "GET",
    path: "/api/v2/hosts/search?q=services.service_name%3A+HTTP&per_page=2",
  },
  {
    name: "v2 hosts search, bad query",
    method: "GET",
    path: "/api/v2/hosts/search?q=services.port%3A+%5B22+TO",
  },
  { name: "v2 host view", method: "GET", path: `/api/v2/hosts/${HOST_B}` },
  {
    name: "v2 host view at a time",
    method: "GET",
    path: `/api/v2/hosts/${facts.historic.ip}?at_time=${encodeURIComponent(facts.historic.atTime)}`,
  },
  { name: "v2 host view, unknown host", method: "GET", path: "/api/v2/hosts/10.9.8.7" },
  { name: "v2 host view, not an ip", method: "GET", path: "/api/v2/hosts/not-an-ip" },
  { name: "v2 host view, bad time", method: "GET", path: `/api/v2/hosts/${HOST_B}?at_time=yesterday` },
  { name: "v2 hosts metadata", method: "GET", path: "/api/v2/metadata/hosts" },
  { name: "v2 host names", method: "GET", path: `/api/v2/hosts/${facts.presented.ip}/names?per_page=2` },
  { name: "v2 host names, not an ip", method: "GET", path: "/api/v2/hosts/not-an-ip/names" },
  { name: "v2 host names, bad per_page", method: "GET", path: `/api/v2/hosts/${HOST_B}/names?per_page=0` },
  { name: "v2 host names, unknown host", method: "GET", path: "/api/v2/hosts/10.9.8.7/names" },
  {
    name: "v2 host diff between two times",
    method: "GET",
    path: `/api/v2/hosts/${facts.historic.ip}/diff?at_time=${encodeURIComponent(facts.historic.atTime)}`,
  },
  {
    name: "v2 host diff between two hosts",
    method: "GET",
    path: `/api/v2/hosts/${HOST_A}/diff?ip_b=${HOST_B}`,
  },
  { name: "v2 host diff, bad ip_b", method: "GET", path: `/api/v2/hosts/${HOST_A}/diff?ip_b=1.2.3` },
  { name: "v2 host diff, unknown host", method: "GET", path: `/api/v2/hosts/${HOST_A}/diff?ip_b=10.9.8.7` },
  {
    name: "v2 host events",
    method: "GET",
    path: `/api/v2/experimental/hosts/${facts.historic.ip}/events?per_page=3&reversed=True`,
  },
  {
    name: "v2 host events, bad start_time",
    method: "GET",
    path: `/api/v2/experimental/hosts/${HOST_A}/events?start_time=yesterday`,
  },
  {
    name: "v2 host events, bad cursor",
    method: "GET",
    path: `/api/v2/experimental/hosts/${HOST_A}/events?cursor=x`,
  },
  {
    name: "v2 hosts by certificate",
    method: "GET",
    path: `/api/v2/certificates/${facts.presented.certificate}/hosts`,
  },
  {
    name: "v2 hosts by certificate, unknown",
    method: "GET",
    path: `/api/v2/certificates/${"e".repeat(64)}/hosts`,
  },
  { name: "v2 hosts by certificate, malformed", method: "GET", path: "/api/v2/certificates/xyz/hosts" },
];

describe("every forwarded route answers what the origin answers", async () => {
  const edge = testEdge();
  const tenant = await createTenant({ allowance: 10_000 }, edge.fetch);
  for (const route of CASES) {
    it(`${route.name}: same status and body, sent with the pool credential`, async () => {
      const direct = await askOrigin(route.method, route.path, route.body);
      const directText = await direct.text();
      const sentBefore = edge.upstream.requests.length;
      const res = await edge.fetch(
        buildRequest(route.method, route.path, {
          body: route.body,
          auth: tenantAuth(tenant),
          headers: { "cache-control": "no-cache" },
        }),
      );
      const text = await res.text();
      expect(res.status).toBe(direct.status);
      expect(comparable(text)).toEqual(comparable(directText));
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expectNoUpstreamSecret(res, text);
      const sent = edge.upstream.requests.slice(sentBefore);
      expect(sent.length).toBeGreaterThan(0);
      for (const request of sent) {
        expect(request.headers.get("authorization")).toBe(`Basic ${UPSTREAM_BASIC}`);
        expect(request.headers.get("authorization")).not.toBe(tenantAuth(tenant));
      }
    });
  }
});

describe("through the worker entry and the ORIGIN service binding", () => {
  it("serves a v1 view and a v2 host from the origin with quota headers", async () => {
    const tenant = await createTenant({ allowance: 10 });
    const view = await workerFetch(
      buildRequest("GET", `/api/v1/view/ipv4/${HOST_C}`, { auth: tenantAuth(tenant) }),
    );
    expect(view.status).toBe(200);
    expect(await view.json()).toMatchObject({ ip: HOST_C });
    expect(view.headers.get("RateLimit-Policy")).toMatch(/^"quota";q=10;w=\d+$/);
    expect(view.headers.get("RateLimit")).toMatch(/^"quota";r=9;t=\d+$/);
    const host = await workerFetch(
      buildRequest("GET", `/api/v2/hosts/${HOST_C}`, { auth: tenantAuth(tenant) }),
    );
    expect(host.status).toBe(200);
    expect(await host.json()).toMatchObject({ code: 200, status: "OK", result: { ip: HOST_C } });
  });

  it("folds a doubled slash from a base URL with a trailing slash", async () => {
    const tenant = await createTenant();
    const res = await workerFetch(
      buildRequest("GET", `/api//v2/hosts/${HOST_C}`, { auth: tenantAuth(tenant) }),
    );
    expect(res.status).toBe(200);
  });
});

describe("raw-data links point at the edge", () => {
  it("rewrites details_url and download_path to edge URLs the tenant can follow", async () => {
    const edge = testEdge();
    const tenant = await createTenant({}, edge.fetch);
    const list = await edge.fetch(buildRequest("GET", "/api/v1/data", { auth: tenantAuth(tenant) }));
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).not.toContain("scangate-origin.internal");
    const series = Object.values(
      (JSON.parse(text) as { raw_series: Record<string, { latest_result: { details_url: string } }> })
        .raw_series,
    )[0];
    expect(series?.latest_result.details_url.startsWith(`${EDGE}/api/v1/data/`)).toBe(true);
    const details = await edge.fetch(
      buildRequest("GET", new URL(series?.latest_result.details_url ?? "").pathname, {
        auth: tenantAuth(tenant),
      }),
    );
    expect(details.status).toBe(200);
    const files = (await details.json<{ files: Record<string, { download_path: string; size: number }> }>())
      .files;
    const file = Object.values(files)[0];
    expect(file?.download_path.startsWith(`${EDGE}/api/v1/data/`)).toBe(true);
    const download = await edge.fetch(
      buildRequest("GET", new URL(file?.download_path ?? "").pathname, { auth: tenantAuth(tenant) }),
    );
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBe(file?.size);
  });

  it("passes a missing raw-data file through as the upstream's 404", async () => {
    const edge = testEdge();
    const tenant = await createTenant({}, edge.fetch);
    const res = await edge.fetch(
      buildRequest("GET", "/api/v1/data/nope/20240101T0000/files/x", { auth: tenantAuth(tenant) }),
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error_code: 404, error: "page not found" });
  });
});

describe("requests the edge refuses itself", () => {
  it("answers an unknown API path with 404 in the version's shape, without asking the upstream", async () => {
    const edge = testEdge();
    const tenant = await createTenant({}, edge.fetch);
    const v1 = await edge.fetch(buildRequest("GET", "/api/v1/nothing", { auth: tenantAuth(tenant) }));
    expect(v1.status).toBe(404);
    expect(await v1.json()).toEqual({ error_code: 404, error: "page not found" });
    const v2 = await edge.fetch(buildRequest("GET", "/api/v2/certificates/x", { auth: tenantAuth(tenant) }));
    expect(v2.status).toBe(404);
    expect(await v2.json()).toMatchObject({ code: 404, status: "Not Found" });
    expect(edge.upstream.requests).toHaveLength(0);
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const tenant = await createTenant();
    const res = await workerFetch(buildRequest("GET", "/api/v1/search/ipv4", { auth: tenantAuth(tenant) }));
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST");
    expect(await res.json()).toEqual({ error_code: 405, error: "method not allowed" });
  });

  it("refuses a body over 1 MiB with 413 and charges nothing", async () => {
    const edge = testEdge();
    const tenant = await createTenant({ allowance: 5 }, edge.fetch);
    const res = await edge.fetch(
      buildRequest("POST", "/api/v1/search/ipv4", {
        body: { query: "x".repeat(1024 * 1024 + 1) },
        auth: tenantAuth(tenant),
      }),
    );
    expect(res.status).toBe(413);
    expect(await res.json<{ error_code: number }>()).toMatchObject({ error_code: 413 });
    const used = { used: await ledgerUsed(tenant.id) };
    expect(used?.used).toBe(0);
    expect(edge.upstream.requests).toHaveLength(0);
  });
});
