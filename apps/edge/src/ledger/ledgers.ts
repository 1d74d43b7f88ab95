import type { TenantLedger, TenantLedgerApi } from "./tenant-ledger";

// How the edge reaches each tenant's ledger object: one stub per tenant id, kept in the isolate.

/** The ledger calls as the edge makes them, on the tenant's object (or a test's stand-in). */
export type LedgerClient = TenantLedgerApi;

/** The ledger of a tenant, by its id. */
export type Ledgers = (tenantId: string) => LedgerClient;

const KEPT_STUBS = 1024;

/** The tenants' ledger objects in `namespace`, one per tenant id (made on first use). */
export function durableLedgers(namespace: DurableObjectNamespace<TenantLedger>): Ledgers {
  const stubs = new Map<string, LedgerClient>();
  return (tenantId) => {
    const known = stubs.get(tenantId);
    if (known) return known;
    if (stubs.size >= KEPT_STUBS) {
      const oldest = stubs.keys().next();
      if (!oldest.done) stubs.delete(oldest.value);
    }
    const stub = namespace.get(namespace.idFromName(tenantId)) as unknown as LedgerClient;
    stubs.set(tenantId, stub);
    return stub;
  };
}

/** `client` with every call counted first (the X-Ledger-Calls answer header). */
export function countedLedger(client: LedgerClient, count: () => void): LedgerClient {
  return {
    charge: (request) => (count(), client.charge(request)),
    settle: (request) => (count(), client.settle(request)),
    refund: (request) => (count(), client.refund(request)),
    read: (request) => (count(), client.read(request)),
    configure: (request) => (count(), client.configure(request)),
    absorb: (request) => (count(), client.absorb(request)),
    erase: () => (count(), client.erase()),
  };
}
