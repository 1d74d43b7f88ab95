import { REQUEST_ID_HEADER } from "@scangate/core/http";
import { describe, expect, it } from "vitest";
import { originFacts, seedOrigin } from "./support/origin-data";
import { buildRequest, createTenant, tenantAuth } from "./support/requests";
import { testEdge } from "./support/test-edge";

await seedOrigin();
const facts = await originFacts();
const [CERT] = facts.certificates as [string];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("X-Request-Id", () => {
  it("is on every answer: a cache miss and hit, a relayed search, the account, an error, a 404", async () => {
    const edge = testEdge();
    const tenant = await createTenant({ allowance: 100 }, edge.fetch);
    const auth = tenantAuth(tenant);
    const answers = [
      ["a cache miss", buildRequest("GET", `/api/v1/view/certificates/${CERT}`, { auth }), 200],
      ["a cache hit", buildRequest("GET", `/api/v1/view/certificates/${CERT}`, { auth }), 200],
      ["a relayed search", buildRequest("GET", "/api/v2/hosts/search?q=services.port:22", { auth }), 200],
      ["the account", buildRequest("GET", "/api/v1/account", { auth }), 200],
      ["a refused credential", buildRequest("GET", "/api/v1/account", { auth: "Basic bm9uZTpub25l" }), 403],
      ["an unknown route", buildRequest("GET", "/api/v2/nowhere", { auth }), 404],
      ["a wrong method", buildRequest("DELETE", "/api/v1/account", { auth }), 405],
    ] as const;
    const ids: string[] = [];
    for (const [what, request, status] of answers) {
      const response = await edge.fetch(request);
      expect(response.status, what).toBe(status);
      await response.arrayBuffer();
      const id = response.headers.get(REQUEST_ID_HEADER) ?? "";
      expect(id, `${what} (${response.status})`).toMatch(UUID);
      ids.push(id);
    }
    expect(new Set(ids).size).toBe(answers.length);
  });

  it("keeps the id a caller sent", async () => {
    const edge = testEdge();
    const tenant = await createTenant({ allowance: 100 }, edge.fetch);
    const response = await edge.fetch(
      buildRequest("GET", `/api/v1/view/certificates/${CERT}`, {
        auth: tenantAuth(tenant),
        headers: { [REQUEST_ID_HEADER]: "support-ticket-1234" },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get(REQUEST_ID_HEADER)).toBe("support-ticket-1234");
  });
});
