import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { LedgerTerms } from "../src/ledger/balance";
import type { ChargeAnswer, ChargeRequest, TenantLedger } from "../src/ledger/tenant-ledger";
import { chargeOne } from "./support/charge-one";
import { waitFor } from "./support/wait-for";

// Each tenant's ledger object: the only writer of its balance. These drive the object itself
// through its stub, as the edge does, and look inside it where the edge cannot.

const NOW = Date.UTC(2026, 10, 10, 12);
const terms = (allowance: number, version = 1): LedgerTerms => ({ allowance, period: "monthly", version });

function ledgerOf(name: string) {
  return env.LEDGER.get(env.LEDGER.idFromName(`${name}-${crypto.randomUUID()}`));
}

describe("a tenant's ledger object", () => {
  it("is made on first use, with nothing used", async () => {
    const ledger = ledgerOf("fresh");
    expect(await ledger.read({ terms: terms(7), now: NOW })).toEqual({
      quota: { used: 0, allowance: 7, resetsAt: Date.UTC(2026, 11, 1) },
      held: 0,
    });
  });

  it("lets exactly the allowance through 500 concurrent charges", { timeout: 60_000 }, async () => {
    const ledger = ledgerOf("concurrent");
    const answers = await Promise.all(
      Array.from({ length: 500 }, () => chargeOne(ledger, { terms: terms(20), cost: 1, now: NOW })),
    );
    expect(answers.filter((a) => a.ok)).toHaveLength(20);
    expect((await ledger.read({ terms: terms(20), now: NOW })).quota.used).toBe(20);
  });

  it(
    "never overspends a small balance under 500 concurrent holds, and settles each once",
    { timeout: 60_000 },
    async () => {
      const ledger = ledgerOf("holds");
      const answers = await Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          chargeOne(ledger, { terms: terms(30), cost: 1 + (i % 3), now: NOW, holdMs: 60_000 }),
        ),
      );
      const held = answers.flatMap((a) => (a.ok && a.holdId ? [a.holdId] : []));
      const reading = await ledger.read({ terms: terms(30), now: NOW });
      expect(reading.quota.used).toBeLessThanOrEqual(30);
      expect(reading.quota.used).toBe(reading.held);
      // Each hold settles to nothing spent: the balance returns to zero, and a second settlement gives nothing.
      await Promise.all(held.map((holdId) => ledger.settle({ holdId, spent: 0, now: NOW })));
      expect(await Promise.all(held.map((holdId) => ledger.settle({ holdId, spent: 0, now: NOW })))).toEqual(
        held.map(() => null),
      );
      expect(await ledger.read({ terms: terms(30), now: NOW })).toMatchObject({
        quota: { used: 0 },
        held: 0,
      });
    },
  );

  it("keeps its balance and holds in its own storage across a restart", async () => {
    const ledger = ledgerOf("stored");
    await chargeOne(ledger, { terms: terms(10), cost: 3, now: NOW });
    const hold = await chargeOne(ledger, { terms: terms(10), cost: 2, now: NOW, holdMs: 60_000 });
    await runInDurableObject(ledger, async (instance: TenantLedger, state) => {
      const stored = await state.storage.get<{ state: { used: number }; holds: { credits: number }[] }>(
        "ledger",
      );
      expect(stored?.state.used).toBe(5);
      expect(stored?.holds.map((h) => h.credits)).toEqual([2]);
      expect(instance).toBeDefined();
    });
    expect(hold.ok && hold.holdId).toBeTruthy();
  });

  it("releases a hold whose request died with its alarm, giving its credits back", async () => {
    const ledger = ledgerOf("alarm");
    // Long enough that a loaded machine still runs the early alarm below before the hold expires.
    const hold = await chargeOne(ledger, { terms: terms(10), cost: 4, now: NOW, holdMs: 1500 });
    expect(hold.ok).toBe(true);
    expect((await ledger.read({ terms: terms(10), now: NOW })).quota.used).toBe(4);
    await runInDurableObject(ledger, async (_instance: TenantLedger, state) => {
      expect(await state.storage.getAlarm()).toBeGreaterThan(Date.now());
    });
    // Run early, the alarm releases nothing and waits for the hold's expiry.
    expect(await runDurableObjectAlarm(ledger)).toBe(true);
    expect((await ledger.read({ terms: terms(10), now: NOW })).quota.used).toBe(4);
    await waitFor(async () => (await ledger.read({ terms: terms(10), now: NOW })).quota.used === 0);
    expect(await ledger.read({ terms: terms(10), now: NOW })).toMatchObject({ quota: { used: 0 }, held: 0 });
    // The request that took it settling late gives nothing more back.
    expect(
      await ledger.settle({ holdId: hold.ok ? (hold.holdId ?? "") : "", spent: 1, now: NOW }),
    ).toBeNull();
  });

  it("keeps no alarm when it holds nothing", async () => {
    const ledger = ledgerOf("no-alarm");
    const hold = await chargeOne(ledger, { terms: terms(10), cost: 2, now: NOW, holdMs: 60_000 });
    await ledger.settle({ holdId: hold.ok ? (hold.holdId ?? "") : "", spent: 2, now: NOW });
    await runInDurableObject(ledger, async (_instance: TenantLedger, state) => {
      expect(await state.storage.getAlarm()).toBeNull();
    });
  });

  it("takes the admin's newer terms and a corrected used, and ignores older terms after them", async () => {
    const ledger = ledgerOf("terms");
    await chargeOne(ledger, { terms: terms(5, 1), cost: 5, now: NOW });
    await ledger.configure({ terms: terms(8, 2), now: NOW, used: 1 });
    expect((await chargeOne(ledger, { terms: terms(5, 1), cost: 7, now: NOW })).ok).toBe(true);
    expect((await ledger.read({ terms: terms(5, 1), now: NOW })).quota).toMatchObject({
      used: 8,
      allowance: 8,
    });
  });

  it("adds an imported balance once, whatever how often it is handed over", async () => {
    const ledger = ledgerOf("import");
    const balance = { used: 3, resetsAt: Date.UTC(2026, 11, 1), holds: [] };
    await ledger.absorb({ terms: terms(10), now: NOW, importId: "d1:x", balance });
    await ledger.absorb({ terms: terms(10), now: NOW, importId: "d1:x", balance });
    expect((await ledger.read({ terms: terms(10), now: NOW })).quota.used).toBe(3);
  });

  it("answers a lone charge, as the release before batches sends it, in its own shape", async () => {
    const ledger = ledgerOf("lone");
    const previousRelease = ledger as unknown as { charge(request: ChargeRequest): Promise<ChargeAnswer> };
    expect(await previousRelease.charge({ terms: terms(1), cost: 1, now: NOW })).toMatchObject({
      ok: true,
      quota: { used: 1, allowance: 1 },
    });
    expect((await previousRelease.charge({ terms: terms(1), cost: 1, now: NOW })).ok).toBe(false);
    expect((await ledger.read({ terms: terms(1), now: NOW })).quota.used).toBe(1);
  });

  it("forgets everything when the tenant is deleted", async () => {
    const ledger = ledgerOf("erase");
    await chargeOne(ledger, { terms: terms(10), cost: 3, now: NOW });
    await ledger.erase();
    expect((await ledger.read({ terms: terms(10), now: NOW })).quota.used).toBe(0);
  });
});
