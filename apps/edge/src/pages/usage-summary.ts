// Shapes the usage rollups (one row per day and operation, summed from the hourly rollups) into
// what the pages show: totals, a 30-day stacked series, recent errors. Pure, so it is tested
// without D1 and the page figures are one function of the rollups.

import { COUNTERS, NO_ROUTE, type UsageCounters } from "../usage/recorder";

export const DAY_MS = 86_400_000;
export const USAGE_WINDOW_DAYS = 30;
/** Operations drawn as their own colour; the rest are summed as "other". */
const MAX_CHART_SERIES = 6;

export interface DailyOperationUsage extends UsageCounters {
  /** Start of the UTC day, epoch ms. */
  day: number;
  operation: string;
}

export interface UsageChart {
  /** `colour` is a position in the palette (0..MAX_CHART_SERIES; the last one is "other"). */
  series: { label: string; colour: number; total: number }[];
  /** `values`: requests per series, in the order of `series`. */
  days: { day: number; values: number[]; total: number }[];
}

/** Platform credits: what Platform calls spent from the ledger, and upstream credits the cache saved. */
export interface CreditFigures {
  spent: number;
  saved: number;
}

/**
 * Credits of some rollups. `spent` counts the Platform operations, and the legacy ones too when
 * the upstream speaks only the Platform API (`legacyOnPlatform`: each legacy call is then charged
 * the credits of the Platform calls it becomes, pipeline/price.ts, declared in each route); otherwise legacy
 * quota shares the ledger but is not credits. `saved` counts every operation, since a cached
 * Platform document may answer a legacy request too.
 */
export function creditFigures(
  rows: readonly (UsageCounters & { operation: string })[],
  legacyOnPlatform: boolean,
): CreditFigures {
  const figures = { spent: 0, saved: 0 };
  for (const row of rows) {
    // Platform (/v3) operations are named `v3_*` (core `v3/credit-costs.ts`); legacy ones never are.
    if (legacyOnPlatform || row.operation.startsWith("v3_")) figures.spent += row.quotaSpent;
    figures.saved += row.quotaSaved;
  }
  return figures;
}

function startOfDay(ms: number): number {
  return ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
}

/** The first instant of the window that ends today (UTC) and spans `days` days. */
export function windowStart(now: number, days = USAGE_WINDOW_DAYS): number {
  return startOfDay(now) - (days - 1) * DAY_MS;
}

export function totalsOf(rows: readonly UsageCounters[]): UsageCounters {
  const sum = Object.fromEntries(COUNTERS.map((counter) => [counter, 0])) as UsageCounters;
  for (const row of rows) for (const counter of COUNTERS) sum[counter] += row[counter];
  return sum;
}

/**
 * How an operation reads on a page: its name, or what a request that matched no route is (rows
 * written before the edge named those `no_route` say `unknown`).
 */
export function operationLabel(operation: string): string {
  return operation === NO_ROUTE || operation === "unknown" ? "no matching route" : operation;
}

/** Requests per day, stacked by operation: the busiest operations by name, the rest as "other". */
export function usageChart(
  rows: readonly DailyOperationUsage[],
  now: number,
  days = USAGE_WINDOW_DAYS,
): UsageChart {
  const byOperation = new Map<string, number>();
  for (const row of rows)
    byOperation.set(row.operation, (byOperation.get(row.operation) ?? 0) + row.requests);
  const ranked = [...byOperation.entries()]
    .filter(([, total]) => total > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const named = ranked.length > MAX_CHART_SERIES ? ranked.slice(0, MAX_CHART_SERIES - 1) : ranked;
  const index = new Map(named.map(([operation], i) => [operation, i]));
  const series: UsageChart["series"] = named.map(([operation, total], i) => ({
    label: operationLabel(operation),
    colour: i,
    total,
  }));
  const otherTotal = ranked.slice(named.length).reduce((sum, [, total]) => sum + total, 0);
  if (otherTotal > 0) series.push({ label: "other", colour: MAX_CHART_SERIES, total: otherTotal });

  const first = windowStart(now, days);
  const chartDays: UsageChart["days"] = Array.from({ length: days }, (_, i) => ({
    day: first + i * DAY_MS,
    values: series.map(() => 0),
    total: 0,
  }));
  for (const row of rows) {
    const slot = chartDays[Math.round((startOfDay(row.day) - first) / DAY_MS)];
    if (!slot || row.requests === 0) continue;
    const position = index.get(row.operation) ?? series.length - 1;
    slot.values[position] = (slot.values[position] ?? 0) + row.requests;
    slot.total += row.requests;
  }
  return { series, days: chartDays };
}

/** Days and operations that had errors, newest first. */
export function recentErrors(rows: readonly DailyOperationUsage[], limit = 10) {
  return rows
    .filter((row) => row.errors > 0)
    .sort((a, b) => b.day - a.day || b.errors - a.errors || a.operation.localeCompare(b.operation))
    .slice(0, limit)
    .map((row) => ({ day: row.day, operation: row.operation, errors: row.errors, requests: row.requests }));
}

/** Share of `part` in `whole` as a fraction 0..1 (0 when there is no whole). */
export function ratio(part: number, whole: number): number {
  return whole > 0 ? Math.min(1, part / whole) : 0;
}
