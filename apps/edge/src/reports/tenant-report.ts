import type { EdgeConfig } from "../config";
import type { TenantRow } from "../db/schema";
import type { Env } from "../env";
import {
  creditFigures,
  type DailyOperationUsage,
  recentErrors,
  totalsOf,
  usageChart,
  USAGE_WINDOW_DAYS,
  windowStart,
} from "../pages/usage-summary";
import { balanceOf } from "../ledger/balances";
import { operationPrices } from "../pipeline/catalog";
import type { EdgeServices } from "../services";
import { periodSeconds, type QuotaState } from "../tenants/periods";
import { tenantAccount } from "../tenants/account";
import { organizationBalances } from "./organization-credits";
import { dailyUsage, usageByOperation } from "./usage-queries";

/** How many of each the dashboard lists. */
const RECENT_ANNOTATIONS = 10;

export function describeTier(config: EdgeConfig, name: string): string {
  const tier = config.rateTiers[name];
  if (!tier) return "no burst limit (tier not configured)";
  if (tier.unlimited) return "no burst limit";
  return `up to ${tier.limit} requests per ${tier.periodSeconds === 60 ? "minute" : `${tier.periodSeconds} seconds`}`;
}

function quotaSavedByCache(config: EdgeConfig, rows: readonly DailyOperationUsage[]): number {
  if (config.cache.hitsCharged) return 0;
  return rows.reduce((sum, row) => {
    const price = operationPrices().get(row.operation);
    return sum + row.cacheHits * (price?.credits ?? 0);
  }, 0);
}

/** When the period that ends at `quota.resetsAt` began; null when it never resets (one-time credits). */
function periodStart(tenant: TenantRow, quota: QuotaState): number | null {
  const seconds = periodSeconds(tenant.period, quota.resetsAt);
  return quota.resetsAt === null || seconds === null ? null : quota.resetsAt - seconds * 1000;
}

/** Everything the tenant dashboard (and the admin's view of one tenant) shows. */
export type TenantReport = Awaited<ReturnType<typeof tenantReport>>;

export async function tenantReport(services: EdgeServices, env: Env, tenant: TenantRow) {
  const now = services.clock.now();
  // The tenant's balance is its ledger's: read first, the period's usage rows follow from it.
  const quota = await balanceOf(services, tenant);
  const since = periodStart(tenant, quota);
  const account = tenantAccount(tenant, quota, now);
  const [rows, annotations, token, balances, periodRows] = await Promise.all([
    dailyUsage(services.db, windowStart(now), tenant.id),
    services.annotations.recentBy(tenant.id, RECENT_ANNOTATIONS),
    services.platformTokens.status(tenant.id),
    organizationBalances(services, env),
    usageByOperation(services.db, since ?? 0, tenant.id),
  ]);
  return {
    now,
    tenant,
    /** Exactly what GET /api/v1/account answers for this tenant now. */
    account,
    quota,
    tier: { name: tenant.tier, description: describeTier(services.config, tenant.tier) },
    days: USAGE_WINDOW_DAYS,
    totals: totalsOf(rows),
    chart: usageChart(rows, now),
    errors: recentErrors(rows),
    /** Quota the cache hits did not cost (hits are free unless CACHE_HITS_CHARGED). */
    quotaSavedByCache: quotaSavedByCache(services.config, rows),
    /** The tenant's Platform credits: this period's, and whether it can call /v3 at all. */
    credits: {
      /** Credits spent by `v3_*` calls and saved by the cache since the period began. */
      period: creditFigures(periodRows, services.config.upstreamApi === "platform"),
      /** When the current period began; null for one-time credits (every rollup counts). */
      periodStart: since,
      /** Whether the tenant holds a Platform token (a current one, or an old one still in its grace). */
      platformToken: token.token_id !== null || token.previous_token_expires_at !== null,
      platformConfigured: services.platform !== null,
      /** The upstream organizations' remaining credits (shared by every tenant), in the pool's order. */
      balances,
    },
    /** The tags this tenant created and the comments it wrote lately, newest first. */
    annotations,
  };
}
