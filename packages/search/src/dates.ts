/**
 * Dates for `timestamp` fields (INTEGER epoch milliseconds). Every date names an interval of
 * milliseconds, as precise as it is written: `2020-01-01` is that whole (UTC) day,
 * `2020-01-01T10:00Z` one minute, `now` one millisecond, `now/d` today. A match takes the whole
 * interval; range bounds take its start or end the way Elasticsearch rounds date math
 * (`gte`/`lt` round down, `gt`/`lte` round up), so `[2020-01-01 TO 2020-01-31]` covers January.
 *
 * Accepted: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, then `T` (or a space) `hh:mm[:ss[.fraction]]` and
 * an optional `Z` or `±hh:mm` offset (UTC without one); `now`; date math after either
 * (`now-1d`, `now+2h`, `now-1d/d`, `2020-01-01||+1M`), units y M w d h H m s.
 */
export interface TimeInterval {
  /** First millisecond. */
  low: number;
  /** Last millisecond (inclusive). */
  high: number;
}

type Unit = "y" | "M" | "w" | "d" | "h" | "m" | "s";

const ABSOLUTE =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/i;
const MATH_STEP = /^([+-])(\d{1,6})([yMwdhHms])/;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function parseOffset(zone: string | undefined): number | null {
  if (zone === undefined || zone.toUpperCase() === "Z") return 0;
  const digits = zone.replace(":", "");
  const hours = Number(digits.slice(1, 3));
  const minutes = Number(digits.slice(3, 5));
  if (hours > 23 || minutes > 59) return null;
  return (zone.startsWith("-") ? -1 : 1) * (hours * HOUR + minutes * MINUTE);
}

function parseAbsolute(text: string): TimeInterval | null {
  const match = ABSOLUTE.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  const y = Number(year);
  const mo = month === undefined ? 1 : Number(month);
  const d = day === undefined ? 1 : Number(day);
  const h = Number(hour ?? 0);
  const mi = Number(minute ?? 0);
  const s = Number(second ?? 0);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return null;
  const offset = parseOffset(zone);
  if (offset === null) return null;
  const digits = (fraction ?? "").slice(0, 3);
  const ms = digits === "" ? 0 : Number(digits.padEnd(3, "0"));
  const low = Date.UTC(y, mo - 1, d, h, mi, s, ms) - offset;
  let end: number;
  if (month === undefined) end = Date.UTC(y + 1, 0, 1);
  else if (day === undefined) end = Date.UTC(y, mo, 1);
  else if (hour === undefined) end = Date.UTC(y, mo - 1, d + 1);
  else if (second === undefined) return { low, high: low + MINUTE - 1 };
  else if (fraction === undefined) return { low, high: low + SECOND - 1 };
  else return { low, high: low + 10 ** (3 - digits.length) - 1 };
  return { low, high: end - 1 - offset };
}

function addUnits(time: number, sign: number, amount: number, unit: Unit): number {
  const date = new Date(time);
  switch (unit) {
    case "y":
      date.setUTCFullYear(date.getUTCFullYear() + sign * amount);
      return date.getTime();
    case "M":
      date.setUTCMonth(date.getUTCMonth() + sign * amount);
      return date.getTime();
    case "w":
      return time + sign * amount * 7 * DAY;
    case "d":
      return time + sign * amount * DAY;
    case "h":
      return time + sign * amount * HOUR;
    case "m":
      return time + sign * amount * MINUTE;
    case "s":
      return time + sign * amount * SECOND;
  }
}

/** The interval of `unit` that holds `time` (weeks start on Monday, as in Elasticsearch). */
function roundTo(time: number, unit: Unit): TimeInterval {
  const date = new Date(time);
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth();
  const dayStart = Date.UTC(y, m, date.getUTCDate());
  let low: number;
  let next: number;
  switch (unit) {
    case "y":
      low = Date.UTC(y, 0, 1);
      next = Date.UTC(y + 1, 0, 1);
      break;
    case "M":
      low = Date.UTC(y, m, 1);
      next = Date.UTC(y, m + 1, 1);
      break;
    case "w":
      low = dayStart - ((date.getUTCDay() + 6) % 7) * DAY;
      next = low + 7 * DAY;
      break;
    case "d":
      low = dayStart;
      next = low + DAY;
      break;
    default: {
      const size = unit === "h" ? HOUR : unit === "m" ? MINUTE : SECOND;
      low = Math.floor(time / size) * size;
      next = low + size;
    }
  }
  return { low, high: next - 1 };
}

function applyMath(anchor: TimeInterval, math: string): TimeInterval | null {
  if (math === "") return anchor;
  let time = anchor.low;
  let rest = math;
  for (let step = MATH_STEP.exec(rest); step; step = MATH_STEP.exec(rest)) {
    const [all, sign, amount, unit] = step;
    time = addUnits(time, sign === "-" ? -1 : 1, Number(amount), (unit === "H" ? "h" : unit) as Unit);
    rest = rest.slice(all.length);
  }
  if (rest === "") return { low: time, high: time };
  const rounding = /^\/([yMwdhHms])$/.exec(rest)?.[1];
  if (rounding === undefined) return null;
  return roundTo(time, (rounding === "H" ? "h" : rounding) as Unit);
}

/** The interval a date value names, or null when it is not a date. */
export function parseTimeInterval(text: string, now: number): TimeInterval | null {
  if (/^now/i.test(text)) return applyMath({ low: now, high: now }, text.slice(3));
  const [date, math, extra] = text.split("||");
  if (date === undefined || extra !== undefined) return null;
  const anchor = parseAbsolute(date);
  if (anchor === null) return null;
  if (math === undefined) return anchor;
  return math === "" ? null : applyMath(anchor, math);
}
