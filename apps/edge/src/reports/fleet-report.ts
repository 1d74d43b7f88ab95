import { type Account, accountSchema } from "@scangate/core";
import { z } from "zod";
import type { TenantRow } from "../db/schema";
import type { Env } from "../env";
import {
  type CreditFigures,
  creditFigures,
  totalsOf,
  usageChart,
  USAGE_WINDOW_DAYS,
  windowStart,
} from "../pages/usage-summary";
import type { UsageCounters } from "../usage/recorder";
import type { EdgeServices } from "../services";
import type { QuotaState } from "../tenants/periods";
import { balancesOf } from "../ledger/balances";
import { CACHED_OPERATIONS } from "../pipeline/catalog";
import { organizationBalances } from "./organization-credits";
import { dailyUsage, type OperationUsage, usageByOperation } from "./usage-queries";

const UPSTREAM_ACCOUNT_TIMEOUT_MS = 5000;

export const tenantSortSchema = z.object({
  sort: z.enum(["name", "usage", "credits", "last_seen", "status", "requests", "created"]).catch("usage"),
  dir: z.enum(["asc", "desc"]).catch("desc"),
});
export type TenantSort = z.infer<typeof tenantSortSchema>;

export interface TenantLine {
  row: TenantRow;
  /** The quota as the account API would answer it now (an ended period counts as reset). */
  quota: QuotaState;
  usage: UsageCounters;
  /** Platform credits spent and saved over the report's window. */
  credits: CreditFigures;
}

export type UpstreamAccountStatus =
  | { apiId: string; ok: true; account: Account }
  | { apiId: string; ok: false; problem: string };

/** What each column of the console's tenant table sorts by. */
const SORT_KEYS: Record<TenantSort["sort"], (line: TenantLine) => number | string> = {
  name: (line) => line.row.name.toLowerCase(),
  usage: (line) => (line.quota.allowance > 0 ? line.quota.used / line.quota.allowance : 0),
  last_seen: (line) => line.row.lastSeenAt ?? -1,
  status: (line) => (line.row.disabled ? 1 : 0),
  requests: (line) => line.usage.requests,
  credits: (line) => line.credits.spent,
  created: (line) => line.row.createdAt,
};

function sortTenants(lines: readonly TenantLine[], sort: TenantSort): TenantLine[] {
  const key = SORT_KEYS[sort.sort];
  const direction = sort.dir === "asc" ? 1 : -1;
  return [...lines].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    const order = x < y ? -1 : x > y ? 1 : 0;
    // Ties keep a stable, readable order: by name.
    return order * direction || a.row.name.localeCompare(b.row.name) || a.row.id.localeCompare(b.row.id);
  });
}

/** One upstream account's own quota, from its GET /v1/account through the edge's upstream. */
async function upstreamAccount(services: EdgeServices, apiId: string): Promise<UpstreamAccountStatus> {
  try {
    const { response } = await services.upstream.call({
      method: "GET",
      path: "/v1/account",
      credentialId: apiId,
      signal: AbortSignal.timeout(UPSTREAM_ACCOUNT_TIMEOUT_MS),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return { apiId, ok: false, problem: `the upstream answered HTTP ${response.status}` };
    }
    const parsed = accountSchema.safeParse(await response.json());
    return parsed.success
      ? { apiId, ok: true, account: parsed.data }
      : { apiId, ok: false, problem: "the upstream's answer is not an account" };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    const problem = timedOut ? "the upstream did not answer in time" : "the upstream could not be reached";
    return { apiId, ok: false, problem };
  }
}

/** Everything the admin console's overview shows. */
export type FleetReport = Awaited<ReturnType<typeof fleetReport>>;

export async function fleetReport(services: EdgeServices, env: Env, sort: TenantSort) {
  const now = services.clock.now();
  const since = windowStart(now);
  const [rows, daily, upstream, operations, balances] = await Promise.all([
    services.tenants.list(),
    dailyUsage(services.db, since),
    Promise.all(
      services.config.upstreamCredentials.map((credential) => upstreamAccount(services, credential.apiId)),
    ),
    usageByOperation(services.db, since),
    organizationBalances(services, env),
  ]);
  const legacyOnPlatform = services.config.upstreamApi === "platform";
  const byTenant = new Map<string, OperationUsage[]>();
  for (const row of operations) byTenant.set(row.tenantId, [...(byTenant.get(row.tenantId) ?? []), row]);
  const quotas = await balancesOf(services, rows);
  const lines = rows.map((row) => {
    const own = byTenant.get(row.id) ?? [];
    return {
      row,
      quota: quotas.get(row.id) ?? { used: 0, allowance: row.allowance, resetsAt: null },
      usage: totalsOf(own),
      credits: creditFigures(own, legacyOnPlatform),
    };
  });
  return {
    now,
    days: USAGE_WINDOW_DAYS,
    tenants: sortTenants(lines, sort),
    sort,
    active: lines.filter((line) => !line.row.disabled).length,
    disabled: lines.filter((line) => line.row.disabled).length,
    quotaUsed: lines.reduce((sum, line) => sum + line.quota.used, 0),
    quotaAllowance: lines.reduce((sum, line) => sum + line.quota.allowance, 0),
    totals: totalsOf(daily),
    /** Requests to routes the cache serves; cache hits are a share of these. */
    cachedRequests: daily.reduce(
      (sum, row) => sum + (CACHED_OPERATIONS.has(row.operation) ? row.requests : 0),
      0,
    ),
    chart: usageChart(daily, now),
    upstream,
    /** Platform credits of all tenants over the window. */
    credits: creditFigures(operations, legacyOnPlatform),
    /** Whether the edge has a Platform upstream (else there are no balances to show). */
    platformConfigured: services.platform !== null,
    /** The Platform organizations' remaining credits, in the pool's order. */
    balances,
  };
}
