import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN_CREDENTIAL, originFacts, seedOrigin } from "./support/origin-data";
import { buildRequest, createTenant, EDGE, tenantAuth } from "./support/requests";
import { testEdge } from "./support/test-edge";

/**
 * Production mode: the upstream is a URL (the public service's `https://search.censys.io/api`),
 * reached with fetch rather than the ORIGIN service binding. Here the "internet" is a transport
 * that records each request and hands it to the real origin, so the whole path is real but DNS.
 */
await seedOrigin();
const facts = await originFacts();
const UPSTREAM = "https://search.upstream.test/api";

function edgeOverUrl() {
  const seen: Request[] = [];
  const edge = testEdge({
    vars: { UPSTREAM_URL: `${UPSTREAM}/` },
    overrides: {
      transport: (request) => {
        seen.push(request.clone());
        return env.ORIGIN!.fetch(request);
      },
    },
  });
  return { edge, seen };
}

describe("an edge whose upstream is a URL", () => {
  it("sends each route below the configured base path, with the pool's credential", async () => {
    const { edge, seen } = edgeOverUrl();
    const tenant = await createTenant({}, edge.fetch);
    const auth = tenantAuth(tenant);
    const calls = [
      buildRequest("GET", `/api/v2/hosts/${facts.hosts[0]}`, { auth }),
      buildRequest(
        "GET",
        `/api/v2/hosts/search?q=${encodeURIComponent(`ip: ${facts.hosts[1]}`)}&per_page=5`,
        { auth },
      ),
      buildRequest("GET", `/api/v1/view/certificates/${facts.certificates[0]}`, { auth }),
      buildRequest("POST", "/api/v1/search/ipv4", { body: { query: `ip: ${facts.hosts[2]}` }, auth }),
    ];
    for (const call of calls) expect((await edge.fetch(call)).status, call.url).toBe(200);

    expect(seen.map((r) => new URL(r.url).origin)).toEqual(calls.map(() => "https://search.upstream.test"));
    expect(seen.map((r) => new URL(r.url).pathname)).toEqual([
      `/api/v2/hosts/${facts.hosts[0]}`,
      "/api/v2/hosts/search",
      `/api/v1/view/certificates/${facts.certificates[0]}`,
      "/api/v1/search/ipv4",
    ]);
    expect(new URL(seen[1]!.url).searchParams.get("per_page")).toBe("5");
    const expected = `Basic ${btoa(`${ORIGIN_CREDENTIAL.api_id}:${ORIGIN_CREDENTIAL.api_secret}`)}`;
    for (const request of seen) expect(request.headers.get("authorization")).toBe(expected);
  });

  it("re-roots the upstream's raw-data links from the public host to the edge", async () => {
    const { edge } = edgeOverUrl();
    const tenant = await createTenant({}, edge.fetch);
    const res = await edge.fetch(buildRequest("GET", "/api/v1/data", { auth: tenantAuth(tenant) }));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("search.upstream.test");
    const series = Object.values(
      (JSON.parse(text) as { raw_series: Record<string, { latest_result: { details_url: string } }> })
        .raw_series,
    );
    expect(series.length).toBeGreaterThan(0);
    for (const { latest_result } of series)
      expect(latest_result.details_url.startsWith(`${EDGE}/api/v1/data/`)).toBe(true);
  });
});
