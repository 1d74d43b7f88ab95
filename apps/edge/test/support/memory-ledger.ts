import { Balance, type LedgerTerms } from "../../src/ledger/balance";
import type { LedgerClient, Ledgers } from "../../src/ledger/ledgers";

/**
 * Tenants' ledgers in this test's memory, on the same arithmetic as the ledger objects
 * (ledger/balance.ts), for unit tests of what charges them. `wallNow` is the holds' clock.
 */
export function memoryLedgers(wallNow: () => number = () => Date.now()): Ledgers & {
  balances: Map<string, Balance>;
} {
  const balances = new Map<string, Balance>();
  let holds = 0;
  const ledgers = (tenantId: string): LedgerClient => {
    const open = (terms: LedgerTerms, now: number) => {
      let balance = balances.get(tenantId);
      if (!balance) {
        balance = Balance.opened(terms, now);
        balances.set(tenantId, balance);
      } else balance.adopt(terms, now);
      return balance;
    };
    return {
      charge: (requests) =>
        Promise.resolve(
          requests.map(({ terms, cost, now, reserve, holdMs }) => {
            const balance = open(terms, now);
            if (holdMs === undefined) return balance.spend(cost, now, reserve ?? 0);
            const holdId = `hold-${++holds}`;
            const spent = balance.hold(holdId, cost, now, wallNow() + holdMs);
            return spent.ok ? { ...spent, holdId } : spent;
          }),
        ),
      settle: ({ holdId, spent, now }) => {
        const balance = balances.get(tenantId);
        return Promise.resolve(balance?.settle(holdId, spent, now) ? balance.quota() : null);
      },
      refund: ({ cost, resetsAt, now }) => {
        const balance = balances.get(tenantId);
        if (!balance) return Promise.resolve({ used: 0, allowance: 0, resetsAt });
        balance.refund(cost, resetsAt, now);
        return Promise.resolve(balance.quota());
      },
      read: ({ terms, now }) => Promise.resolve(open(terms, now).reading(now)),
      configure: ({ terms, now, used }) => {
        const balance = open(terms, now);
        if (used !== undefined) balance.setUsed(used, now);
        return Promise.resolve(balance.reading(now));
      },
      absorb: ({ terms, now, balance: imported }) => {
        const balance = open(terms, now);
        balance.absorb(imported, now);
        return Promise.resolve(balance.reading(now));
      },
      erase: () => {
        balances.delete(tenantId);
        return Promise.resolve();
      },
    };
  };
  return Object.assign(ledgers, { balances });
}
