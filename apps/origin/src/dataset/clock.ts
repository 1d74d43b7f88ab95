/**
 * The dataset's fixed "now": every date in it (validity, scans, history) is relative to this
 * instant, so the output does not depend on when it is generated. Validation ("is this
 * certificate valid") is computed at this instant too.
 */
export const DATASET_NOW = Date.UTC(2026, 10, 1, 0, 0, 0);

/** Days of daily host history before DATASET_NOW. */
export const HISTORY_DAYS = 35;

export const DAY_MS = 86_400_000;

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
