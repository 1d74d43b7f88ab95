import { and, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { accountUsage } from "../db/schema";
import type { OriginAccount } from "./accounts";

/** Quota periods are calendar months in UTC. */
export function quotaPeriod(now: Date): { start: Date; resetsAt: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const resetsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, resetsAt };
}

export interface UsageRow {
  used: number;
  periodStart: string;
  firstLogin: Date;
  lastLogin: Date;
}

export type ChargeResult = { ok: true; cost: number; usage: UsageRow } | { ok: false; resetsAt: Date };

/** The accounts' usage counters. Exact under concurrency: each charge is one conditional statement. */
export interface QuotaLedger {
  /**
   * Records a request costing `cost` units (also its login time). Refuses, changing nothing,
   * when the allowance of the current period would be exceeded.
   */
  charge(account: OriginAccount, cost: number, now: Date): Promise<ChargeResult>;
  /** Gives back a charge whose request failed (only within the period it was charged in). */
  refund(account: OriginAccount, charge: { cost: number; usage: UsageRow }): Promise<void>;
  /** How many accounts have a usage row (the health check's proof that the schema is migrated). */
  accountsSeen(): Promise<number>;
}

export function d1QuotaLedger(db: D1Database): QuotaLedger {
  const orm = drizzle(db);
  return {
    async charge(account, cost, now) {
      const period = quotaPeriod(now);
      const periodStart = period.start.toISOString().slice(0, 10);
      const at = now.toISOString();
      // Insert on first use; otherwise add to the period's count, or start a new period.
      // The WHERE refuses the update (no row returned) when it would pass the allowance.
      const rows = await orm
        .insert(accountUsage)
        .values({ apiId: account.api_id, used: cost, periodStart, firstLogin: at, lastLogin: at })
        .onConflictDoUpdate({
          target: accountUsage.apiId,
          set: {
            used: sql`case when ${accountUsage.periodStart} = excluded.period_start then ${accountUsage.used} + excluded.used else excluded.used end`,
            periodStart: sql`excluded.period_start`,
            lastLogin: sql`excluded.last_login`,
          },
          setWhere: sql`${accountUsage.periodStart} <> excluded.period_start or ${accountUsage.used} + excluded.used <= ${account.allowance}`,
        })
        .returning();
      const row = rows[0];
      if (!row) return { ok: false, resetsAt: period.resetsAt };
      return {
        ok: true,
        cost,
        usage: {
          used: row.used,
          periodStart: row.periodStart,
          firstLogin: new Date(row.firstLogin),
          lastLogin: new Date(row.lastLogin),
        },
      };
    },
    async refund(account, charge) {
      if (charge.cost === 0) return;
      await orm
        .update(accountUsage)
        .set({ used: sql`max(${accountUsage.used} - ${charge.cost}, 0)` })
        .where(
          and(eq(accountUsage.apiId, account.api_id), eq(accountUsage.periodStart, charge.usage.periodStart)),
        );
    },
    async accountsSeen() {
      const row = await db.prepare("select count(*) as n from account_usage").first<{ n: number }>();
      return row?.n ?? 0;
    },
  };
}
