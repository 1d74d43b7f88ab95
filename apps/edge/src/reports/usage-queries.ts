import { and, eq, gte, type SQL, sql } from "drizzle-orm";
import type { EdgeDb } from "../db/client";
import { usage } from "../db/schema";
import { DAY_MS, type DailyOperationUsage } from "../pages/usage-summary";
import { COUNTERS, type UsageCounters } from "../usage/recorder";

// Reads of the hourly usage rollups (written by usage/recorder.ts), summed in SQL so a page
// reads at most one row per day and operation, or one per tenant and operation.

const sums = Object.fromEntries(
  COUNTERS.map((counter) => [counter, sql<number>`sum(${usage[counter]})`]),
) as Record<keyof UsageCounters, SQL<number>>;

/** Rollups since `since`, of one tenant or of everyone. */
function rollupsSince(since: number, tenantId: string | undefined): SQL | undefined {
  return and(gte(usage.hour, since), tenantId === undefined ? undefined : eq(usage.tenantId, tenantId));
}

/** Rollups since `since`, per UTC day and operation; one tenant's, or everyone's. */
export async function dailyUsage(
  db: EdgeDb,
  since: number,
  tenantId?: string,
): Promise<DailyOperationUsage[]> {
  const day = sql<number>`(${usage.hour} - ${usage.hour} % ${DAY_MS})`;
  return db
    .select({ day, operation: usage.operation, ...sums })
    .from(usage)
    .where(rollupsSince(since, tenantId))
    .groupBy(day, usage.operation)
    .orderBy(day, usage.operation);
}

export interface OperationUsage extends UsageCounters {
  tenantId: string;
  operation: string;
}

/** Rollups since `since`, summed per tenant and operation; one tenant's, or everyone's. */
export async function usageByOperation(
  db: EdgeDb,
  since: number,
  tenantId?: string,
): Promise<OperationUsage[]> {
  return db
    .select({ tenantId: usage.tenantId, operation: usage.operation, ...sums })
    .from(usage)
    .where(rollupsSince(since, tenantId))
    .groupBy(usage.tenantId, usage.operation);
}
