import { v3ProblemSchema } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { suiteSecretWatch } from "./reliability/secret-watch";
import { ORIGIN_PLATFORM, originFacts, seedOrigin } from "./support/origin-data";
import { buildRequest, createTenant, tenantWithToken, usedOf as used } from "./support/requests";
import { testEdge } from "./support/test-edge";

// A path decides what a request is: its route, its price, the organization it acts for. The
// edge reads one canonical spelling of it (core http/request-target.ts), so a percent-encoded
// or dot-segment spelling is the same request as the plain one, never a cheaper or wider one.

const VARS = { PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]) };

beforeAll(async () => {
  suiteSecretWatch.addMarkers([ORIGIN_PLATFORM.token]);
  await seedOrigin();
});

describe("an encoded spelling of a /v3 path is priced as the plain path", () => {
  // Each spelling asks for hosts no other did: a cached host would cost nothing.
  it.each([
    ["/v3/global/asset/%68ost", 0],
    ["/v3/global/asset/./host", 1],
    ["/v3/global/x/../asset/host", 2],
    ["/v3//global/asset/host/", 3],
  ])("POST %s with 4 hosts costs 4 credits, as /v3/global/asset/host does", async (path, slot) => {
    const edge = testEdge({ vars: VARS });
    const { id, auth } = await tenantWithToken(edge.fetch, 100);
    const hosts = (await originFacts()).hosts.slice(slot * 4, slot * 4 + 4);
    const encoded = await edge.fetch(buildRequest("POST", path, { auth, body: { host_ids: hosts } }));
    expect(encoded.status).toBe(200);
    expect((await encoded.json<{ result: unknown[] }>()).result).toHaveLength(4);
    // One credit per host answered, as the plain path's bulk costs (v3-credits.test.ts).
    expect(await used(edge.fetch, id)).toBe(4);
    // What went upstream is the canonical path, whatever the caller spelled.
    expect(edge.upstream.requests.map((r) => new URL(r.url).pathname)).toContain("/v3/global/asset/host");
    expect(edge.upstream.requests.some((r) => new URL(r.url).pathname.includes("%"))).toBe(false);
  });

  it.each([["/v3/global/asset/%63ertificate"], ["/v3/global/asset/%77ebproperty"]])(
    "routes %s to the cached bulk route",
    async (path) => {
      const edge = testEdge({ vars: VARS });
      const { auth } = await tenantWithToken(edge.fetch, 100);
      const res = await edge.fetch(buildRequest("POST", path, { auth, body: {} }));
      // The bulk routes read their own body: an empty one is the upstream's 4xx, never a 2xx for free.
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(edge.upstream.requests.every((r) => !new URL(r.url).pathname.includes("%"))).toBe(true);
    },
  );
});

describe("an encoded spelling of an account path still names the pool's organization", () => {
  it("GET /v3/%61ccounts/organizations/other-org/credits goes upstream as the pool's organization", async () => {
    const edge = testEdge({ vars: VARS });
    const { auth } = await tenantWithToken(edge.fetch, 100);
    const res = await edge.fetch(
      buildRequest("GET", "/v3/%61ccounts/organizations/other-org/credits", { auth }),
    );
    expect(res.status).toBe(200);
    const [call] = edge.upstream.requests;
    expect(new URL(call?.url ?? "").pathname).toBe(
      `/v3/accounts/organizations/${ORIGIN_PLATFORM.organization_id}/credits`,
    );
  });
});

describe("a path whose decoding would move a segment is refused", () => {
  it.each([
    ["GET", "/v3/global/asset/host%2F1.1.1.1"],
    ["GET", "/v3/global/asset/host/1.1.1.1%2Ftimeline"],
    ["GET", "/v3/global/asset/host/%zz"],
    ["GET", "/v3/global/asset/host/a%00b"],
  ])("%s %s is a 400 problem that reaches nothing", async (method, path) => {
    const edge = testEdge({ vars: VARS });
    const { id, auth } = await tenantWithToken(edge.fetch, 100);
    const res = await edge.fetch(buildRequest(method, path, { auth }));
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    v3ProblemSchema.parse(await res.json());
    expect(edge.upstream.requests).toHaveLength(0);
    expect(await used(edge.fetch, id)).toBe(0);
  });

  it.each([
    ["/api/v1/view/certificates/ab%2Fcd", "error_code"],
    ["/api/v2/hosts/1.1.1.1%2Fnames", "code"],
  ])("%s is a 400 in its API's body shape", async (path, member) => {
    const edge = testEdge();
    const tenant = await createTenant({ allowance: 10 }, edge.fetch);
    const res = await edge.fetch(
      buildRequest("GET", path, { auth: `Basic ${btoa(`${tenant.api_id}:${tenant.api_secret}`)}` }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toHaveProperty(member, 400);
    expect(edge.upstream.requests).toHaveLength(0);
  });
});
