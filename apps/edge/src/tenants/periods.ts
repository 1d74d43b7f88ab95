import type { TenantPeriod } from "@scangate/core";

// Quota period arithmetic, in UTC. Periods follow the calendar (a monthly allowance refills on
// the first of each month), so every tenant on a period shares one reset instant.

/** When a period that is current at `now` ends; null for `never` (one-time credits). */
export function nextReset(period: TenantPeriod, now: number): number | null {
  const date = new Date(now);
  switch (period) {
    case "daily":
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1);
    case "monthly":
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
    case "never":
      return null;
  }
}

export interface QuotaState {
  readonly used: number;
  readonly allowance: number;
  /** Null when the allowance never refills. */
  readonly resetsAt: number | null;
}

/** The quota as it stands at `now`: a period that has ended counts as already reset. */
export function effectiveQuota(row: QuotaState & { period: TenantPeriod }, now: number): QuotaState {
  if (row.resetsAt !== null && row.resetsAt <= now) {
    return { used: 0, allowance: row.allowance, resetsAt: nextReset(row.period, now) };
  }
  return { used: row.used, allowance: row.allowance, resetsAt: row.resetsAt };
}

/** Length in seconds of the period that ends at `resetsAt` (the RateLimit-Policy window). */
export function periodSeconds(period: TenantPeriod, resetsAt: number | null): number | null {
  if (resetsAt === null) return null;
  if (period === "daily") return 86_400;
  const end = new Date(resetsAt);
  return (resetsAt - Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 1, end.getUTCDate())) / 1000;
}

/** Seconds until the quota refills (at least 1), or null when it never does. */
export function secondsUntilReset(quota: QuotaState, now: number): number | null {
  return quota.resetsAt === null ? null : Math.max(1, Math.ceil((quota.resetsAt - now) / 1000));
}

/**
 * The account wire format has no "never": one-time credits show the end of time, which every
 * client parses and nobody mistakes for a real reset.
 */
export const NEVER_RESETS_AT = "9999-12-31 23:59:59";
