import { z } from "zod";

// String formats of the wire: timestamps in their several spellings, and URLs.

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** A calendar date-time with real month/day/hour ranges (Date.parse accepts Feb 30). */
function isRealDateTime(y: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1] ?? 0;
  return d >= 1 && d <= daysInMonth;
}

/**
 * Parses an RFC 3339 timestamp with up to nanosecond precision.
 * `ms` is epoch milliseconds (sub-millisecond digits dropped); `nanos` is the exact epoch
 * nanoseconds as a base-10 string (a canonical key: equal instants give equal strings).
 */
export function parseRfc3339Nanos(value: string): { ms: number; nanos: string } | null {
  const m = RFC3339.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!isRealDateTime(y, mo, d, h, mi, s)) return null;
  const offsetH = Number(m[9] ?? 0);
  const offsetM = Number(m[10] ?? 0);
  if (offsetH > 23 || offsetM > 59) return null;
  const fraction = (m[7] ?? "").padEnd(9, "0");
  const sign = m[8]?.startsWith("-") ? -1 : 1;
  const offsetMs = sign * (offsetH * 60 + offsetM) * 60_000;
  const utc = new Date(0);
  utc.setUTCFullYear(y, mo - 1, d);
  utc.setUTCHours(h, mi, s, Number(fraction.slice(0, 3)));
  const ms = utc.getTime() - offsetMs;
  const nanos = BigInt(ms) * 1_000_000n + BigInt(fraction.slice(3));
  return { ms, nanos: nanos.toString() };
}

/** RFC 3339 date-time, offset required, up to 9 fractional digits (v2 `observed_at`, `at_time`). */
export const rfc3339Schema = z
  .string()
  .refine(
    (value) => parseRfc3339Nanos(value) !== null,
    "expected an RFC 3339 timestamp (e.g. 2024-01-02T03:04:05.123456789Z)",
  );

/**
 * ISO 8601 date-time as found in v1 documents: `T` or space, optional fraction, optional offset.
 * Older upstream documents omit the offset, so this is looser than rfc3339Schema.
 */
export const isoTimestampSchema = z
  .string()
  .regex(
    /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[T ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?([Zz]|[+-]\d{2}:?\d{2})?$/,
    "expected an ISO 8601 timestamp",
  );

const DATE = String.raw`\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])`;
const TIME = String.raw`([01]\d|2[0-3]):[0-5]\d:[0-5]\d`;
/** Account timestamps: `YYYY-MM-DD hh:mm:ss`. */
export const accountTimestampSchema = z
  .string()
  .regex(new RegExp(`^${DATE} ${TIME}$`), "expected YYYY-MM-DD hh:mm:ss");
/** `last_login` may carry microseconds: `YYYY-MM-DD hh:mm:ss.ffffff`. */
export const accountLastLoginSchema = z
  .string()
  .regex(new RegExp(`^${DATE} ${TIME}(\\.\\d{1,6})?$`), "expected YYYY-MM-DD hh:mm:ss[.ffffff]");

const COMPACT_DATE = String.raw`\d{4}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])`;
/** Raw-data scan timestamp: `YYYYMMDDThhmmss`. */
export const scanTimestampSchema = z
  .string()
  .regex(new RegExp(`^${COMPACT_DATE}T([01]\\d|2[0-3])[0-5]\\d[0-5]\\d$`), "expected YYYYMMDDThhmmss");
/** Raw-data result id / name: `YYYYMMDDThhmm`. */
export const scanResultIdSchema = z
  .string()
  .regex(new RegExp(`^${COMPACT_DATE}T([01]\\d|2[0-3])[0-5]\\d$`), "expected YYYYMMDDThhmm");

/** Absolute http(s) URL (details_url, download_path, download_paths). */
export const httpUrlSchema = z.url({ protocol: /^https?$/, error: "expected an absolute http(s) URL" });
