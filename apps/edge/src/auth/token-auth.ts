import type { Clock } from "@scangate/core/http";
import type { TenantRow } from "../db/schema";
import type { PlatformTokenStore, TokenHolder } from "../tenants/platform-tokens";
import { BoundedMemo } from "../http/bounded-memo";
import { hashSecret } from "./secrets";
import type { Defer } from "../db/statement-meter";

export type TokenAuthOutcome =
  | { ok: true; tenant: TenantRow }
  | { ok: false; reason: "unknown_token" | "grace_ended" | "disabled" };

const MAX_CACHED_TOKENS = 10_000;
/** As for Basic credentials: a busy token's row is read again behind the answer from 80 % of its hold. */
const REFRESH_AHEAD_SHARE = 0.8;

interface CachedHolder {
  holder: TokenHolder;
  loadedAt: number;
}

/**
 * Checks Platform bearer tokens. The presented token is hashed and its row (with the tenant's)
 * kept in memory for at most `ttlMs` (≤ 5 s), the same bound as Basic credentials: a revoked or
 * rotated-out token, or a disabled or deleted tenant, stops working everywhere within that
 * time; this isolate forgets a tenant's tokens at once when the admin API changes them. A grace
 * period ends on the clock, not on a reload.
 */
export class PlatformTokenAuthenticator {
  private readonly cache = new Map<string, CachedHolder>();
  private readonly loading = new Map<string, Promise<CachedHolder | null>>();
  /** Bumped by every invalidation: a read that started before one is answered but not kept. */
  private generation = 0;

  constructor(
    private readonly store: PlatformTokenStore,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  /** Hashes of tokens presented lately: a busy client's token is not hashed on every request. */
  private readonly hashes = new BoundedMemo<string>(1024, 512);

  async authenticate(token: string, defer?: Defer): Promise<TokenAuthOutcome> {
    const hash = this.hashes.get(token) ?? this.hashes.remember(token, await hashSecret(token));
    const entry = await this.lookup(hash, defer);
    if (!entry) return { ok: false, reason: "unknown_token" };
    const { tenant, expiresAt } = entry.holder;
    if (expiresAt !== null && expiresAt <= this.clock.now()) return { ok: false, reason: "grace_ended" };
    if (tenant.disabled) return { ok: false, reason: "disabled" };
    return { ok: true, tenant };
  }

  /**
   * The tenant of a token this isolate holds a fresh, usable row for; null for anything else,
   * which `authenticate` decides. Synchronous and without D1.
   */
  known(token: string): TenantRow | null {
    const hash = this.hashes.get(token);
    if (hash === undefined) return null;
    const cached = this.cache.get(hash);
    if (!cached || this.clock.now() - cached.loadedAt >= this.ttlMs) return null;
    const { tenant, expiresAt } = cached.holder;
    if ((expiresAt !== null && expiresAt <= this.clock.now()) || tenant.disabled) return null;
    return tenant;
  }

  /** Forgets every token of the tenant with this API id (its tokens or the tenant changed). */
  invalidateTenant(apiId: string): void {
    for (const [hash, entry] of this.cache) {
      if (entry.holder.tenant.apiId === apiId) this.cache.delete(hash);
    }
    this.loading.clear();
    this.generation += 1;
  }

  private async lookup(hash: string, defer: Defer | undefined): Promise<CachedHolder | null> {
    const now = this.clock.now();
    const cached = this.cache.get(hash);
    if (cached && now - cached.loadedAt < this.ttlMs) {
      if (defer && now - cached.loadedAt >= this.ttlMs * REFRESH_AHEAD_SHARE && !this.loading.has(hash)) {
        defer(() => this.shared(hash, now).catch(() => undefined));
      }
      return cached;
    }
    return this.loading.get(hash) ?? this.shared(hash, now);
  }

  /** One read of the token's row, shared by whoever asks while it is under way. */
  private async shared(hash: string, now: number): Promise<CachedHolder | null> {
    const load = this.load(hash, now);
    this.loading.set(hash, load);
    try {
      return await load;
    } finally {
      if (this.loading.get(hash) === load) this.loading.delete(hash);
    }
  }

  private async load(hash: string, now: number): Promise<CachedHolder | null> {
    const generation = this.generation;
    // Unknown tokens are not remembered: a token issued a moment ago must work at once.
    const holder = await this.store.holderOf(hash);
    this.cache.delete(hash);
    if (!holder) return null;
    if (generation !== this.generation) return { holder, loadedAt: now };
    if (this.cache.size >= MAX_CACHED_TOKENS) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    const entry: CachedHolder = { holder, loadedAt: now };
    this.cache.set(hash, entry);
    return entry;
  }
}
