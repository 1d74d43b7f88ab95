import type { TenantPeriod } from "@scangate/core";
import { effectiveQuota, nextReset, type QuotaState } from "../tenants/periods";

// One tenant's balance as plain arithmetic: what its ledger object (ledger/tenant-ledger.ts)
// stores and changes. No storage and no clock of its own: every operation is told the time.

/** What the tenant may spend: its row's allowance and period, and which version of them. */
export interface LedgerTerms {
  readonly allowance: number;
  readonly period: TenantPeriod;
  /**
   * The tenant row's `updated_at` when these terms were read. Newer terms replace older ones,
   * so a request that read the row before an admin change cannot undo it.
   */
  readonly version: number;
}

/** Credits charged at their most for a call whose cost is known only from its answer. */
export interface CreditHold {
  readonly id: string;
  readonly credits: number;
  /** The period it was charged in: a hold of an ended period gives nothing back. */
  readonly resetsAt: number | null;
  /** Wall-clock time after which the hold's request is taken for dead and the hold released. */
  readonly expiresAt: number;
}

export interface BalanceState {
  allowance: number;
  period: TenantPeriod;
  termsVersion: number;
  used: number;
  /** Null for period `never` (one-time credits). */
  resetsAt: number | null;
}

/** The balance as it reads: the quota, and the credits of this period held by calls in flight. */
export interface LedgerReading {
  readonly quota: QuotaState;
  readonly held: number;
}

/** A charge's outcome: the quota after it, or a refusal (held credits may come back within seconds). */
export type Spend =
  | { readonly ok: true; readonly quota: QuotaState }
  | ({ readonly ok: false } & LedgerReading);

/** What the old D1 ledger held for a tenant, moved into its object once (ledger/imports.ts). */
export interface ImportedBalance {
  readonly used: number;
  readonly resetsAt: number | null;
  readonly holds: readonly CreditHold[];
}

export class Balance {
  private constructor(
    readonly state: BalanceState,
    readonly holds: Map<string, CreditHold>,
  ) {}

  /** A tenant's first balance: nothing used, its period starting now. */
  static opened(terms: LedgerTerms, now: number): Balance {
    const { allowance, period, version } = terms;
    const resetsAt = nextReset(period, now);
    return new Balance({ allowance, period, termsVersion: version, used: 0, resetsAt }, new Map());
  }

  static restored(state: BalanceState, holds: Iterable<CreditHold>): Balance {
    return new Balance({ ...state }, new Map([...holds].map((hold) => [hold.id, hold])));
  }

  quota(): QuotaState {
    return { used: this.state.used, allowance: this.state.allowance, resetsAt: this.state.resetsAt };
  }

  /** The balance as it stands at `now`, without changing it: an ended period reads as a new one. */
  reading(now: number): LedgerReading {
    const ended = this.state.resetsAt !== null && this.state.resetsAt <= now;
    return { quota: effectiveQuota(this.state, now), held: ended ? 0 : this.held() };
  }

  /** Credits held in the current period. */
  held(): number {
    let held = 0;
    for (const hold of this.holds.values()) if (hold.resetsAt === this.state.resetsAt) held += hold.credits;
    return held;
  }

  /**
   * Takes newer terms: a new allowance applies at once; a new period starts now (the next reset
   * follows its calendar) and keeps what was used. Older or equal versions change nothing.
   */
  adopt(terms: LedgerTerms, now: number): void {
    if (terms.version <= this.state.termsVersion) return;
    const periodChanged = terms.period !== this.state.period;
    this.state.allowance = terms.allowance;
    this.state.period = terms.period;
    this.state.termsVersion = terms.version;
    if (periodChanged) this.state.resetsAt = nextReset(terms.period, now);
  }

  /** Starts a new period once the current one has ended: nothing used, its holds forgotten. */
  roll(now: number): void {
    if (this.state.resetsAt === null || this.state.resetsAt > now) return;
    this.state.used = 0;
    this.state.resetsAt = nextReset(this.state.period, now);
    for (const [id, hold] of this.holds) if (hold.resetsAt !== this.state.resetsAt) this.holds.delete(id);
  }

  /** Spends `cost` if at least `reserve` of the allowance would still be left after it. */
  spend(cost: number, now: number, reserve = 0): Spend {
    this.roll(now);
    if (this.state.used + cost + reserve > this.state.allowance) {
      return { ok: false, quota: this.quota(), held: this.held() };
    }
    this.state.used += cost;
    return { ok: true, quota: this.quota() };
  }

  /** Spends `cost` and records it as a hold `id` until `expiresAt`. */
  hold(id: string, cost: number, now: number, expiresAt: number): Spend {
    const spent = this.spend(cost, now);
    if (spent.ok) this.holds.set(id, { id, credits: cost, resetsAt: this.state.resetsAt, expiresAt });
    return spent;
  }

  /**
   * Settles hold `id` to what its call spent (at most what it held), giving back the rest.
   * The hold named nothing (settled, released, or of an ended period): false, nothing given back.
   */
  settle(id: string, spent: number, now: number): boolean {
    this.roll(now);
    const hold = this.holds.get(id);
    if (!hold) return false;
    this.holds.delete(id);
    this.refund(hold.credits - Math.min(Math.max(spent, 0), hold.credits), hold.resetsAt, now);
    return true;
  }

  /** Gives `cost` back into the period that ends at `resetsAt`, if that period is still this one. */
  refund(cost: number, resetsAt: number | null, now: number): void {
    this.roll(now);
    if (cost <= 0 || resetsAt !== this.state.resetsAt) return;
    this.state.used = Math.max(0, this.state.used - cost);
  }

  /** Releases every hold whose request is taken for dead (`expiresAt` reached); how many. */
  releaseExpired(wallNow: number, now: number): number {
    let released = 0;
    for (const hold of [...this.holds.values()]) {
      if (hold.expiresAt > wallNow) continue;
      this.settle(hold.id, 0, now);
      released += 1;
    }
    return released;
  }

  /** When the next hold expires, or null when none is held. */
  nextExpiry(): number | null {
    // A loop, not Math.min(...holds): a spread's arguments are bounded by the stack, holds are not.
    let next: number | null = null;
    for (const hold of this.holds.values()) if (next === null || hold.expiresAt < next) next = hold.expiresAt;
    return next;
  }

  /** The admin's correction of what the current period has used. */
  setUsed(used: number, now: number): void {
    this.roll(now);
    this.state.used = Math.max(0, used);
  }

  /**
   * Adds what the old ledger held to this one: its `used` (which already counted its holds)
   * when it is of the current period, and its holds, released as any other if never settled.
   */
  absorb(imported: ImportedBalance, now: number): void {
    this.roll(now);
    if (imported.resetsAt !== this.state.resetsAt) return;
    this.state.used += imported.used;
    for (const hold of imported.holds) this.holds.set(hold.id, hold);
  }
}
