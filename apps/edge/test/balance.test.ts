import { describe, expect, it } from "vitest";
import { Balance, type LedgerTerms } from "../src/ledger/balance";

const NOV_10 = Date.UTC(2026, 10, 10, 12);
const DEC_1 = Date.UTC(2026, 11, 1);
const monthly = (allowance: number, version = 1): LedgerTerms => ({ allowance, period: "monthly", version });

describe("a tenant's balance", () => {
  it("spends within the allowance and refuses past it, saying what is held", () => {
    const balance = Balance.opened(monthly(3), NOV_10);
    expect(balance.spend(2, NOV_10).ok).toBe(true);
    expect(balance.hold("h", 1, NOV_10, 1000).ok).toBe(true);
    const refused = balance.spend(1, NOV_10);
    expect(refused).toEqual({ ok: false, quota: { used: 3, allowance: 3, resetsAt: DEC_1 }, held: 1 });
  });

  it("keeps a reserve unspent when asked", () => {
    const balance = Balance.opened(monthly(10), NOV_10);
    expect(balance.spend(5, NOV_10, 5).ok).toBe(true);
    expect(balance.spend(1, NOV_10, 5).ok).toBe(false);
    expect(balance.quota().used).toBe(5);
  });

  it("settles a hold to what its call spent, once", () => {
    const balance = Balance.opened(monthly(10), NOV_10);
    balance.hold("h", 5, NOV_10, 1000);
    expect(balance.settle("h", 2, NOV_10)).toBe(true);
    expect(balance.quota().used).toBe(2);
    expect(balance.settle("h", 0, NOV_10)).toBe(false);
    expect(balance.quota().used).toBe(2);
  });

  it("never settles a hold above what it held, nor below nothing", () => {
    const balance = Balance.opened(monthly(10), NOV_10);
    balance.hold("a", 3, NOV_10, 1000);
    balance.hold("b", 3, NOV_10, 1000);
    balance.settle("a", 99, NOV_10);
    balance.settle("b", -4, NOV_10);
    expect(balance.quota().used).toBe(3);
  });

  it("releases the holds of requests that died, giving their credits back", () => {
    const balance = Balance.opened(monthly(10), NOV_10);
    balance.hold("old", 4, NOV_10, 1000);
    balance.hold("new", 2, NOV_10, 5000);
    expect(balance.nextExpiry()).toBe(1000);
    expect(balance.releaseExpired(1000, NOV_10)).toBe(1);
    expect(balance.quota().used).toBe(2);
    expect(balance.nextExpiry()).toBe(5000);
  });

  it("starts a new period once the old one ends: nothing used, old holds give nothing back", () => {
    const balance = Balance.opened(monthly(2), NOV_10);
    balance.spend(1, NOV_10);
    balance.hold("h", 1, NOV_10, 1000);
    expect(balance.spend(1, NOV_10).ok).toBe(false);
    expect(balance.spend(1, DEC_1).ok).toBe(true);
    expect(balance.quota()).toEqual({ used: 1, allowance: 2, resetsAt: Date.UTC(2027, 0, 1) });
    expect(balance.settle("h", 0, DEC_1)).toBe(false);
    expect(balance.quota().used).toBe(1);
  });

  it("reads an ended period as a new one without changing anything", () => {
    const balance = Balance.opened(monthly(2), NOV_10);
    balance.spend(2, NOV_10);
    expect(balance.reading(DEC_1).quota.used).toBe(0);
    expect(balance.quota().used).toBe(2);
  });

  it("refunds into the period charged, never into a later one", () => {
    const balance = Balance.opened(monthly(5), NOV_10);
    balance.spend(3, NOV_10);
    balance.refund(1, Date.UTC(2026, 10, 1), NOV_10);
    expect(balance.quota().used).toBe(3);
    balance.refund(1, balance.quota().resetsAt, NOV_10);
    expect(balance.quota().used).toBe(2);
  });

  it("takes newer terms only: a request that read the row before an admin change cannot undo it", () => {
    const balance = Balance.opened(monthly(5, 10), NOV_10);
    balance.adopt(monthly(50, 20), NOV_10);
    expect(balance.quota().allowance).toBe(50);
    balance.adopt(monthly(5, 10), NOV_10);
    expect(balance.quota().allowance).toBe(50);
  });

  it("starts the new calendar when the period changes, keeping what was used", () => {
    const balance = Balance.opened(monthly(5, 1), NOV_10);
    balance.spend(2, NOV_10);
    balance.adopt({ allowance: 5, period: "daily", version: 2 }, NOV_10);
    expect(balance.quota()).toEqual({ used: 2, allowance: 5, resetsAt: Date.UTC(2026, 10, 11) });
  });

  it("adds what the old ledger held for the current period, and nothing of an ended one", () => {
    const balance = Balance.opened(monthly(10), NOV_10);
    balance.spend(1, NOV_10);
    balance.absorb(
      { used: 4, resetsAt: DEC_1, holds: [{ id: "x", credits: 2, resetsAt: DEC_1, expiresAt: 9 }] },
      NOV_10,
    );
    expect(balance.quota().used).toBe(5);
    expect(balance.held()).toBe(2);
    balance.absorb({ used: 7, resetsAt: Date.UTC(2026, 10, 1), holds: [] }, NOV_10);
    expect(balance.quota().used).toBe(5);
  });
});
