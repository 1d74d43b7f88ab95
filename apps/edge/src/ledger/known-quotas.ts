import { setBounded } from "../http/bounded-memo";
import type { QuotaState } from "../tenants/periods";

// The last ledger answer for each tenant in this isolate: what a request that does not ask the
// ledger (a free cache hit) shows in its RateLimit headers. Read again in the background once
// older than `refreshMs`, so another isolate's charges show within seconds.

const MAX_KNOWN = 10_000;

export class KnownQuotas {
  private readonly known = new Map<string, { readonly quota: QuotaState; readonly at: number }>();

  constructor(readonly refreshMs: number) {}

  get(tenantId: string) {
    return this.known.get(tenantId);
  }

  remember(tenantId: string, quota: QuotaState, at: number): void {
    this.known.delete(tenantId);
    setBounded(this.known, tenantId, { quota, at }, MAX_KNOWN);
  }

  forget(tenantId: string): void {
    this.known.delete(tenantId);
  }
}
