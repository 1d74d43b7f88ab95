import { sql } from "drizzle-orm";
import type { EdgeDb } from "../db/client";
import { usage } from "../db/schema";

/** Usage's name for a request that matched no route. */
export const NO_ROUTE = "no_route";

/** What one request did, for the hourly rollups. */
export interface UsageEvent {
  readonly tenantId: string;
  readonly operation: string;
  readonly at: number;
  readonly cacheHit: boolean;
  readonly upstreamCalls: number;
  readonly error: boolean;
  readonly quotaSpent: number;
  /** Upstream credits the cache saved (a Platform document served without a paid call). */
  readonly quotaSaved: number;
}

/** One rollup row: a tenant's counters for an hour and operation. */
type Counters = typeof usage.$inferSelect;

/** The columns of a rollup row that add up. */
export const COUNTERS = [
  "requests",
  "cacheHits",
  "upstreamCalls",
  "errors",
  "quotaSpent",
  "quotaSaved",
] as const;
export type UsageCounters = Record<(typeof COUNTERS)[number], number>;

const ZERO = Object.fromEntries(COUNTERS.map((counter) => [counter, 0])) as UsageCounters;

const HOUR_MS = 3_600_000;

const hourOf = (at: number) => at - (at % HOUR_MS);

function emptyCounters(tenantId: string, hour: number, operation: string): Counters {
  return { tenantId, hour, operation, ...ZERO };
}

function addToRollups(rollups: Map<string, Counters>, event: UsageEvent): void {
  const hour = hourOf(event.at);
  const key = `${event.tenantId}\u0000${hour}\u0000${event.operation}`;
  const counters = rollups.get(key) ?? emptyCounters(event.tenantId, hour, event.operation);
  counters.requests += 1;
  counters.cacheHits += event.cacheHit ? 1 : 0;
  counters.upstreamCalls += event.upstreamCalls;
  counters.errors += event.error ? 1 : 0;
  counters.quotaSpent += event.quotaSpent;
  counters.quotaSaved += event.quotaSaved;
  rollups.set(key, counters);
}

/**
 * Collects usage in memory and writes it as one D1 batch of upserts shortly after the first
 * event of a batch, off the response path (the caller hands the returned promise to waitUntil).
 */
export class BatchedUsageRecorder {
  private pending = new Map<string, Counters>();
  private scheduled: Promise<void> | null = null;

  constructor(
    private readonly db: EdgeDb,
    private readonly flushDelayMs: number,
  ) {}

  /** Records an event; returns the flush to wait for when this event started a new batch. */
  record(event: UsageEvent): Promise<void> | null {
    addToRollups(this.pending, event);
    if (this.scheduled) return null;
    this.scheduled = new Promise<void>((resolve) => setTimeout(resolve, this.flushDelayMs)).then(() =>
      this.flush(),
    );
    return this.scheduled;
  }

  async flush(): Promise<void> {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.scheduled = null;
    const [first, ...rest] = batch.map((counters) => this.upsert(counters));
    if (!first) return;
    try {
      await this.db.batch([first, ...rest]);
    } catch (error) {
      // Usage is bookkeeping: losing one batch must not fail anything, but it is worth a log line.
      console.error("usage rollup flush failed", error instanceof Error ? error.message : error);
    }
  }

  /**
   * Takes credits given back after their request had answered (a job's unspent credits) off the
   * quota spent of the hour and operation that charged them, at once: the request's own event may
   * still be in a batch, and the two add up in either order.
   */
  async givenBack(
    charged: { tenantId: string; operation: string; at: number },
    credits: number,
  ): Promise<void> {
    try {
      await this.upsert({
        ...emptyCounters(charged.tenantId, hourOf(charged.at), charged.operation),
        quotaSpent: -credits,
      });
    } catch (error) {
      console.error("usage refund write failed", error instanceof Error ? error.message : error);
    }
  }

  /** Adds `c` to its rollup row, which it starts when there is none. */
  private upsert(c: Counters) {
    return this.db
      .insert(usage)
      .values(c)
      .onConflictDoUpdate({
        target: [usage.tenantId, usage.hour, usage.operation],
        set: Object.fromEntries(COUNTERS.map((name) => [name, sql`${usage[name]} + ${c[name]}`])),
      });
  }
}
