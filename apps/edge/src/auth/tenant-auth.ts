import type { Clock } from "../clock";
import type { TenantRow } from "../db/schema";
import type { TenantStore } from "../tenants/store";
import { secretMatchesHash } from "./secrets";

export type AuthOutcome =
  | { ok: true; tenant: TenantRow }
  | { ok: false; reason: "unknown_api_id" | "wrong_secret" | "disabled" };

const MAX_CACHED_TENANTS = 10_000;

/**
 * Checks tenant credentials. Tenant rows are kept in memory for at most `ttlMs` (≤ 5 s), so the
 * hot path skips D1 while a disabled, deleted or rotated credential stops working everywhere
 * within that time. This isolate drops its own entry at once when the admin API changes it.
 */
export class TenantAuthenticator {
  private readonly cache = new Map<string, { row: TenantRow; loadedAt: number }>();

  constructor(
    private readonly store: TenantStore,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  async authenticate(apiId: string, secret: string): Promise<AuthOutcome> {
    const row = await this.lookup(apiId);
    if (!row) return { ok: false, reason: "unknown_api_id" };
    const now = this.clock.now();
    let matches = await secretMatchesHash(secret, row.secretHash);
    if (!matches && row.previousSecretHash && (row.previousSecretExpiresAt ?? 0) > now) {
      matches = await secretMatchesHash(secret, row.previousSecretHash);
    }
    if (!matches) return { ok: false, reason: "wrong_secret" };
    // Only someone holding the secret learns that the tenant is disabled.
    if (row.disabled) return { ok: false, reason: "disabled" };
    return { ok: true, tenant: row };
  }

  invalidate(apiId: string): void {
    this.cache.delete(apiId);
  }

  private async lookup(apiId: string): Promise<TenantRow | null> {
    const now = this.clock.now();
    const cached = this.cache.get(apiId);
    if (cached && now - cached.loadedAt < this.ttlMs) return cached.row;
    // Unknown ids are not remembered: a tenant created a moment ago must work at once.
    const row = await this.store.getByApiId(apiId);
    if (!row) {
      this.cache.delete(apiId);
      return null;
    }
    if (this.cache.size >= MAX_CACHED_TENANTS) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    this.cache.delete(apiId);
    this.cache.set(apiId, { row, loadedAt: now });
    return row;
  }
}
