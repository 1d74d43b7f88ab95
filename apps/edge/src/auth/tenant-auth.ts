import { type Clock, textsEqual } from "@scangate/core/http";
import type { TenantRow } from "../db/schema";
import type { Defer } from "../db/statement-meter";
import { BoundedMemo, setBounded } from "../http/bounded-memo";
import type { PlatformTokenStore, TokenHolder } from "../tenants/platform-tokens";
import type { TenantStore } from "../tenants/store";
import type { FailedAuthentications } from "./failed-authentications";
import { hashSecret, secretMatchesHash } from "./secrets";

export type AuthRefusal = "unknown_api_id" | "wrong_secret" | "disabled";
export type TokenRefusal = "unknown_token" | "grace_ended" | "disabled";

export type AuthOutcome<Refusal = AuthRefusal> =
  | { ok: true; tenant: TenantRow }
  | { ok: false; reason: Refusal };

const MAX_HELD_ROWS = 10_000;

/**
 * A row older than this share of its time in memory is read again in the background while it
 * still answers, so a busy tenant's requests do not all wait on the read when the row expires.
 */
const REFRESH_AHEAD_SHARE = 0.8;

/**
 * Credential rows read from D1 by key and held in memory for at most `ttlMs` (≤ 5 s), so the
 * hot path skips D1 while a disabled, deleted or rotated credential stops working everywhere
 * within that time. Concurrent requests the memory cannot answer share one read. Unknown keys
 * are not remembered: a credential made a moment ago must work at once.
 */
class HeldRows<V> {
  private readonly held = new Map<string, { value: V; loadedAt: number }>();
  private readonly loading = new Map<string, Promise<V | null>>();
  /** Bumped by `forgetWhere`: a read that started before it is answered but not kept. */
  private generation = 0;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly read: (key: string) => Promise<V | null>,
  ) {}

  /**
   * The value held for `key` within its time in memory, else null. With `defer` (the request's
   * `waitUntil`), one past REFRESH_AHEAD_SHARE of its time is read again behind the answer.
   */
  fresh(key: string, defer?: Defer): V | null {
    const now = this.clock.now();
    const held = this.held.get(key);
    if (!held || now - held.loadedAt >= this.ttlMs) return null;
    if (defer && now - held.loadedAt >= this.ttlMs * REFRESH_AHEAD_SHARE && !this.loading.has(key)) {
      // A failed re-read leaves the row to expire as usual; the next request reads it again.
      defer(() => this.shared(key, now).catch(() => undefined));
    }
    return held.value;
  }

  /** The value of `key`: the one held, or one read shared by whoever asks while it is under way. */
  async get(key: string, defer?: Defer): Promise<V | null> {
    return this.fresh(key, defer) ?? this.loading.get(key) ?? this.shared(key, this.clock.now());
  }

  /** The value held for `key`, whatever its age. */
  peek(key: string): V | undefined {
    return this.held.get(key)?.value;
  }

  forget(key: string): void {
    this.held.delete(key);
    this.loading.delete(key);
  }

  /** Forgets the values `matches` picks, and every read under way. */
  forgetWhere(matches: (value: V) => boolean): void {
    for (const [key, held] of this.held) {
      if (matches(held.value)) this.held.delete(key);
    }
    this.loading.clear();
    this.generation += 1;
  }

  /** One read of `key` for whoever asks while it is under way; not kept if `forgetWhere` ran meanwhile. */
  private async shared(key: string, now: number): Promise<V | null> {
    const generation = this.generation;
    const load = this.read(key).then((value) => {
      this.held.delete(key);
      if (value && generation === this.generation) {
        setBounded(this.held, key, { value, loadedAt: now }, MAX_HELD_ROWS);
      }
      return value;
    });
    this.loading.set(key, load);
    try {
      return await load;
    } finally {
      if (this.loading.get(key) === load) this.loading.delete(key);
    }
  }
}

interface HeldTenant {
  readonly row: TenantRow;
  /**
   * The secret that last matched `row.secretHash`, kept only as long as the row itself: a caller
   * presenting it again is compared character by character in constant time instead of hashed again
   * (hashing is the largest cost of a cache hit). A rotated or disabled tenant reloads the row,
   * and the remembered secret goes with the old entry.
   */
  verified?: string;
}

/**
 * Checks tenant credentials, their rows held in memory at most `ttlMs` (≤ 5 s, HeldRows). This
 * isolate drops its own entry at once when the admin API changes it.
 */
export class TenantAuthenticator {
  private readonly rows: HeldRows<HeldTenant>;

  constructor(
    store: TenantStore,
    private readonly clock: Clock,
    ttlMs: number,
    /** The tenants' Platform bearer tokens, forgotten with the tenant's Basic credential. */
    readonly tokens: PlatformTokenAuthenticator,
    /** Credentials refused lately, and addresses past their failure limit. */
    readonly failures: FailedAuthentications,
  ) {
    this.rows = new HeldRows(clock, ttlMs, async (apiId) => {
      const row = await store.getByApiId(apiId);
      if (!row) return null;
      // A secret that matched the same hash still does; a rotation changes the hash.
      const previous = this.rows.peek(apiId);
      return previous?.verified && previous.row.secretHash === row.secretHash
        ? { row, verified: previous.verified }
        : { row };
    });
  }

  /**
   * `defer` keeps a background re-read of the tenant's row alive (the request's `waitUntil`);
   * without it the row is only read again once it has expired.
   */
  async authenticate(apiId: string, secret: string, defer?: Defer): Promise<AuthOutcome> {
    const entry = await this.rows.get(apiId, defer);
    if (!entry) return { ok: false, reason: "unknown_api_id" };
    const { row } = entry;
    const now = this.clock.now();
    let matches = entry.verified !== undefined && textsEqual(entry.verified, secret);
    if (!matches && (await secretMatchesHash(secret, row.secretHash))) {
      matches = true;
      entry.verified = secret;
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
    const entry = this.rows.fresh(apiId, defer);
    if (!entry?.verified || entry.row.disabled) return null;
    return textsEqual(entry.verified, secret) ? entry.row : null;
  }

  /**
   * Forgets the tenant's credentials in this isolate: its Basic row and its Platform tokens, and
   * every credential refused lately (one of them may be this tenant's, good from now on).
   */
  invalidate(apiId: string): void {
    this.rows.forget(apiId);
    this.tokens.invalidateTenant(apiId);
    this.failures.forgetRefusals();
  }
}

/**
 * Checks Platform bearer tokens. The presented token is hashed and its row (with the tenant's)
 * held in memory like a Basic credential's (HeldRows); this isolate forgets a tenant's tokens at
 * once when the admin API changes them. A grace period ends on the clock, not on a reload.
 */
export class PlatformTokenAuthenticator {
  private readonly holders: HeldRows<TokenHolder>;
  /** Hashes of tokens presented lately: a busy client's token is not hashed on every request. */
  private readonly hashes = new BoundedMemo<string>(1024, 512);

  constructor(
    store: PlatformTokenStore,
    private readonly clock: Clock,
    ttlMs: number,
  ) {
    this.holders = new HeldRows(clock, ttlMs, (hash) => store.holderOf(hash));
  }

  async authenticate(token: string, defer?: Defer): Promise<AuthOutcome<TokenRefusal>> {
    const hash = this.hashes.get(token) ?? this.hashes.remember(token, await hashSecret(token));
    const holder = await this.holders.get(hash, defer);
    if (!holder) return { ok: false, reason: "unknown_token" };
    if (this.ended(holder)) return { ok: false, reason: "grace_ended" };
    if (holder.tenant.disabled) return { ok: false, reason: "disabled" };
    return { ok: true, tenant: holder.tenant };
  }

  /**
   * The tenant of a token this isolate holds a fresh, usable row for; null for anything else,
   * which `authenticate` decides. Synchronous and without D1; `defer` as `authenticate`'s.
   */
  known(token: string, defer?: Defer): TenantRow | null {
    const hash = this.hashes.get(token);
    const holder = hash === undefined ? null : this.holders.fresh(hash, defer);
    if (!holder || this.ended(holder) || holder.tenant.disabled) return null;
    return holder.tenant;
  }

  /** Forgets every token of the tenant with this API id (its tokens or the tenant changed). */
  invalidateTenant(apiId: string): void {
    this.holders.forgetWhere((holder) => holder.tenant.apiId === apiId);
  }

  private ended(holder: TokenHolder): boolean {
    return holder.expiresAt !== null && holder.expiresAt <= this.clock.now();
  }
}
