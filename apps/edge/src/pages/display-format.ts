// How figures and times read on the pages. Times are UTC everywhere (the quota resets on UTC
// calendar boundaries), and say so.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** A fraction 0..1 as a whole percentage; a non-zero share never reads as 0%. */
export function formatPercent(fraction: number): string {
  if (fraction > 0 && fraction < 0.01) return "<1%";
  if (fraction < 1 && fraction > 0.99) return "99%";
  return `${Math.round(fraction * 100)}%`;
}

/** `2026-11-22` */
export function isoDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** `Nov 22` */
export function shortDay(ms: number): string {
  const d = new Date(ms);
  return `${MONTHS[d.getUTCMonth()] ?? ""} ${d.getUTCDate()}`;
}

/** `2026-12-01 00:00 UTC` */
export function dateTime(ms: number): string {
  const d = new Date(ms);
  return `${isoDay(ms)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

function span(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "less than a minute";
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? "" : "s"}`;
  const days = Math.round(hours / 24);
  return `${days} days`;
}

/** `in 8 days` */
export function fromNow(ms: number, now: number): string {
  return ms <= now ? "now" : `in ${span(ms - now)}`;
}

/** `5 minutes ago` */
export function ago(ms: number, now: number): string {
  return ms >= now ? "just now" : `${span(now - ms)} ago`;
}
