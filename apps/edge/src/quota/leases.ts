import type { Clock } from "@scangate/core/http";
import type { Defer } from "../auth/tenant-auth";
import type { QuotaState } from "../tenants/periods";
import type { CreditHolds } from "./holds";
import type { Charge, ChargeOptions, ChargeResult, QuotaLedger } from "./ledger";

/** How long a lease answers charges before what is left of it goes back to the tenant. */
export const LEASE_MS = 2_000;
/** A tenant's charges in this isolate within LEASE_MS that make it busy enough to lease. */
export const BUSY_CHARGES = 16;
/**
 * A lease covers at least this many charges of the cost that took it, and as many as the tenant
 * made in this isolate in the last window of LEASE_MS or in this one so far, up to
 * MAX_LEASE_CHARGES: a lease lasts a busy tenant about LEASE_MS whatever its rate, instead of a
 * few milliseconds at a high one.
 */
export const LEASE_CHARGES = 16;
export const MAX_LEASE_CHARGES = 256;
/**
 * How many leases one charge waits for when concurrent charges spend each before it gets a
 * credit; then it is charged by the ledger itself.
 */
const MAX_LEASE_TURNS = 4;
/**
 * A lease is taken only while this many leases' worth of allowance stays unspent beyond it, so a
 * tenant near the end of its allowance is charged request by request, exactly, and credits
 * leased in one isolate rarely refuse a request in another.
 */
export const LEASE_HEADROOM = 4;

/** How many tenants' recent charge counts an isolate keeps. */
const BUSY_TENANTS_MAX = 10_000;

const wallClockWait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A tenant's charges in this isolate, in windows of LEASE_MS. */
interface Recent {
  readonly since: number;
  charges: number;
  /** Its charges in the window just before this one (0 when there was none). */
  readonly before: number;
  busy: boolean;
  /** The allowance left after the ledger's last answer to this isolate (null: none yet). */
  room: number | null;
}

interface Lease {
  /** The ledger's charge of the whole lease. */
  readonly charge: Charge;
  readonly endsAt: number;
  left: number;
  open: boolean;
}

/**
 * Credit leases: a busy tenant's charges are taken from a block of credits this isolate charged
 * at once, instead of one D1 write per request. A lease is an ordinary charge of the ledger plus
 * a credit hold (quota/holds.ts), written in the background; after LEASE_MS what was not spent
 * goes back through the hold, and a hold whose isolate died is released by the maintenance cron
 * (all of it: the tenant is never charged for credits it may not have spent). The allowance
 * stays a hard limit; while a lease is open the ledger's `used` counts its unspent credits too,
 * for at most LEASE_MS. A quiet tenant, or one within LEASE_HEADROOM leases of its allowance, is
 * charged request by request, and so is a charge that a hold of its own will record (`held`).
 */
export class LeasedLedger implements QuotaLedger {
  private readonly leases = new Map<string, Lease>();
  private readonly taking = new Map<string, Promise<Lease | null>>();
  private readonly recent = new Map<string, Recent>();
  /** The lease each charge it answered came from (a refund goes back to an open lease). */
  private readonly leased = new WeakMap<Charge, Lease>();

  constructor(
    private readonly ledger: QuotaLedger,
    private readonly holds: CreditHolds,
    private readonly clock: Clock,
    /** How a lease waits out its time (tests replace it). */
    private readonly wait: (ms: number) => Promise<void> = wallClockWait,
  ) {}

  async charge(tenantId: string, cost: number, options: ChargeOptions = {}): Promise<ChargeResult> {
    // A hold of a leased charge would give its credits back twice if the isolate died: once
    // with the lease's hold, once with its own.
    if (options.held) return this.ledger.charge(tenantId, cost, options);
    const recent = this.count(tenantId, this.clock.now());
    const { defer } = options;
    const leasing = defer !== undefined && options.reserve === undefined && recent.busy;
    for (let turn = 0; turn < MAX_LEASE_TURNS; turn++) {
      const now = this.clock.now();
      const spent = this.spend(tenantId, cost, now);
      if (spent) return spent;
      if (!leasing) break;
      // A lease being taken answers this charge too, or, if others spent it first, the next one.
      const taking = this.taking.get(tenantId);
      if (taking) {
        if (await taking) continue;
        break;
      }
      const size = this.leaseSize(recent, cost);
      // The request that takes the lease is answered from it first.
      const leased = size > 0 ? await this.take(tenantId, cost, size, now, defer) : null;
      if (leased) return leased;
      break;
    }
    return this.noted(tenantId, await this.ledger.charge(tenantId, cost, options));
  }

  async refund(charge: Charge): Promise<void> {
    const lease = this.leased.get(charge);
    if (lease?.open) {
      lease.left += charge.cost;
      return;
    }
    await this.ledger.refund(charge);
  }

  /** The ledger's quota, less what this isolate's open lease holds unspent. */
  async current(tenantId: string): Promise<QuotaState | null> {
    const quota = await this.ledger.current(tenantId);
    const lease = this.leases.get(tenantId);
    if (!quota || !lease?.open || lease.charge.quota.resetsAt !== quota.resetsAt) return quota;
    return { ...quota, used: Math.max(0, quota.used - lease.left) };
  }

  /**
   * Counts a charge of the tenant. It is busy enough to lease with more than BUSY_CHARGES in this
   * window of LEASE_MS, or in the one just before it (a busy tenant stays busy).
   */
  private count(tenantId: string, now: number): Recent {
    let recent = this.recent.get(tenantId);
    if (!recent || now - recent.since >= LEASE_MS) {
      if (!recent && this.recent.size >= BUSY_TENANTS_MAX) this.recent.clear();
      const before = recent !== undefined && now - recent.since < 2 * LEASE_MS ? recent.charges : 0;
      recent = { since: now, charges: 0, before, busy: before > BUSY_CHARGES, room: recent?.room ?? null };
      this.recent.set(tenantId, recent);
    }
    recent.charges += 1;
    if (recent.charges > BUSY_CHARGES) recent.busy = true;
    return recent;
  }

  /**
   * The credits of a lease for charges of `cost`: the tenant's charges in the window before or in
   * this one before this charge, whichever is more (LEASE_CHARGES to MAX_LEASE_CHARGES of them),
   * and no more than the allowance the ledger last said was left allows with LEASE_HEADROOM
   * leases beyond it. 0 when not even LEASE_CHARGES would fit: the tenant is near its end and is
   * charged request by request, without first a lease charge the ledger would refuse. An
   * allowance other isolates spent meanwhile makes the ledger refuse the lease, as before.
   */
  private leaseSize(recent: Recent, cost: number): number {
    const seen = Math.max(recent.before, recent.charges - 1);
    const wanted = cost * Math.min(MAX_LEASE_CHARGES, Math.max(LEASE_CHARGES, seen));
    const fits = recent.room === null ? wanted : Math.floor(recent.room / (1 + LEASE_HEADROOM) / cost) * cost;
    const size = Math.min(wanted, fits);
    return size >= cost * LEASE_CHARGES ? size : 0;
  }

  /** Keeps the allowance a ledger answer says is left, for the size of the tenant's next lease. */
  private noted(tenantId: string, result: ChargeResult): ChargeResult {
    const recent = this.recent.get(tenantId);
    if (recent && (result.ok || result.reason === "exhausted")) {
      const { used, allowance } = result.ok ? result.charge.quota : result.quota;
      recent.room = allowance - used;
    }
    return result;
  }

  /** A charge from the tenant's open lease, or null when it has none that covers `cost`. */
  private spend(tenantId: string, cost: number, now: number): ChargeResult | null {
    const lease = this.leases.get(tenantId);
    if (!lease?.open || lease.left < cost || now >= lease.endsAt) return null;
    const { quota } = lease.charge;
    // A lease taken before the period ended does not spend into the next one.
    if (quota.resetsAt !== null && now >= quota.resetsAt) return null;
    lease.left -= cost;
    const charge: Charge = { tenantId, cost, quota: { ...quota, used: quota.used - lease.left } };
    this.leased.set(charge, lease);
    return { ok: true, charge };
  }

  /**
   * Takes a lease for the tenant (one at a time per tenant): a ledger charge and its hold. Gives
   * the charge of `cost` from it for the request that took it, or null when none was taken.
   */
  private async take(
    tenantId: string,
    cost: number,
    size: number,
    now: number,
    defer: Defer,
  ): Promise<ChargeResult | null> {
    const taking = (async (): Promise<Lease | null> => {
      const result = this.noted(
        tenantId,
        await this.ledger.charge(tenantId, size, { reserve: size * LEASE_HEADROOM }),
      );
      if (!result.ok) return null;
      const lease: Lease = { charge: result.charge, endsAt: now + LEASE_MS, left: size, open: true };
      this.leases.set(tenantId, lease);
      // The hold is written in the background, like the settling: the request that takes a lease
      // runs one statement for it on its path, as a charge of its own would.
      defer(async () => {
        const holdId = await this.holds.open(result.charge, now).catch((error: unknown) => {
          console.error("quota lease hold failed", error instanceof Error ? error.message : error);
          return null;
        });
        await this.wait(LEASE_MS);
        await this.settle(tenantId, lease, holdId);
      });
      return lease;
    })();
    let first: ChargeResult | null = null;
    // A lease that could not be taken leaves its requests to ordinary charges.
    const shared = taking
      .catch((error: unknown) => {
        console.error("quota lease failed", error instanceof Error ? error.message : error);
        return null;
      })
      .then((lease) => {
        this.taking.delete(tenantId);
        if (lease) first = this.spend(tenantId, cost, this.clock.now());
        return lease;
      });
    this.taking.set(tenantId, shared);
    await shared;
    return first;
  }

  /**
   * Ends a lease: what it did not spend goes back to the tenant with its hold, or straight to the
   * ledger when the hold could not be written.
   */
  private async settle(tenantId: string, lease: Lease, holdId: string | null): Promise<void> {
    lease.open = false;
    if (this.leases.get(tenantId) === lease) this.leases.delete(tenantId);
    const spent = lease.charge.cost - lease.left;
    try {
      if (holdId !== null) await this.holds.settle(holdId, lease.charge, spent);
      else if (lease.left > 0) await this.ledger.refund({ ...lease.charge, cost: lease.left });
    } catch (error) {
      // A hold that stays is released whole by the maintenance cron when it expires.
      console.error("quota lease settle failed", error instanceof Error ? error.message : error);
    }
  }
}
