/**
 * The dataset's clock: every date in it (validity, scans, history) is relative to the start of
 * the day it is seeded on, so a dataset seeded today looks scanned through yesterday and its
 * latest daily snapshot is today's. The same seed and day give the same dataset byte for
 * byte; validation ("is this certificate valid") is judged at that instant too.
 */

export const DAY_MS = 86_400_000;

/** Days of daily host history before the dataset's "now". */
export const HISTORY_DAYS = 35;

export interface DatasetClock {
  /** The seed day, `YYYY-MM-DD` (UTC): the latest snapshot day. */
  day: string;
  /** The dataset's "now": the first instant of the seed day (epoch ms). */
  now: number;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The clock of the dataset seeded on `day` (`YYYY-MM-DD`), or null for a malformed or impossible day. */
export function datasetClock(day: string): DatasetClock | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const now = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(now).toISOString().slice(0, 10) === day ? { day, now } : null;
}

/**
 * The seed day a dataset's `dataset_meta.summary` records (JSON with `day`: `YYYY-MM-DD`),
 * or null when it records none (a dataset made before the clock followed the seed day).
 */
export function summaryDay(summary: string | null | undefined): string | null {
  if (summary === null || summary === undefined) return null;
  try {
    const day = (JSON.parse(summary) as { day?: unknown }).day;
    return typeof day === "string" && datasetClock(day) !== null ? day : null;
  } catch {
    return null;
  }
}

/** The UTC day (`YYYY-MM-DD`) an instant falls on. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whole days from the seed day to the day of `at` (0 on the seed day itself). */
export function daysSince(day: string, at: number): number {
  const clock = datasetClock(day);
  return clock === null ? 0 : Math.floor((at - clock.now) / DAY_MS);
}

/** `2026-11-01T00:00:00Z` (v1 documents and certificate timestamps: seconds precision). */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** RFC 3339 with nanoseconds, e.g. `2026-10-31T12:00:00.123456789Z` (v2 `observed_at`). */
export function rfc3339Nanos(ms: number, subMillisecondNanos: number): string {
  const base = new Date(ms).toISOString().slice(0, 19);
  const nanos = (ms % 1000) * 1_000_000 + (subMillisecondNanos % 1_000_000);
  return `${base}.${String(nanos).padStart(9, "0")}Z`;
}
