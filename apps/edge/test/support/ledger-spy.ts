import { countedLedger, type LedgerClient, type Ledgers } from "../../src/ledger/ledgers";

/** The ledger calls the edge made, by method, in the order made. */
export type LedgerCalls = Array<keyof LedgerClient>;

/** Wraps the tenants' ledgers so every call is written down in `calls` before it is made. */
export function spyOnLedgers(calls: LedgerCalls): (ledgers: Ledgers) => Ledgers {
  return (ledgers) => (tenantId) => countedLedger(ledgers(tenantId), (method) => calls.push(method));
}
