import { isApiError } from "@scangate/core";
import { describe, expect, it } from "vitest";
import type { TenantRow } from "../src/db/schema";
import type { LedgerClient } from "../src/ledger/ledgers";
import { ChargeBatches } from "../src/ledger/charge-batches";
import { RequestAccount, Refusal } from "../src/pipeline/account";
import type { Price } from "../src/pipeline/price";
import type { UsageEvent } from "../src/usage/recorder";
import { ManualClock } from "./support/clock";
import { memoryLedgers } from "./support/memory-ledger";

// The one object that charges, holds, settles and refunds a request, and counts it for usage:
// its rules as plain calls, against the ledger arithmetic in memory.

const NOW = Date.UTC(2026, 10, 10, 12);
const PER_REQUEST: Price = { credits: 2, per: "request" };
const PER_ASSET: Price = { credits: 1, per: "asset" };

function tenant(allowance: number): TenantRow {
  return {
    id: "tnt_a",
    name: "a",
    email: "",
    apiId: "api",
    secretHash: "",
    previousSecretHash: null,
    previousSecretExpiresAt: null,
    allowance,
    period: "monthly",
    tier: "standard",
    disabled: false,
    createdAt: NOW,
    updatedAt: NOW,
    lastSeenAt: null,
    jobMaxPages: null,
  };
}

function account(
  allowance: number,
  options: {
    hitsCharged?: boolean;
    price?: Price;
    platform?: boolean;
    ledger?: (client: LedgerClient) => LedgerClient;
  } = {},
) {
  const clock = new ManualClock(NOW);
  const ledgers = memoryLedgers(() => clock.now());
  const client = ledgers("tnt_a");
  const events: UsageEvent[] = [];
  const remembered: number[] = [];
  const ledger = () => (options.ledger ? options.ledger(client) : client);
  const opened = new RequestAccount(
    tenant(allowance),
    { used: 0, allowance, resetsAt: null },
    {
      ledger,
      charge: (request) => new ChargeBatches().charge("tnt_a", ledger, request, () => undefined),
      clock,
      holdMs: 1000,
      hitsCharged: options.hitsCharged ?? false,
      remember: (quota) => remembered.push(quota.used),
      record: (event) => (events.push(event), null),
    },
  );
  opened.priced("op", options.price ?? PER_REQUEST, options.platform ?? true);
  return { account: opened, events, remembered, ledgers };
}

describe("a request's account", () => {
  it("charges the route's price before the call, and tells the isolate the quota after it", async () => {
    const { account: a, remembered } = account(10);
    expect(await a.charge()).toMatchObject({ credits: 2 });
    expect(a.currentQuota.used).toBe(2);
    expect(remembered).toEqual([2]);
  });

  it("charges nothing for a free route", async () => {
    const { account: a } = account(10, { price: { credits: 0, per: "request" } });
    expect(await a.charge()).toBeNull();
  });

  it("refuses a charge past the allowance with quota_exceeded and a Retry-After until the reset", async () => {
    const { account: a } = account(3);
    await a.charge();
    const refusal = await a.charge().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(Refusal);
    expect(isApiError(refusal) && refusal.kind).toBe("quota_exceeded");
    const seconds = Math.ceil((Date.UTC(2026, 11, 1) - NOW) / 1000);
    expect((refusal as Refusal).headers).toEqual({ "Retry-After": String(seconds) });
  });

  it("says so, with a Retry-After of seconds, when credits held by calls in flight would cover the charge", async () => {
    const { account: a } = account(3, { price: PER_ASSET });
    await a.hold(3);
    const refusal = (await a.charge(1).catch((error: unknown) => error)) as Refusal;
    expect(refusal.clientMessage).toMatch(/held by requests still in flight/);
    expect(refusal.headers).toEqual({ "Retry-After": "2" });
  });

  it("gives a charge back whole when its call fails", async () => {
    const { account: a, events } = account(10);
    const charge = await a.charge();
    await a.refund(charge);
    expect(a.currentQuota.used).toBe(0);
    void a.finish(new Response(null, { status: 502 }));
    expect(events[0]).toMatchObject({ quotaSpent: 0, error: true });
  });

  it("holds the most a call can cost and settles to what it got", async () => {
    const { account: a, events } = account(10, { price: PER_ASSET });
    const hold = await a.hold(5);
    expect(a.currentQuota.used).toBe(5);
    await a.settle(hold, 2);
    expect(a.currentQuota.used).toBe(2);
    void a.finish(new Response("{}"));
    expect(events[0]).toMatchObject({ quotaSpent: 2 });
  });

  it("counts what the cache answered as Platform credits saved, free", async () => {
    const { account: a, events } = account(10);
    a.hit();
    await a.answeredWithoutCall(1);
    await a.answeredWithoutCall(1, { known: false });
    void a.finish(new Response("{}"));
    expect(events[0]).toMatchObject({ cacheHit: true, quotaSpent: 0, quotaSaved: 2 });
  });

  it("saves no Platform credits on a legacy upstream", async () => {
    const { account: a, events } = account(10, { platform: false });
    a.hit();
    await a.answeredWithoutCall(1);
    void a.finish(new Response("{}"));
    expect(events[0]).toMatchObject({ cacheHit: true, quotaSaved: 0 });
  });

  it("charges what the cache answered when hits are charged", async () => {
    const { account: a, events } = account(10, { hitsCharged: true });
    await a.answeredWithoutCall(1);
    void a.finish(new Response("{}"));
    expect(events[0]).toMatchObject({ quotaSpent: 2, quotaSaved: 0 });
  });

  it("answers with its quota's RateLimit headers and names an unmatched request so", () => {
    const clock = new ManualClock(NOW);
    const events: UsageEvent[] = [];
    const unmatched = new RequestAccount(
      tenant(10),
      { used: 4, allowance: 10, resetsAt: Date.UTC(2026, 11, 1) },
      {
        ledger: () => memoryLedgers()("tnt_a"),
        charge: () => Promise.reject(new Error("a free request charges nothing")),
        clock,
        holdMs: 1000,
        hitsCharged: false,
        remember: () => undefined,
        record: (event) => (events.push(event), null),
      },
    );
    const response = new Response("{}", { status: 404 });
    void unmatched.finish(response);
    expect(response.headers.get("RateLimit")).toMatch(/^"quota";r=6;t=\d+$/);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(events[0]).toMatchObject({ operation: "no_route", error: true });
  });

  it("leaves a hold its settlement could not reach to the ledger's alarm, and still answers", async () => {
    const {
      account: a,
      ledgers,
      events,
    } = account(10, {
      price: PER_ASSET,
      ledger: (client) => ({ ...client, settle: () => Promise.reject(new Error("object unreachable")) }),
    });
    const hold = await a.hold(4);
    await a.settle(hold, 1);
    expect(ledgers.balances.get("tnt_a")?.held()).toBe(4);
    void a.finish(new Response("{}"));
    // Counted as spent (the hold stands until its alarm), never thrown at the caller.
    expect(events[0]).toMatchObject({ quotaSpent: 4 });
  });
});
