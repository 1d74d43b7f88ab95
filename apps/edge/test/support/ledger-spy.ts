import type { LedgerClient, Ledgers } from "../../src/ledger/ledgers";

/** The ledger calls the edge made, by method, in the order made. */
export type LedgerCalls = Array<keyof LedgerClient>;

/** Wraps the tenants' ledgers so every call is written down in `calls` before it is made. */
export function spyOnLedgers(calls: LedgerCalls): (ledgers: Ledgers) => Ledgers {
  return (ledgers) => (tenantId) => {
    const client = ledgers(tenantId);
    return {
      charge: (request) => (calls.push("charge"), client.charge(request)),
      settle: (request) => (calls.push("settle"), client.settle(request)),
      refund: (request) => (calls.push("refund"), client.refund(request)),
      read: (request) => (calls.push("read"), client.read(request)),
      configure: (request) => (calls.push("configure"), client.configure(request)),
      absorb: (request) => (calls.push("absorb"), client.absorb(request)),
      erase: () => (calls.push("erase"), client.erase()),
    };
  };
}
