/**
 * `Retry-After` as seconds to wait: delta-seconds (`"7"`) or an HTTP-date (RFC 9110 §10.2.3).
 * Undefined when absent or unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  // Some services send fractional seconds; accept them rather than ignore the hint.
  if (/^\d+\.\d+$/.test(text)) return Number(text);
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
