import type { TenantWithSecret } from "@scangate/core";
import { describe, expect, it } from "vitest";
import type { LedgerClient, Ledgers } from "../../src/ledger/ledgers";
import { json } from "../support/fake-upstream";
import { ledgerUsed } from "../support/ledger";
import { buildRequest, createTenant, tenantAuth } from "../support/requests";
import { type TestEdge, testEdge } from "../support/test-edge";

/**
 * A tenant's ledger object failing (overloaded, unreachable), through a wrapper around the real
 * objects that fails the calls a test names: charges are neither lost nor taken twice, nothing is
 * forwarded unpaid, and the caller gets a clear answer to retry.
 */

const SEARCH_OK = {
  status: "ok",
  metadata: { count: 0, query: "*", backend_time: 1, page: 1, pages: 0 },
  results: [],
};

type Method = keyof LedgerClient;

/** Ledgers whose next `times` calls of `method` fail, for every tenant. */
function failing(
  method: Method,
  times: number,
): { wrap: (ledgers: Ledgers) => Ledgers; failed: () => number } {
  let left = times;
  let failed = 0;
  const wrap =
    (ledgers: Ledgers): Ledgers =>
    (tenantId) => {
      const client = ledgers(tenantId);
      const fail = <T>(call: () => Promise<T>): Promise<T> => {
        if (left <= 0) return call();
        left -= 1;
        failed += 1;
        return Promise.reject(new Error("Durable Object is overloaded"));
      };
      return {
        charge: (request) =>
          method === "charge" ? fail(() => client.charge(request)) : client.charge(request),
        settle: (request) =>
          method === "settle" ? fail(() => client.settle(request)) : client.settle(request),
        refund: (request) =>
          method === "refund" ? fail(() => client.refund(request)) : client.refund(request),
        read: (request) => client.read(request),
        configure: (request) => client.configure(request),
        absorb: (request) => client.absorb(request),
        erase: () => client.erase(),
      };
    };
  return { wrap, failed: () => failed };
}

function edgeWith(fault: ReturnType<typeof failing>): TestEdge {
  return testEdge({ overrides: { ledgers: fault.wrap } });
}

const search = (tenant: TenantWithSecret) =>
  buildRequest("POST", "/api/v1/search/ipv4", { body: { query: "*" }, auth: tenantAuth(tenant) });

describe("a charge the ledger cannot take", () => {
  it("is a 503 to retry that asks the upstream nothing and charges nothing; the retry is charged once", async () => {
    const fault = failing("charge", 1);
    const edge = edgeWith(fault);
    edge.upstream.answer(() => json(200, SEARCH_OK));
    const tenant = await createTenant({ allowance: 5 }, edge.fetch);
    const failed = await edge.fetch(search(tenant));
    expect(failed.status).toBe(503);
    expect(failed.headers.get("Retry-After")).toBe("2");
    const body = await failed.json<{ error_code: number; error: string }>();
    expect(body.error_code).toBe(503);
    expect(body.error).toMatch(/retry/);
    expect(fault.failed()).toBe(1);
    expect(edge.upstream.requests).toHaveLength(0);
    expect(await ledgerUsed(tenant.id)).toBe(0);

    const retried = await edge.fetch(search(tenant));
    expect(retried.status).toBe(200);
    expect(edge.upstream.requests).toHaveLength(1);
    expect(await ledgerUsed(tenant.id)).toBe(1);
  });
});

describe("a refund the ledger cannot take", () => {
  it("still answers the upstream's answer, keeping the one charge rather than risk giving it back twice", async () => {
    const fault = failing("refund", 1);
    const edge = edgeWith(fault);
    edge.upstream.answer(() => json(503, { error_code: 503, error: "busy" }));
    const tenant = await createTenant({ allowance: 5 }, edge.fetch);
    const res = await edge.fetch(search(tenant));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error_code: 503, error: "busy" });
    expect(fault.failed()).toBe(1);
    // Charged once, never twice; the RateLimit header says what is stored.
    expect(await ledgerUsed(tenant.id)).toBe(1);
    expect(res.headers.get("RateLimit")).toMatch(/^"quota";r=4;/);
    // The next failure, with the ledger well again, is given back as always.
    expect((await edge.fetch(search(tenant))).status).toBe(503);
    expect(await ledgerUsed(tenant.id)).toBe(1);
  });

  it("never gives a charge back twice", async () => {
    const edge = testEdge();
    const tenant = await createTenant({ allowance: 5 }, edge.fetch);
    edge.upstream.answer(() => json(200, SEARCH_OK));
    expect((await edge.fetch(search(tenant))).status).toBe(200);
    edge.upstream.answer(() => json(503, { error_code: 503, error: "busy" }));
    expect((await edge.fetch(search(tenant))).status).toBe(503);
    expect(await ledgerUsed(tenant.id)).toBe(1);
  });
});
