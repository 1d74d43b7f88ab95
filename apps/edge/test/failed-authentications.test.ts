import { platformTokenWithSecretSchema } from "@scangate/core";
import { describe, expect, it } from "vitest";
import { FixedWindowRateLimiter } from "../src/ratelimit/fixed-window";
import { admin, basicAuth, buildRequest, createTenant, tenantAuth } from "./support/requests";
import { testClock, testEdge } from "./support/test-edge";

// A refused credential costs its caller, not the other tenants: refused again from memory
// without D1, and counted against the caller's address, which past its limit is refused before
// anything is read. Nobody can lock out an owner: the limit is the address's own, and a
// credential the isolate knows to be good still passes there.

const COUNTED = { D1_STATEMENTS_HEADER: "true" };
const LIMIT = 3;

function floodEdge() {
  const clock = testClock();
  return testEdge({
    clock,
    vars: COUNTED,
    overrides: { authFailures: new FixedWindowRateLimiter(LIMIT, 60, clock) },
  });
}

const from = (address: string, auth: string, path = "/api/v2/tags") =>
  buildRequest("GET", path, { auth, headers: { "CF-Connecting-IP": address, "X-D1-Statements": "1" } });

const statements = (response: Response) => Number(response.headers.get("X-D1-Statements"));

describe("a refused credential", () => {
  it("is refused again from memory, without reading D1", async () => {
    const edge = floodEdge();
    const bad = basicAuth("nobody", "wrong");
    const first = await edge.fetch(from("198.51.100.1", bad));
    expect(first.status).toBe(401);
    expect(statements(first)).toBe(1);
    const again = await edge.fetch(from("198.51.100.1", bad));
    expect(again.status).toBe(401);
    expect(statements(again)).toBe(0);
  });

  it("is checked again once as old as a good credential may be (the auth cache's time)", async () => {
    const edge = floodEdge();
    const bad = basicAuth("nobody-else", "wrong");
    expect((await edge.fetch(from("198.51.100.2", bad))).status).toBe(401);
    edge.clock.advance(5_000);
    const later = await edge.fetch(from("198.51.100.2", bad));
    expect(later.status).toBe(401);
    expect(statements(later)).toBe(1);
  });
});

describe("an address past its failed-authentication limit", () => {
  it("is refused with a 429 and Retry-After before anything is read, for credentials the isolate does not know", async () => {
    const edge = floodEdge();
    for (let i = 0; i < LIMIT + 1; i++) {
      const res = await edge.fetch(from("198.51.100.3", basicAuth(`guess-${i}`, "x")));
      expect(res.status).toBe(401);
    }
    const blocked = await edge.fetch(from("198.51.100.3", basicAuth("guess-next", "x")));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await blocked.json()).toMatchObject({ code: 429, error_type: "rate_limit_exceeded" });
    expect(statements(blocked)).toBe(0);
  });

  it("still lets in a credential the isolate knows to be good, and other addresses are not touched", async () => {
    const edge = floodEdge();
    const tenant = await createTenant({ allowance: 10 }, edge.fetch);
    const good = tenantAuth(tenant);
    expect((await edge.fetch(from("198.51.100.4", good))).status).toBe(200);
    for (let i = 0; i < LIMIT + 1; i++) await edge.fetch(from("198.51.100.4", basicAuth(`guess-${i}`, "x")));
    expect((await edge.fetch(from("198.51.100.4", basicAuth("guess-next", "x")))).status).toBe(429);
    // The owner sharing that address, whose credential this isolate has checked, is let in.
    expect((await edge.fetch(from("198.51.100.4", good))).status).toBe(200);
    // Any other address is as it was.
    expect((await edge.fetch(from("203.0.113.9", basicAuth("guess-other", "x")))).status).toBe(401);
  });

  it("ends with its window", async () => {
    const edge = floodEdge();
    for (let i = 0; i < LIMIT + 1; i++) await edge.fetch(from("198.51.100.5", basicAuth(`guess-${i}`, "x")));
    expect((await edge.fetch(from("198.51.100.5", basicAuth("guess-next", "x")))).status).toBe(429);
    edge.clock.advance(61_000);
    expect((await edge.fetch(from("198.51.100.5", basicAuth("guess-later", "x")))).status).toBe(401);
  });

  it("applies to Platform bearer tokens on /v3 too, in problem+json", async () => {
    const edge = floodEdge();
    const tenant = await createTenant({ allowance: 10 }, edge.fetch);
    const issued = platformTokenWithSecretSchema.parse(
      await (await admin("POST", `/admin/tenants/${tenant.id}/platform-token`, {}, edge.fetch)).json(),
    );
    for (let i = 0; i < LIMIT + 1; i++) {
      const res = await edge.fetch(
        from("198.51.100.6", `Bearer sgt_guess${i}`, "/v3/global/asset/host/1.1.1.1"),
      );
      expect(res.status).toBe(401);
    }
    const blocked = await edge.fetch(
      from("198.51.100.6", "Bearer sgt_guessnext", "/v3/global/asset/host/1.1.1.1"),
    );
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("content-type")).toBe("application/problem+json");
    // A known good token from that address passes once this isolate has checked it elsewhere.
    const good = `Bearer ${issued.token}`;
    expect(
      (await edge.fetch(from("203.0.113.10", good, "/v3/accounts/organizations/x/credits"))).status,
    ).not.toBe(401);
    expect(
      (await edge.fetch(from("198.51.100.6", good, "/v3/accounts/organizations/x/credits"))).status,
    ).not.toBe(429);
  });
});
