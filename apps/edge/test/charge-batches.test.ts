import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { LedgerTerms } from "../src/ledger/balance";
import { ChargeBatches } from "../src/ledger/charge-batches";
import type { LedgerClient } from "../src/ledger/ledgers";
import type { ChargeAnswer, ChargeRequest } from "../src/ledger/tenant-ledger";
import { memoryLedgers } from "./support/memory-ledger";

// A tenant's charges in one isolate go to its ledger in batches: one at once when none is in
// flight, and those asked for meanwhile together in the next call. Each is answered as if alone.

const NOW = Date.UTC(2026, 10, 10, 12);
const terms = (allowance: number): LedgerTerms => ({ allowance, period: "monthly", version: 1 });
const keepNothing = () => undefined;

/** `client` whose charge calls answer only when the test lets them; each call's size is recorded. */
function heldLedger(client: LedgerClient) {
  const sizes: number[] = [];
  const release: Array<(failure?: Error) => void> = [];
  const ledger: LedgerClient = {
    ...client,
    charge: (requests) => {
      sizes.push(requests.length);
      return new Promise<ChargeAnswer[]>((resolve, reject) => {
        release.push((failure) => (failure ? reject(failure) : resolve(client.charge(requests))));
      });
    },
  };
  return { ledger, sizes, release };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("a tenant's charges in batches", () => {
  it("sends a charge at once, and the ones asked for meanwhile together in the next call", async () => {
    const held = heldLedger(memoryLedgers()("t"));
    const batches = new ChargeBatches();
    const charge = (cost: number) =>
      batches.charge("t", () => held.ledger, { terms: terms(100), cost, now: NOW }, keepNothing);
    const first = charge(1);
    const waiting = [charge(2), charge(3), charge(4)];
    await settled();
    expect(held.sizes).toEqual([1]);
    held.release[0]?.();
    expect(await first).toMatchObject({ ok: true, quota: { used: 1 } });
    await settled();
    expect(held.sizes).toEqual([1, 3]);
    held.release[1]?.();
    // In the order asked for, each with the balance as its own charge left it.
    expect((await Promise.all(waiting)).map((a) => a.quota.used)).toEqual([3, 6, 10]);
  });

  it("lets exactly the allowance through 500 concurrent charges, in far fewer calls", async () => {
    const client = memoryLedgers()("t");
    let calls = 0;
    const ledger: LedgerClient = {
      ...client,
      charge: async (requests) => {
        calls += 1;
        await settled();
        return client.charge(requests);
      },
    };
    const batches = new ChargeBatches();
    const answers = await Promise.all(
      Array.from({ length: 500 }, () =>
        batches.charge("t", () => ledger, { terms: terms(20), cost: 1, now: NOW }, keepNothing),
      ),
    );
    expect(answers.filter((a) => a.ok)).toHaveLength(20);
    expect((await client.read({ terms: terms(20), now: NOW })).quota.used).toBe(20);
    // One alone, then the 499 that waited, at most 64 to a call.
    expect(calls).toBe(1 + Math.ceil(499 / 64));
  });

  it("fails every charge a failed call carried, and the next charge goes on", async () => {
    const held = heldLedger(memoryLedgers()("t"));
    const batches = new ChargeBatches();
    const charge = () =>
      batches
        .charge("t", () => held.ledger, { terms: terms(10), cost: 1, now: NOW }, keepNothing)
        .catch((error: unknown) => error);
    const first = charge();
    const carried = [charge(), charge()];
    await settled();
    held.release[0]?.();
    await first;
    await settled();
    held.release[1]?.(new Error("Durable Object is overloaded"));
    for (const outcome of await Promise.all(carried)) expect(outcome).toBeInstanceOf(Error);
    const next = charge();
    await settled();
    held.release[2]?.();
    expect(await next).toMatchObject({ ok: true, quota: { used: 2 } });
  });

  it("fails every charge of a call the ledger answered for fewer charges than it carried", async () => {
    const client = memoryLedgers()("t");
    const ledger: LedgerClient = { ...client, charge: () => Promise.resolve([]) };
    const failed = await new ChargeBatches()
      .charge("t", () => ledger, { terms: terms(10), cost: 1, now: NOW }, keepNothing)
      .catch((error: unknown) => error);
    expect(String(failed)).toContain("the ledger answered 0 of 1 charges");
  });

  it("gives up waiting on a call that does not end, and the charge fails as an unreachable ledger's", async () => {
    const held = heldLedger(memoryLedgers()("t"));
    const batches = new ChargeBatches(50);
    const charge = () =>
      batches.charge("t", () => held.ledger, { terms: terms(10), cost: 1, now: NOW }, keepNothing);
    const first = charge();
    await expect(charge()).rejects.toThrow("did not end in time");
    expect(held.sizes).toEqual([1]);
    // The charge that gave up is not sent later: the next call carries only the next charge.
    held.release[0]?.();
    await first;
    const next = charge();
    await settled();
    expect(held.sizes).toEqual([1, 1]);
    held.release[1]?.();
    expect(await next).toMatchObject({ ok: true, quota: { used: 2 } });
  });

  it("keeps each tenant's charges apart, and each call alive for the requests it carries", async () => {
    const ledgers = memoryLedgers();
    const a = heldLedger(ledgers("a"));
    const b = heldLedger(ledgers("b"));
    const kept: Array<Promise<unknown>> = [];
    const batches = new ChargeBatches();
    const request: ChargeRequest = { terms: terms(10), cost: 1, now: NOW };
    const charges = [
      batches.charge(
        "a",
        () => a.ledger,
        request,
        (work) => kept.push(work),
      ),
      batches.charge(
        "b",
        () => b.ledger,
        request,
        (work) => kept.push(work),
      ),
    ];
    await settled();
    expect([a.sizes, b.sizes, kept.length]).toEqual([[1], [1], 2]);
    a.release[0]?.();
    b.release[0]?.();
    expect((await Promise.all(charges)).map((answer) => answer.quota.used)).toEqual([1, 1]);
    await Promise.all(kept);
  });

  it("gives each hold of a batch its own id, on the tenant's ledger object", async () => {
    const stub = env.LEDGER.get(env.LEDGER.idFromName("charge-batches-holds"));
    const answers = await stub.charge(
      Array.from({ length: 5 }, () => ({ terms: terms(4), cost: 1, now: NOW, holdMs: 60_000 })),
    );
    const ids = answers.flatMap((answer) => (answer.ok && answer.holdId ? [answer.holdId] : []));
    expect(new Set(ids).size).toBe(4);
    expect(answers.map((answer) => answer.ok)).toEqual([true, true, true, true, false]);
    expect(await stub.read({ terms: terms(4), now: NOW })).toMatchObject({ quota: { used: 4 }, held: 4 });
  });
});
