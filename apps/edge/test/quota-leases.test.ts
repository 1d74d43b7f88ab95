import { v1RateLimitErrorSchema } from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Defer } from "../src/auth/tenant-auth";
import { edgeDb } from "../src/db/client";
import { meteredD1, runMetered, StatementMeter, unmetered } from "../src/db/statement-meter";
import { CREDIT_HOLD_TTL_MS, CreditHolds } from "../src/quota/holds";
import {
  BUSY_CHARGES,
  LEASE_CHARGES,
  LEASE_HEADROOM,
  LEASE_MS,
  LeasedLedger,
  MAX_LEASE_CHARGES,
} from "../src/quota/leases";
import { type ChargeResult, D1QuotaLedger } from "../src/quota/ledger";
import { FailingD1 } from "./support/failing-d1";
import { json } from "./support/fake-upstream";
import { buildRequest, createTenant, tenantAuth } from "./support/requests";
import { testClock, testEdge } from "./support/test-edge";

/** The smallest allowance that lets a busy tenant lease after its first BUSY_CHARGES charges. */
const LEASABLE = BUSY_CHARGES + LEASE_CHARGES * (1 + LEASE_HEADROOM);

async function ledgerRow(tenantId: string): Promise<{ used: number; holds: number; held: number }> {
  const row = await env.DB.prepare(
    `select used, (select count(*) from credit_holds where tenant_id = t.id) as holds,
       (select coalesce(sum(credits), 0) from credit_holds where tenant_id = t.id) as held
     from tenants t where id = ?`,
  )
    .bind(tenantId)
    .first<{ used: number; holds: number; held: number }>();
  if (!row) throw new Error(`no tenant ${tenantId}`);
  return row;
}

/**
 * A leased ledger over the real D1, counting its statements, whose leases end when the test says
 * (`endLeases`) rather than after LEASE_MS.
 */
function leasedLedger(d1: D1Database = env.DB) {
  const clock = testClock();
  const db = edgeDb(meteredD1(d1));
  const ledger = new D1QuotaLedger(db, clock);
  const holds = new CreditHolds(db, ledger);
  const timers: Array<() => void> = [];
  const background: Promise<unknown>[] = [];
  const defer: Defer = (work) => void background.push(unmetered(work));
  // Each lease's background work writes its hold, then waits here until `endLeases`.
  const leased = new LeasedLedger(ledger, holds, clock, () => new Promise((resolve) => timers.push(resolve)));
  return {
    clock,
    leased,
    holds,
    defer,
    openLeases: () => timers.length,
    /** Until every lease taken so far has written its hold (and waits for `endLeases`). */
    async holdsWritten() {
      for (let turns = 0; timers.length < background.length; turns++) {
        if (turns > 1_000) throw new Error("a lease's hold was never written");
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    },
    async endLeases() {
      for (const end of timers.splice(0)) end();
      await Promise.all(background.splice(0));
    },
    /** Charges once, with the statements the charge ran. */
    async charge(tenantId: string, cost = 1): Promise<{ result: ChargeResult; statements: number }> {
      const meter = new StatementMeter();
      const result = await runMetered(meter, () => leased.charge(tenantId, cost, { defer }));
      return { result, statements: meter.statements };
    },
  };
}

async function chargeTimes(
  fixture: ReturnType<typeof leasedLedger>,
  tenantId: string,
  times: number,
): Promise<Array<{ result: ChargeResult; statements: number }>> {
  const out = [];
  for (let i = 0; i < times; i++) out.push(await fixture.charge(tenantId));
  return out;
}

describe("credit leases", () => {
  it("charges a quiet tenant request by request: one statement each, no hold", async () => {
    const tenant = await createTenant({ allowance: 1_000 }, testEdge().fetch);
    const fixture = leasedLedger();
    const charges = await chargeTimes(fixture, tenant.id, BUSY_CHARGES);
    expect(charges.every((c) => c.result.ok && c.statements === 1)).toBe(true);
    expect(await ledgerRow(tenant.id)).toEqual({ used: BUSY_CHARGES, holds: 0, held: 0 });
    expect(fixture.openLeases()).toBe(0);
  });

  it("answers a busy tenant's charges from one lease, and gives back what it did not spend", async () => {
    const tenant = await createTenant({ allowance: 1_000 }, testEdge().fetch);
    const fixture = leasedLedger();
    await chargeTimes(fixture, tenant.id, BUSY_CHARGES);
    // The next charge takes the lease: its ledger charge on the path, its hold in the background.
    const taking = await fixture.charge(tenant.id);
    expect(taking.statements).toBe(1);
    await fixture.holdsWritten();
    expect(await ledgerRow(tenant.id)).toEqual({
      used: BUSY_CHARGES + LEASE_CHARGES,
      holds: 1,
      held: LEASE_CHARGES,
    });
    const fromLease = await chargeTimes(fixture, tenant.id, 4);
    expect(fromLease.map((c) => c.statements)).toEqual([0, 0, 0, 0]);
    // Each answer's quota counts what was spent, not the lease's unspent credits.
    expect(fromLease.map((c) => c.result.ok && c.result.charge.quota.used)).toEqual(
      [2, 3, 4, 5].map((n) => BUSY_CHARGES + n),
    );
    expect(await fixture.leased.current(tenant.id)).toMatchObject({ used: BUSY_CHARGES + 5 });
    await fixture.endLeases();
    expect(await ledgerRow(tenant.id)).toEqual({ used: BUSY_CHARGES + 5, holds: 0, held: 0 });
  });

  it("takes one lease for concurrent charges, and another when it runs out", async () => {
    const tenant = await createTenant({ allowance: 1_000 }, testEdge().fetch);
    const fixture = leasedLedger();
    await chargeTimes(fixture, tenant.id, BUSY_CHARGES);
    const concurrent = await Promise.all(
      Array.from({ length: LEASE_CHARGES }, () => fixture.charge(tenant.id)),
    );
    expect(concurrent.every((c) => c.result.ok)).toBe(true);
    expect(concurrent.reduce((sum, c) => sum + c.statements, 0)).toBe(1);
    await fixture.holdsWritten();
    expect((await ledgerRow(tenant.id)).holds).toBe(1);
    // The lease is spent: the next charge takes a second one, as large as the charges before it.
    expect((await fixture.charge(tenant.id)).statements).toBe(1);
    await fixture.holdsWritten();
    expect(await ledgerRow(tenant.id)).toMatchObject({
      holds: 2,
      held: LEASE_CHARGES + (BUSY_CHARGES + LEASE_CHARGES),
    });
    await fixture.endLeases();
    expect(await ledgerRow(tenant.id)).toEqual({
      used: BUSY_CHARGES + LEASE_CHARGES + 1,
      holds: 0,
      held: 0,
    });
  });

  it("answers charges that find a new lease spent by the ones before them from the next lease, not one by one", async () => {
    const tenant = await createTenant({ allowance: 1_000 }, testEdge().fetch);
    const fixture = leasedLedger();
    await chargeTimes(fixture, tenant.id, BUSY_CHARGES);
    const many = 3 * LEASE_CHARGES;
    const concurrent = await Promise.all(Array.from({ length: many }, () => fixture.charge(tenant.id)));
    expect(concurrent.every((c) => c.result.ok)).toBe(true);
    // Two leases' charges: the first of LEASE_CHARGES, the second sized to the charges seen.
    expect(concurrent.reduce((sum, c) => sum + c.statements, 0)).toBe(2);
    await fixture.holdsWritten();
    expect((await ledgerRow(tenant.id)).holds).toBe(2);
    await fixture.endLeases();
    expect(await ledgerRow(tenant.id)).toEqual({ used: BUSY_CHARGES + many, holds: 0, held: 0 });
  });

  it("sizes a lease to the tenant's charges in the window before, up to MAX_LEASE_CHARGES", async () => {
    const tenant = await createTenant({ allowance: 100_000 }, testEdge().fetch);
    const fixture = leasedLedger();
    const before = BUSY_CHARGES + 3 * LEASE_CHARGES;
    await chargeTimes(fixture, tenant.id, before);
    await fixture.holdsWritten();
    await fixture.endLeases();
    fixture.clock.advance(LEASE_MS);
    expect((await fixture.charge(tenant.id)).statements).toBe(1);
    await fixture.holdsWritten();
    expect(await ledgerRow(tenant.id)).toEqual({ used: 2 * before, holds: 1, held: before });
    // The rest of it answers without D1.
    const fromLease = await chargeTimes(fixture, tenant.id, before - 1);
    expect(fromLease.every((c) => c.result.ok && c.statements === 0)).toBe(true);
    await fixture.endLeases();

    // A window of more charges than MAX_LEASE_CHARGES leases MAX_LEASE_CHARGES.
    fixture.clock.advance(LEASE_MS);
    await chargeTimes(fixture, tenant.id, MAX_LEASE_CHARGES + 10);
    await fixture.holdsWritten();
    await fixture.endLeases();
    const used = (await ledgerRow(tenant.id)).used;
    fixture.clock.advance(LEASE_MS);
    await fixture.charge(tenant.id);
    await fixture.holdsWritten();
    expect(await ledgerRow(tenant.id)).toEqual({
      used: used + MAX_LEASE_CHARGES,
      holds: 1,
      held: MAX_LEASE_CHARGES,
    });
    await fixture.endLeases();
    expect((await ledgerRow(tenant.id)).used).toBe(used + 1);
  });

  it("leases no more than LEASE_HEADROOM more leases would leave of the allowance it last saw", async () => {
    const before = BUSY_CHARGES + 3 * LEASE_CHARGES;
    // Room after the first window for a lease smaller than `before`.
    const allowance = before + (1 + LEASE_HEADROOM) * (before - LEASE_CHARGES);
    const tenant = await createTenant({ allowance }, testEdge().fetch);
    const fixture = leasedLedger();
    await chargeTimes(fixture, tenant.id, before);
    await fixture.holdsWritten();
    await fixture.endLeases();
    fixture.clock.advance(LEASE_MS);
    await fixture.charge(tenant.id);
    await fixture.holdsWritten();
    const { used, holds, held } = await ledgerRow(tenant.id);
    expect(holds).toBe(1);
    expect(held).toBeGreaterThanOrEqual(LEASE_CHARGES);
    expect(held).toBeLessThan(before);
    expect(allowance - used).toBeGreaterThanOrEqual(LEASE_HEADROOM * held);
    await fixture.endLeases();
    // And the tenant still spends exactly its allowance.
    const rest = await chargeTimes(fixture, tenant.id, allowance);
    expect(rest.filter((c) => c.result.ok)).toHaveLength(allowance - before - 1);
    await fixture.holdsWritten();
    await fixture.endLeases();
    expect(await ledgerRow(tenant.id)).toEqual({ used: allowance, holds: 0, held: 0 });
  });

  it("puts a refunded charge back into its open lease, and refunds through the ledger once it ended", async () => {
    const tenant = await createTenant({ allowance: 1_000 }, testEdge().fetch);
    const fixture = leasedLedger();
    await chargeTimes(fixture, tenant.id, BUSY_CHARGES + 2);
    const [first, second] = await chargeTimes(fixture, tenant.id, 2);
    if (!first?.result.ok || !second?.result.ok) throw new Error("charges refused");
    await fixture.leased.refund(first.result.charge);
    expect(await ledgerRow(tenant.id)).toMatchObject({ used: BUSY_CHARGES + LEASE_CHARGES });
    await fixture.endLeases();
    expect((await ledgerRow(tenant.id)).used).toBe(BUSY_CHARGES + 3);
    await fixture.leased.refund(second.result.charge);
    expect(await ledgerRow(tenant.id)).toEqual({ used: BUSY_CHARGES + 2, holds: 0, held: 0 });
  });

  it("leases nothing within LEASE_HEADROOM leases of the allowance: charges stay exact to the last credit", async () => {
    const tenant = await createTenant({ allowance: LEASABLE - 1 }, testEdge().fetch);
    const fixture = leasedLedger();
    const charges = await chargeTimes(fixture, tenant.id, LEASABLE);
    expect(charges.filter((c) => c.result.ok)).toHaveLength(LEASABLE - 1);
    // No lease charge is tried (and refused) first: each charge is its one statement.
    expect(charges.slice(0, -1).every((c) => c.statements === 1)).toBe(true);
    expect(charges.at(-1)?.result).toMatchObject({ ok: false, reason: "exhausted" });
    expect(await ledgerRow(tenant.id)).toEqual({ used: LEASABLE - 1, holds: 0, held: 0 });
  });

  it("with just enough allowance, leases, and the tenant still spends exactly its allowance", async () => {
    const tenant = await createTenant({ allowance: LEASABLE }, testEdge().fetch);
    const fixture = leasedLedger();
    const charges = await chargeTimes(fixture, tenant.id, LEASABLE + 5);
    expect(charges.filter((c) => c.result.ok)).toHaveLength(LEASABLE);
    await fixture.endLeases();
    expect(await ledgerRow(tenant.id)).toEqual({ used: LEASABLE, holds: 0, held: 0 });
  });

  it("does not spend a lease into the next period", async () => {
    const tenant = await createTenant({ allowance: 1_000, period: "daily" }, testEdge().fetch);
    const fixture = leasedLedger();
    await chargeTimes(fixture, tenant.id, BUSY_CHARGES + 1);
    const resetsAt = Date.parse(tenant.resets_at ?? "");
    fixture.clock.set(resetsAt + 1);
    const next = await fixture.charge(tenant.id);
    expect(next.statements).toBeGreaterThan(0);
    expect(next.result).toMatchObject({ ok: true, charge: { quota: { used: 1 } } });
    await fixture.endLeases();
    // The old period's lease gives nothing back into the new period.
    expect(await ledgerRow(tenant.id)).toMatchObject({ used: 1, holds: 0 });
  });

  it("stops a lease at LEASE_MS on the clock, before it is settled", async () => {
    const tenant = await createTenant({ allowance: 1_000 }, testEdge().fetch);
    const fixture = leasedLedger();
    await chargeTimes(fixture, tenant.id, BUSY_CHARGES + 1);
    fixture.clock.advance(LEASE_MS);
    // Still busy (the window before was), so the charge takes a new lease.
    expect((await fixture.charge(tenant.id)).statements).toBe(1);
    await fixture.holdsWritten();
    expect((await ledgerRow(tenant.id)).holds).toBe(2);
    await fixture.endLeases();
    expect(await ledgerRow(tenant.id)).toEqual({ used: BUSY_CHARGES + 2, holds: 0, held: 0 });
  });

  it("when the isolate dies with a lease open, maintenance gives the whole lease back at its hold's expiry", async () => {
    const tenant = await createTenant({ allowance: 1_000 }, testEdge().fetch);
    const fixture = leasedLedger();
    await chargeTimes(fixture, tenant.id, BUSY_CHARGES + 3);
    await fixture.holdsWritten();
    // Never settled: the hold is all that is left of the lease.
    const released = await fixture.holds.expire(fixture.clock.now() + CREDIT_HOLD_TTL_MS);
    expect(released).toBeGreaterThanOrEqual(1);
    expect(await ledgerRow(tenant.id)).toEqual({ used: BUSY_CHARGES, holds: 0, held: 0 });
  });

  it("charges a held call through the ledger beside an open lease, so an isolate's death gives each credit back once", async () => {
    const tenant = await createTenant({ allowance: 1_000 }, testEdge().fetch);
    const fixture = leasedLedger();
    await chargeTimes(fixture, tenant.id, BUSY_CHARGES + 1);
    await fixture.holdsWritten();
    const meter = new StatementMeter();
    const held = await runMetered(meter, () =>
      fixture.leased.charge(tenant.id, 5, { defer: fixture.defer, held: true }),
    );
    if (!held.ok) throw new Error("held charge refused");
    expect(meter.statements).toBe(1);
    await fixture.holds.open(held.charge, fixture.clock.now());
    expect(await ledgerRow(tenant.id)).toEqual({
      used: BUSY_CHARGES + LEASE_CHARGES + 5,
      holds: 2,
      held: LEASE_CHARGES + 5,
    });
    // Neither settled: maintenance gives back the lease and the call, each once.
    expect(await fixture.holds.expire(fixture.clock.now() + CREDIT_HOLD_TTL_MS)).toBe(2);
    expect(await ledgerRow(tenant.id)).toEqual({ used: BUSY_CHARGES, holds: 0, held: 0 });
  });

  it("gives a lease back through the ledger when its hold could not be written", async () => {
    const tenant = await createTenant({ allowance: 1_000 }, testEdge().fetch);
    const failing = new FailingD1();
    const fixture = leasedLedger(failing.wrap(env.DB));
    await chargeTimes(fixture, tenant.id, BUSY_CHARGES);
    failing.failWhen(/insert into "credit_holds"/i, 1);
    expect((await chargeTimes(fixture, tenant.id, 3)).every((c) => c.result.ok)).toBe(true);
    await fixture.holdsWritten();
    expect(failing.failed).toHaveLength(1);
    expect(await ledgerRow(tenant.id)).toEqual({ used: BUSY_CHARGES + LEASE_CHARGES, holds: 0, held: 0 });
    await fixture.endLeases();
    expect(await ledgerRow(tenant.id)).toEqual({ used: BUSY_CHARGES + 3, holds: 0, held: 0 });
  });

  it("charges per request when the lease's own charge fails", async () => {
    const tenant = await createTenant({ allowance: 1_000 }, testEdge().fetch);
    const failing = new FailingD1();
    const fixture = leasedLedger(failing.wrap(env.DB));
    await chargeTimes(fixture, tenant.id, BUSY_CHARGES);
    failing.failWhen(/update "tenants"/i, 1);
    const charged = await fixture.charge(tenant.id);
    expect(charged.result).toMatchObject({ ok: true, charge: { cost: 1 } });
    expect(failing.failed).toHaveLength(1);
    expect(fixture.openLeases()).toBe(0);
    expect(await ledgerRow(tenant.id)).toEqual({ used: BUSY_CHARGES + 1, holds: 0, held: 0 });
  });

  it("leaves the hold for maintenance when a lease cannot be settled, which gives it all back", async () => {
    const tenant = await createTenant({ allowance: 1_000 }, testEdge().fetch);
    const failing = new FailingD1();
    const fixture = leasedLedger(failing.wrap(env.DB));
    await chargeTimes(fixture, tenant.id, BUSY_CHARGES + 1);
    await fixture.holdsWritten();
    failing.failWhen(/delete from "credit_holds"/i, 1);
    await fixture.endLeases();
    expect(failing.failed).toHaveLength(1);
    expect(await ledgerRow(tenant.id)).toEqual({
      used: BUSY_CHARGES + LEASE_CHARGES,
      holds: 1,
      held: LEASE_CHARGES,
    });
    await fixture.holds.expire(fixture.clock.now() + CREDIT_HOLD_TTL_MS);
    expect(await ledgerRow(tenant.id)).toEqual({ used: BUSY_CHARGES, holds: 0, held: 0 });
  });
});

describe("credit leases behind the API", () => {
  it("bills a busy tenant's cache misses exactly once its leases end, with fewer D1 statements", async () => {
    const edge = testEdge({ vars: { D1_STATEMENTS_HEADER: "true" } });
    edge.upstream.answer(() => json(200, { status: "ok", results: {}, metadata: {} }));
    const tenant = await createTenant({ allowance: 1_000 }, edge.fetch);
    const misses = BUSY_CHARGES + LEASE_CHARGES + 3;
    const responses = await Promise.all(
      Array.from({ length: misses }, (_, i) =>
        edge.fetch(
          buildRequest("GET", `/api/v1/view/certificates/${i.toString(16).padStart(64, "0")}`, {
            auth: tenantAuth(tenant),
            headers: { "X-D1-Statements": "" },
          }),
        ),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array.from({ length: misses }, () => 200));
    expect(edge.upstream.requests).toHaveLength(misses);
    // A miss charged on its own runs two statements (the cache read, the charge), and so does
    // the one that takes a lease; one answered from a lease runs only the cache read.
    const statements = responses.map((r) => Number(r.headers.get("X-D1-Statements")));
    expect(statements.filter((n) => n === 1).length).toBeGreaterThanOrEqual(LEASE_CHARGES - 1);
    expect(await ledgerRow(tenant.id)).toEqual({ used: misses, holds: 0, held: 0 });
  });
});

describe("a refusal that credits still held would cover", () => {
  const SEARCH_OK = {
    status: "ok",
    metadata: { count: 0, query: "*", backend_time: 1, page: 1, pages: 0 },
    results: [],
  };
  const search = (tenant: { api_id: string; api_secret: string }) =>
    buildRequest("POST", "/api/v1/search/ipv4", { body: { query: "*" }, auth: tenantAuth(tenant) });

  it("is a 429 that says so, with a Retry-After of seconds, and the charge passes once the hold settles", async () => {
    const edge = testEdge();
    edge.upstream.answer(() => json(200, SEARCH_OK));
    const tenant = await createTenant({ allowance: 10 }, edge.fetch);
    // Another isolate's lease of 4 credits, as it stands in D1: charged, with its hold.
    const db = edgeDb(env.DB);
    const ledger = new D1QuotaLedger(db, edge.clock);
    const holds = new CreditHolds(db, ledger);
    const lease = await ledger.charge(tenant.id, 4);
    if (!lease.ok) throw new Error("lease refused");
    const holdId = await holds.open(lease.charge, edge.clock.now());
    for (let i = 0; i < 6; i++) expect((await edge.fetch(search(tenant))).status).toBe(200);

    const refused = await edge.fetch(search(tenant));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe(String(Math.ceil(LEASE_MS / 1000)));
    expect(v1RateLimitErrorSchema.parse(await refused.json())).toEqual({
      error_code: 429,
      status: "error",
      error_type: "quota_exceeded",
      error: "The rest of your quota is held by requests still in flight; retry in a few seconds.",
    });
    expect(await ledgerRow(tenant.id)).toEqual({ used: 10, holds: 1, held: 4 });

    // The lease ends having spent one credit: three come back, and the next search passes.
    await holds.settle(holdId, lease.charge, 1);
    expect((await edge.fetch(search(tenant))).status).toBe(200);
    expect(await ledgerRow(tenant.id)).toEqual({ used: 8, holds: 0, held: 0 });
  });

  it("is the ordinary quota 429 when the held credits would not cover the charge", async () => {
    const edge = testEdge();
    edge.upstream.answer(() => json(200, SEARCH_OK));
    const tenant = await createTenant({ allowance: 10, period: "daily" }, edge.fetch);
    const db = edgeDb(env.DB);
    const ledger = new D1QuotaLedger(db, edge.clock);
    const lease = await ledger.charge(tenant.id, 10);
    if (!lease.ok) throw new Error("charge refused");
    const refused = await edge.fetch(search(tenant));
    expect(refused.status).toBe(429);
    const resetsAt = Date.parse(tenant.resets_at ?? "");
    expect(Number(refused.headers.get("Retry-After"))).toBe(Math.ceil((resetsAt - edge.clock.now()) / 1000));
    expect(v1RateLimitErrorSchema.parse(await refused.json()).error).toBe(
      "You have used your full quota for this billing period.",
    );
  });
});
