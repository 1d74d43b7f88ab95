import type { Account } from "@scangate/core";
import type { CommentRow, TagRow } from "../annotations/store";
import type { EdgeConfig } from "../config";
import type { TenantRow } from "../db/schema";
import {
  type DailyOperationUsage,
  recentErrors,
  totalsOf,
  usageChart,
  USAGE_WINDOW_DAYS,
  windowStart,
  type ErrorDay,
  type UsageChart,
  type UsageCounters,
} from "../pages/usage-summary";
import { operationCost } from "../api/catalog";
import type { EdgeServices } from "../services";
import type { QuotaState } from "../tenants/periods";
import { tenantAccount } from "../tenants/account";
import { dailyUsage } from "./usage-queries";

/** Everything the tenant dashboard (and the admin's view of one tenant) shows. */
export interface TenantReport {
  now: number;
  tenant: TenantRow;
  /** Exactly what GET /api/v1/account answers for this tenant now. */
  account: Account;
  quota: QuotaState;
  tier: { name: string; description: string };
  days: number;
  totals: UsageCounters;
  chart: UsageChart;
  errors: ErrorDay[];
  /** Quota the cache hits did not cost (hits are free unless CACHE_HITS_CHARGED). */
  quotaSavedByCache: number;
  /** The tags this tenant created and the comments it wrote lately, newest first. */
  annotations: { tags: TagRow[]; comments: CommentRow[] };
}

/** How many of each the dashboard lists. */
export const RECENT_ANNOTATIONS = 10;

export function describeTier(config: EdgeConfig, name: string): string {
  const tier = config.rateTiers[name];
  if (!tier) return "no burst limit (tier not configured)";
  if (tier.unlimited) return "no burst limit";
  return `up to ${tier.limit} requests per ${tier.periodSeconds === 60 ? "minute" : `${tier.periodSeconds} seconds`}`;
}

function quotaSavedByCache(config: EdgeConfig, rows: readonly DailyOperationUsage[]): number {
  if (config.cache.hitsCharged) return 0;
  return rows.reduce((sum, row) => {
    const cost = operationCost(row.operation);
    return sum + row.cacheHits * cost;
  }, 0);
}

export async function tenantReport(services: EdgeServices, tenant: TenantRow): Promise<TenantReport> {
  const now = services.clock.now();
  const [{ account, quota }, rows, annotations] = await Promise.all([
    tenantAccount(services, tenant),
    dailyUsage(services.db, windowStart(now), tenant.id),
    services.annotations.recentBy(tenant.id, RECENT_ANNOTATIONS),
  ]);
  return {
    now,
    tenant,
    account,
    quota,
    tier: { name: tenant.tier, description: describeTier(services.config, tenant.tier) },
    days: USAGE_WINDOW_DAYS,
    totals: totalsOf(rows),
    chart: usageChart(rows, now),
    errors: recentErrors(rows),
    quotaSavedByCache: quotaSavedByCache(services.config, rows),
    annotations,
  };
}
