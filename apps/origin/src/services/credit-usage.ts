import type { V3CreditUsageReport, V3Granularity } from "@scangate/core";
import type { CreditTransaction } from "./credits";

/**
 * Credit usage reports from the ledger's rows: totals over a window of whole UTC days and one
 * period per day or calendar month (clipped to the window). Pure: the route reads the rows.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export interface UsageWindow {
  /** Epoch ms of the first day's midnight (UTC), inclusive. */
  startMs: number;
  /** Epoch ms of the midnight after the last day, exclusive. */
  endMs: number;
  granularity: V3Granularity;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

function periodBounds(window: UsageWindow): { start: number; end: number }[] {
  const periods: { start: number; end: number }[] = [];
  let start = window.startMs;
  while (start < window.endMs) {
    const at = new Date(start);
    const next =
      window.granularity === "daily"
        ? start + DAY_MS
        : Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
    const end = Math.min(next, window.endMs);
    periods.push({ start, end });
    start = end;
  }
  return periods;
}

/** The report of `transactions` (already limited to the window and, for a member, to them). */
export function creditUsageReport(
  transactions: readonly CreditTransaction[],
  window: UsageWindow,
  options: { byConsumer: boolean },
): V3CreditUsageReport {
  const periods = periodBounds(window).map(({ start, end }) => {
    const rows = transactions.filter((t) => t.createdAt >= start && t.createdAt < end);
    return {
      // The period's last instant, as the Platform's end dates are inclusive.
      start_date: iso(start),
      end_date: iso(end - 1000),
      credits_added: rows.filter((t) => t.amount > 0).reduce((sum, t) => sum + t.amount, 0),
      credits_consumed: rows.filter((t) => t.amount < 0).reduce((sum, t) => sum - t.amount, 0),
      credits_expired: 0,
      transaction_count: rows.length,
    };
  });
  const total = (key: "credits_added" | "credits_consumed" | "transaction_count") =>
    periods.reduce((sum, p) => sum + p[key], 0);
  const report: V3CreditUsageReport = {
    start_time: iso(window.startMs),
    end_time: iso(window.endMs - 1000),
    granularity: window.granularity,
    periods,
    total_added: total("credits_added"),
    total_consumed: total("credits_consumed"),
    total_expired: 0,
    transaction_count: total("transaction_count"),
    // Everything here is spent through the API; the origin has no UI that spends credits.
    credits_consumed_by_source: { api: total("credits_consumed"), ui: 0, auto_replenishment: 0, other: 0 },
  };
  if (options.byConsumer) {
    const byConsumer: Record<string, number> = {};
    for (const t of transactions) {
      if (t.amount < 0 && t.userId !== null) byConsumer[t.userId] = (byConsumer[t.userId] ?? 0) - t.amount;
    }
    report.credits_consumed_by_consumer = byConsumer;
  }
  return report;
}
