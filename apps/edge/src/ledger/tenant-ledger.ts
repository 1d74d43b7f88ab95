import { DurableObject } from "cloudflare:workers";
import type { QuotaState } from "../tenants/periods";
import {
  Balance,
  type BalanceState,
  type CreditHold,
  type ImportedBalance,
  type LedgerReading,
  type LedgerTerms,
  type Spend,
} from "./balance";

// Each tenant's balance lives in one Durable Object, addressed by the tenant's id: the only
// writer of that balance, so charges are exact by construction (the object runs one call at a
// time against its own storage) and the ledger scales with the number of tenants instead of
// meeting in one database. An object is made on first use; D1 keeps who the tenant is.
//
// Two clocks: the period arithmetic (when a month ends) runs on the caller's `now`, the edge's
// one clock, so tests move it; a hold's expiry runs on this object's wall clock, because its
// alarm does, and because it is about elapsed time (a request that died), not the calendar.

export interface ChargeRequest {
  readonly terms: LedgerTerms;
  readonly cost: number;
  readonly now: number;
  /** Allowance that must stay unspent after the charge. */
  readonly reserve?: number;
  /** Record the charge as a credit hold, released if not settled within this many ms. */
  readonly holdMs?: number;
}

/** A charge's answer; a hold's carries the id that settles it. */
export type ChargeAnswer = Spend & { readonly holdId?: string };

/** The one record the object stores, rewritten whole by each change (a tenant's holds are few). */
interface Stored {
  readonly state: BalanceState;
  readonly holds: CreditHold[];
  readonly imports: string[];
}

const KEY = "ledger";

export class TenantLedger extends DurableObject {
  /** Null until the tenant's first call: its terms open the balance. */
  private balance: Balance | null = null;
  /** Imports already absorbed (ledger/imports.ts). */
  private imports = new Set<string>();
  /** When the alarm is set for, as this object last set it (null: none). */
  private alarmAt: number | null = null;

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    void ctx.blockConcurrencyWhile(async () => {
      const stored = await ctx.storage.get<Stored>(KEY);
      if (stored) {
        this.balance = Balance.restored(stored.state, stored.holds);
        this.imports = new Set(stored.imports);
      }
      this.alarmAt = await ctx.storage.getAlarm();
    });
  }

  /**
   * Charges each request in order, in this one turn, with one write for them all: the charges
   * one isolate's requests asked for while the tenant's previous call was in flight come
   * together (ledger/charge-batches.ts). Each is answered as if it had come alone.
   */
  async charge(requests: readonly ChargeRequest[]): Promise<ChargeAnswer[]> {
    // An isolate of the release before batches, still finishing its requests while a deploy
    // replaces it, sends one request and reads one answer: it gets that, not a 503.
    const lone = !Array.isArray(requests);
    const list: readonly ChargeRequest[] = lone ? [requests as unknown as ChargeRequest] : requests;
    const answers = list.map((request) => {
      const balance = this.open(request.terms, request.now);
      if (request.holdMs === undefined) return balance.spend(request.cost, request.now, request.reserve ?? 0);
      const holdId = crypto.randomUUID();
      const spent = balance.hold(holdId, request.cost, request.now, Date.now() + request.holdMs);
      return spent.ok ? { ...spent, holdId } : spent;
    });
    await this.save();
    return lone ? (answers[0] as unknown as ChargeAnswer[]) : answers;
  }

  /** Settles hold `holdId` to `spent`; the quota after, or null when the hold was already gone. */
  async settle(request: { holdId: string; spent: number; now: number }): Promise<QuotaState | null> {
    const balance = this.balance;
    if (!balance?.settle(request.holdId, request.spent, request.now)) return null;
    await this.save();
    return balance.quota();
  }

  async refund(request: { cost: number; resetsAt: number | null; now: number }): Promise<QuotaState> {
    const balance = this.balance;
    if (!balance) return { used: 0, allowance: 0, resetsAt: request.resetsAt };
    balance.refund(request.cost, request.resetsAt, request.now);
    await this.save();
    return balance.quota();
  }

  /** The balance now, read without changing it (a period that ended reads as a new one). */
  async read(request: { terms: LedgerTerms; now: number }): Promise<LedgerReading> {
    const version = this.balance?.state.termsVersion;
    const balance = this.open(request.terms, request.now);
    // A read changes nothing but a first balance or newer terms: only those are written.
    if (balance.state.termsVersion !== version) await this.save();
    return balance.reading(request.now);
  }

  /** Takes the tenant's terms as the admin just set them, and optionally a corrected `used`. */
  async configure(request: { terms: LedgerTerms; now: number; used?: number }): Promise<LedgerReading> {
    const balance = this.open(request.terms, request.now);
    if (request.used !== undefined) balance.setUsed(request.used, request.now);
    await this.save();
    return balance.reading(request.now);
  }

  /** Adds what the old D1 ledger held, once per `importId`. */
  async absorb(request: {
    terms: LedgerTerms;
    now: number;
    importId: string;
    balance: ImportedBalance;
  }): Promise<LedgerReading> {
    const balance = this.open(request.terms, request.now);
    if (!this.imports.has(request.importId)) {
      balance.absorb(request.balance, request.now);
      this.imports.add(request.importId);
    }
    await this.save();
    return balance.reading(request.now);
  }

  /** Forgets the tenant (it was deleted). */
  async erase(): Promise<void> {
    this.balance = null;
    this.imports.clear();
    this.alarmAt = null;
    await this.ctx.storage.deleteAll();
  }

  /** Releases the holds of requests that died before settling them. */
  override async alarm(): Promise<void> {
    this.alarmAt = null;
    this.balance?.releaseExpired(Date.now(), Date.now());
    await this.save();
  }

  /** The balance, opened with `terms` on first use; newer terms are taken. */
  private open(terms: LedgerTerms, now: number): Balance {
    if (!this.balance) this.balance = Balance.opened(terms, now);
    else this.balance.adopt(terms, now);
    return this.balance;
  }

  /** Writes the balance as it now stands, and moves the alarm to the next hold's expiry. */
  private async save(): Promise<void> {
    const balance = this.balance;
    if (!balance) return;
    const stored: Stored = {
      state: balance.state,
      holds: [...balance.holds.values()],
      imports: [...this.imports],
    };
    // Not awaited: the output gate holds every answer until its write is durable, and puts
    // made while one is being written are committed together.
    void this.ctx.storage.put(KEY, stored);
    const next = balance.nextExpiry();
    if (next === this.alarmAt) return;
    this.alarmAt = next;
    if (next === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(next);
  }
}
