import { bytesEqual, type Clock } from "@scangate/core/http";
import type { TenantRow } from "../db/schema";
import type { TenantStore } from "../tenants/store";
import type { Defer } from "../db/statement-meter";
import { secretMatchesHash } from "./secrets";
import type { FailedAuthentications } from "./failed-authentications";
import type { PlatformTokenAuthenticator } from "./token-auth";

export type AuthOutcome =
  | { ok: true; tenant: TenantRow }
  | { ok: false; reason: "unknown_api_id" | "wrong_secret" | "disabled" };

const MAX_CACHED_TENANTS = 10_000;

/**
 * A row older than this share of its time in memory is read again in the background while it
 * still answers, so a busy tenant's requests do not all wait on the read when the row expires.
 */
const REFRESH_AHEAD_SHARE = 0.8;

const encoder = new TextEncoder();

interface CachedTenant {
  row: TenantRow;
  loadedAt: number;
  /**
   * The secret that last matched `row.secretHash`, kept only as long as the row itself: a caller
   * presenting it again is compared byte for byte in constant time instead of hashed again
   * (hashing is the largest cost of a cache hit). A rotated or disabled tenant reloads the row,
   * and the remembered secret goes with the old entry.
   */
  verified?: Uint8Array;
}

/**
 * Checks tenant credentials. Tenant rows are kept in memory for at most `ttlMs` (≤ 5 s), so the
 * hot path skips D1 while a disabled, deleted or rotated credential stops working everywhere
 * within that time. This isolate drops its own entry at once when the admin API changes it.
 */
export class TenantAuthenticator {
  private readonly cache = new Map<string, CachedTenant>();
  private readonly loading = new Map<string, Promise<CachedTenant | null>>();

  constructor(
    private readonly store: TenantStore,
    private readonly clock: Clock,
    private readonly ttlMs: number,
    /** The tenants' Platform bearer tokens, forgotten with the tenant's Basic credential. */
    readonly tokens: PlatformTokenAuthenticator,
    /** Credentials refused lately, and addresses past their failure limit. */
    readonly failures: FailedAuthentications,
  ) {}

  /**
   * `defer` keeps a background re-read of the tenant's row alive (the request's `waitUntil`);
   * without it the row is only read again once it has expired.
   */
  async authenticate(apiId: string, secret: string, defer?: Defer): Promise<AuthOutcome> {
    const entry = await this.lookup(apiId, defer);
    if (!entry) return { ok: false, reason: "unknown_api_id" };
    const { row } = entry;
    const now = this.clock.now();
    const presented = encoder.encode(secret);
    let matches = entry.verified !== undefined && bytesEqual(entry.verified, presented);
    if (!matches && (await secretMatchesHash(secret, row.secretHash))) {
      matches = true;
      entry.verified = presented;
    }
    if (!matches && row.previousSecretHash && (row.previousSecretExpiresAt ?? 0) > now) {
      matches = await secretMatchesHash(secret, row.previousSecretHash);
    }
    if (!matches) return { ok: false, reason: "wrong_secret" };
    // Only someone holding the secret learns that the tenant is disabled.
    if (row.disabled) return { ok: false, reason: "disabled" };
    return { ok: true, tenant: row };
  }

  /**
   * The tenant whose row this isolate holds, unexpired and enabled, when `secret` is the one that
   * last matched it; null for anything else, which `authenticate` decides. Synchronous and
   * without D1: a credential known this way passes an address past its failure limit.
   */
  known(apiId: string, secret: string, defer: Defer): TenantRow | null {
    const entry = this.fresh(apiId, defer);
    if (!entry?.verified || entry.row.disabled) return null;
    return bytesEqual(entry.verified, encoder.encode(secret)) ? entry.row : null;
  }

  /**
   * Forgets the tenant's credentials in this isolate: its Basic row and its Platform tokens, and
   * every credential refused lately (one of them may be this tenant's, good from now on).
   */
  invalidate(apiId: string): void {
    this.cache.delete(apiId);
    this.loading.delete(apiId);
    this.tokens.invalidateTenant(apiId);
    this.failures.forgetRefusals();
  }

  private async lookup(apiId: string, defer: Defer | undefined): Promise<CachedTenant | null> {
    // Concurrent requests of one tenant that the cache cannot answer share one D1 read.
    return this.fresh(apiId, defer) ?? this.loading.get(apiId) ?? this.shared(apiId, this.clock.now());
  }

  /** The entry held for `apiId` within its time in memory, read again ahead of its end (`defer`). */
  private fresh(apiId: string, defer: Defer | undefined): CachedTenant | null {
    const now = this.clock.now();
    const cached = this.cache.get(apiId);
    if (!cached || now - cached.loadedAt >= this.ttlMs) return null;
    if (defer && now - cached.loadedAt >= this.ttlMs * REFRESH_AHEAD_SHARE && !this.loading.has(apiId)) {
      // A failed re-read leaves the row to expire as usual; the next request reads it again.
      defer(() => this.shared(apiId, now).catch(() => undefined));
    }
    return cached;
  }

  /** One read of the tenant's row, shared by whoever asks while it is under way. */
  private async shared(apiId: string, now: number): Promise<CachedTenant | null> {
    const load = this.load(apiId, now);
    this.loading.set(apiId, load);
    try {
      return await load;
    } finally {
      if (this.loading.get(apiId) === load) this.loading.delete(apiId);
    }
  }

  private async load(apiId: string, now: number): Promise<CachedTenant | null> {
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
    const entry: CachedTenant = { row, loadedAt: now };
    // A secret that matched the same hash still does; a rotation changes the hash.
    const previous = this.cache.get(apiId);
    if (previous?.verified && previous.row.secretHash === row.secretHash) entry.verified = previous.verified;
    this.cache.delete(apiId);
    this.cache.set(apiId, entry);
    return entry;
  }
}
