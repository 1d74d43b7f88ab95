import type { TenantLedger } from "./tenant-ledger";

// How the edge reaches each tenant's ledger object. A stub is made per request: workerd ties a
// stub to the request that made it, and another request's call through it fails ("Cannot
// perform I/O on behalf of a different request"). The object's id is pure and kept.

/** The calls a tenant's ledger answers: Workers RPC on its object, or a test's stand-in. */
export type LedgerClient = Pick<
  TenantLedger,
  "charge" | "settle" | "refund" | "read" | "configure" | "absorb" | "erase"
>;

export type Ledgers = (tenantId: string) => LedgerClient;

const KEPT_IDS = 1024;

/** The tenants' ledger objects in `namespace`, one per tenant id (made on first use). */
export function durableLedgers(namespace: DurableObjectNamespace<TenantLedger>): Ledgers {
  const ids = new Map<string, DurableObjectId>();
  return (tenantId) => {
    let id = ids.get(tenantId);
    if (id === undefined) {
      if (ids.size >= KEPT_IDS) ids.clear();
      id = namespace.idFromName(tenantId);
      ids.set(tenantId, id);
    }
    return namespace.get(id);
  };
}

/** `client` with every call counted first, by method (the X-Ledger-Calls answer header). */
export function countedLedger(
  client: LedgerClient,
  count: (method: keyof LedgerClient) => void,
): LedgerClient {
  return {
    charge: (request) => (count("charge"), client.charge(request)),
    settle: (request) => (count("settle"), client.settle(request)),
    refund: (request) => (count("refund"), client.refund(request)),
    read: (request) => (count("read"), client.read(request)),
    configure: (request) => (count("configure"), client.configure(request)),
    absorb: (request) => (count("absorb"), client.absorb(request)),
    erase: () => (count("erase"), client.erase()),
  };
}
