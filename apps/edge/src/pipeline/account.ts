import { ApiError } from "@scangate/core";
import type { Clock } from "@scangate/core/http";
import type { TenantRow } from "../db/schema";
import type { LedgerReading } from "../ledger/balance";
import { termsOf } from "../ledger/balances";
import type { LedgerClient } from "../ledger/ledgers";
import type { ChargeAnswer, ChargeRequest } from "../ledger/tenant-ledger";
import { quotaHeaders } from "./quota-headers";
import { effectiveQuota, type QuotaState, secondsUntilReset } from "../tenants/periods";
import { NO_ROUTE, type UsageEvent } from "../usage/recorder";
import { FREE, type Price } from "./price";

// The account of one tenant request: the one thing that charges, holds, settles and refunds it,
// and that counts what it did for the usage rollups (hits, credits spent and saved, upstream
// calls, errors). Auth opens it; the matched route names its operation and price (declared in
// the route's definition, pipeline/define-route.ts); handlers say what happened ("an upstream
// call is about to be made", "the cache answered 3 assets"), never how many credits that is.
//
// Is a request charged, how much, and when is it refunded?
// - A route's price is credits per request, per asset or per page, for the upstream mode.
// - A request the upstream will answer is charged its price before the call (`charge`), so an
//   exhausted allowance never reaches the upstream; one whose cost the answer tells (a bulk, a
//   search of several pages) holds its most first (`hold`) and settles to what it got.
// - A failed upstream call (an error status, a timeout, an unreadable answer) is refunded whole:
//   the upstream bills nothing for it. A hold whose request died is released by the ledger's alarm.
// - What the cache, or another request's call under way, answers is free unless the edge
//   charges hits (CACHE_HITS_CHARGED); it counts as credits saved.

/** A charge made, kept so it can be refunded into the same period. */
export interface Charge {
  readonly credits: number;
  readonly resetsAt: number | null;
}

/** Credits held for a call whose cost its answer tells. */
export interface Hold extends Charge {
  readonly id: string;
}

/** A refusal with headers of its own (Retry-After), rendered by the app's error handler. */
export class Refusal extends ApiError {
  constructor(
    kind: ConstructorParameters<typeof ApiError>[0],
    message: string | undefined,
    readonly headers: Readonly<Record<string, string>>,
  ) {
    super(kind, message);
  }
}

export interface AccountDeps {
  /** This tenant's ledger (its stub made on the first call: a free hit never makes one). */
  readonly ledger: () => LedgerClient;
  /** Charges this tenant's ledger, in a batch with the tenant's other charges waiting in this isolate. */
  readonly charge: (request: ChargeRequest) => Promise<ChargeAnswer>;
  readonly clock: Clock;
  /** How long a hold waits for its request before the ledger's alarm releases it. */
  readonly holdMs: number;
  readonly hitsCharged: boolean;
  /** Tells the isolate the tenant's quota after a ledger answer (the next requests' headers). */
  readonly remember: (quota: QuotaState) => void;
  /** Counts the request in the usage rollups; a flush to hand to `waitUntil`, if one is due. */
  readonly record: (event: UsageEvent) => Promise<void> | null;
}

/**
 * What a request answers when its tenant's ledger cannot be reached (the object overloaded or
 * unreachable): a 503 to retry in a moment. Nothing is forwarded unpaid.
 */
export function ledgerUnavailable(error: unknown): Refusal {
  console.error("tenant ledger unavailable", messageOf(error));
  return new Refusal("unavailable", "Your quota ledger could not be reached; retry in a few seconds.", {
    "Retry-After": "2",
  });
}

/** Retry-After of a refusal that credits held by calls in flight would have covered. */
const HELD_RETRY_AFTER_SECONDS = 2;
const HELD_MESSAGE = "The rest of your quota is held by requests still in flight; retry in a few seconds.";

export class RequestAccount {
  /** The matched route's operation; null while no route has matched. */
  private operation: string | null = null;
  private price: Price = FREE;
  private cacheHit = false;
  private upstreamCalls = 0;
  private spent = 0;
  private saved = 0;

  constructor(
    readonly tenant: TenantRow,
    /** The quota as this request found it: the isolate's last ledger answer for the tenant. */
    private quota: QuotaState,
    private readonly deps: AccountDeps,
  ) {}

  /** Whether this request's credits are the Platform's (saved credits count only those). */
  private platformCredits = false;

  /**
   * The route that matched: its usage name, its price in this upstream mode, and whether that
   * price is in Platform credits (a /v3 route, or a legacy route answered from the Platform).
   */
  priced(operation: string, price: Price, platformCredits: boolean): void {
    this.operation = operation;
    this.price = price;
    this.platformCredits = platformCredits;
  }

  get routePrice(): Price {
    return this.price;
  }

  /** The tenant's quota as it stands after this request's charges. */
  get currentQuota(): QuotaState {
    return effectiveQuota({ ...this.quota, period: this.tenant.period }, this.deps.clock.now());
  }

  /** Reads the balance from the ledger (the account answer: never a remembered one). */
  async read(): Promise<LedgerReading> {
    const reading = await this.deps
      .ledger()
      .read({ terms: termsOf(this.tenant), now: this.deps.clock.now() })
      .catch((error: unknown) => Promise.reject(ledgerUnavailable(error)));
    this.note(reading.quota);
    return reading;
  }

  /**
   * Charges `units` of the route's price before its upstream call; null when that is nothing.
   * An allowance it would overspend is a 429 `quota_exceeded` (its Retry-After: the reset, or
   * seconds when credits held by calls in flight would cover it).
   */
  async charge(units = 1): Promise<Charge | null> {
    return this.take(units, undefined);
  }

  /** Holds `units` of the route's price (the most the call can cost); null when that is nothing. */
  async hold(units: number): Promise<Hold | null> {
    return this.take(units, this.deps.holdMs);
  }

  private async take(units: number, holdMs: number | undefined): Promise<Hold | null> {
    const credits = this.price.credits * units;
    if (credits <= 0) return null;
    const answer = await this.deps
      .charge({ terms: termsOf(this.tenant), cost: credits, now: this.deps.clock.now(), holdMs })
      .catch((error: unknown) => Promise.reject(ledgerUnavailable(error)));
    this.note(answer.quota);
    if (!answer.ok) throw this.refusal(answer.quota, answer.held, credits);
    this.spent += credits;
    return { id: answer.holdId ?? "", credits, resetsAt: answer.quota.resetsAt };
  }

  /**
   * Settles a hold to the `units` its answer held, giving back the rest. A settlement that fails
   * leaves the hold to the ledger's alarm, which gives all of it back: the answer still goes out.
   */
  async settle(hold: Hold | null, units: number): Promise<void> {
    if (!hold) return;
    const spent = Math.min(Math.max(units, 0) * this.price.credits, hold.credits);
    try {
      const quota = await this.deps.ledger().settle({ holdId: hold.id, spent, now: this.deps.clock.now() });
      // Null: the alarm released the hold already, all of it given back.
      this.spent -= quota === null ? hold.credits : hold.credits - spent;
      if (quota) this.note(quota);
    } catch (error) {
      console.error("credit hold settlement failed; its alarm releases it", messageOf(error));
    }
  }

  /**
   * Gives a charge back (its upstream call failed), but for the `billed` credits the upstream
   * charged all the same (a Platform search that found nothing). A refund that fails keeps the
   * charge and lets the request answer: the ledger may have made it before the failure was
   * reported, and retrying could give it back twice.
   */
  async refund(charge: Charge | null, billed = 0): Promise<void> {
    const credits = charge ? charge.credits - Math.min(Math.max(billed, 0), charge.credits) : 0;
    if (!charge || credits <= 0) return;
    try {
      const quota = await this.deps.ledger().refund({
        cost: credits,
        resetsAt: charge.resetsAt,
        now: this.deps.clock.now(),
      });
      this.spent -= credits;
      this.note(quota);
    } catch (error) {
      console.error("quota refund failed; the charge stands", messageOf(error));
    }
  }

  /**
   * The cache, or another request's upstream call, answered `units` of this request: free and
   * counted as Platform credits saved (`known`: documents, not "unknown" answers, which the
   * Platform bills nothing for), or charged when the edge charges hits.
   */
  async answeredWithoutCall(units: number, options: { known?: boolean } = {}): Promise<void> {
    if (this.deps.hitsCharged) {
      await this.charge(units);
      return;
    }
    if (this.platformCredits && options.known !== false) this.saved += this.price.credits * units;
  }

  /** The request counts as a cache hit in usage (the cache or another request's call answered it). */
  hit(): void {
    this.cacheHit = true;
  }

  /** An upstream call is made for this request (counted whether or not it is charged). */
  upstreamCall(): void {
    this.upstreamCalls += 1;
  }

  /**
   * The answer leaves: it gets the quota's RateLimit headers and `Cache-Control`, and the request
   * is counted in usage. The returned flush, if any, goes to `waitUntil`.
   */
  finish(response: Response): Promise<void> | null {
    const now = this.deps.clock.now();
    for (const [name, value] of Object.entries(quotaHeaders(this.currentQuota, this.tenant.period, now))) {
      response.headers.set(name, value);
    }
    // Answers carry one tenant's quota: no shared cache in front of the edge may keep them.
    response.headers.set("Cache-Control", "private, no-store");
    return this.deps.record({
      tenantId: this.tenant.id,
      operation: this.operation ?? NO_ROUTE,
      at: now,
      cacheHit: this.cacheHit,
      upstreamCalls: this.upstreamCalls,
      error: response.status >= 400,
      quotaSpent: this.spent,
      quotaSaved: this.saved,
    });
  }

  private note(quota: QuotaState): void {
    this.quota = quota;
    this.deps.remember(quota);
  }

  private refusal(quota: QuotaState, held: number, credits: number): Refusal {
    if (quota.used - held + credits <= quota.allowance) {
      return new Refusal("quota_exceeded", HELD_MESSAGE, { "Retry-After": String(HELD_RETRY_AFTER_SECONDS) });
    }
    const retryAfter = secondsUntilReset(quota, this.deps.clock.now());
    const left = quota.allowance - quota.used;
    // Not spent yet, but less is left than this request may cost (a job holds its most pages).
    const message =
      left > 0
        ? `This request may cost ${credits} of your quota and ${left} is left this billing period.`
        : undefined;
    return new Refusal(
      "quota_exceeded",
      message,
      retryAfter === null ? {} : { "Retry-After": String(retryAfter) },
    );
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
