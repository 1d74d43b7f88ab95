import type { HostVersionDocument } from "./host-events";

/**
 * When something was present on a host, from its history: each version of the host's document
 * holds from its start until the next version begins (the current one until the host was last
 * observed), and a name, a service or a certificate is present for the runs of consecutive
 * versions that hold it. The DNS resolutions, a host's service history and a certificate's host
 * observations are all such runs.
 */

/** A version and the instants it held: [start, end]. */
export interface VersionSpan {
  start: number;
  end: number;
  doc: unknown;
}

/** The versions of a host as spans, oldest first; the last one ends at `lastSeen`. */
export function versionSpans(versions: readonly HostVersionDocument[], lastSeen: number): VersionSpan[] {
  const ordered = [...versions].sort((a, b) => a.validFrom - b.validFrom);
  return ordered.map((version, i) => {
    const next = ordered[i + 1];
    const end = next ? next.validFrom : Math.max(lastSeen, version.validFrom);
    return { start: version.validFrom, end, doc: version.doc };
  });
}

/** A run of consecutive versions holding `key`, with what they held of it. */
export interface PresenceRange<T> {
  key: string;
  start: number;
  end: number;
  value: T;
}

/**
 * For each key a version holds (`keysOf`: key → what the version holds of it), the maximal runs
 * of consecutive versions holding it; `merge` combines what each version of a run held (the
 * first version's, by default). Ordered by key, then start.
 */
export function presenceRanges<T>(
  spans: readonly VersionSpan[],
  keysOf: (doc: unknown) => ReadonlyMap<string, T>,
  merge: (a: T, b: T) => T = (a) => a,
): PresenceRange<T>[] {
  const open = new Map<string, PresenceRange<T>>();
  const closed: PresenceRange<T>[] = [];
  for (const span of spans) {
    const held = keysOf(span.doc);
    for (const [key, range] of open) {
      if (!held.has(key)) {
        closed.push(range);
        open.delete(key);
      }
    }
    for (const [key, value] of held) {
      const range = open.get(key);
      if (range) open.set(key, { ...range, end: span.end, value: merge(range.value, value) });
      else open.set(key, { key, start: span.start, end: span.end, value });
    }
  }
  closed.push(...open.values());
  return closed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.start - b.start));
}

/** The part of each range within [from, to]; ranges outside it are left out. */
export function withinWindow<R extends { start: number; end: number }>(
  ranges: readonly R[],
  from: number,
  to: number,
): R[] {
  return ranges.flatMap((range) =>
    range.end < from || range.start > to
      ? []
      : [{ ...range, start: Math.max(range.start, from), end: Math.min(range.end, to) }],
  );
}

/** The window of a history list: `start_time`..`end_time`, as the routes validated them. */
export interface HistoryWindow {
  from: number;
  to: number;
}

/**
 * The window a request asks for: `end_time` (default now; not in the future beyond `skewMs`),
 * `start_time` (default `maxDays` before the end; not after it), at most `maxDays` wide. A bad
 * one throws `invalid(location, message, value)`.
 */
export function historyWindow(
  query: { start_time?: string; end_time?: string },
  now: number,
  limits: { maxDays: number; skewMs: number },
  invalid: (location: string, message: string, value: unknown) => Error,
): HistoryWindow {
  const widest = limits.maxDays * 86_400_000;
  const to = query.end_time === undefined ? now : Date.parse(query.end_time);
  if (to > now + limits.skewMs) throw invalid("query.end_time", "cannot be in the future", query.end_time);
  const from = query.start_time === undefined ? to - widest : Date.parse(query.start_time);
  if (from > to) throw invalid("query.start_time", "must not be after end_time", query.start_time);
  if (to - from > widest)
    throw invalid("query.start_time", `the window cannot exceed ${limits.maxDays} days`, query.start_time);
  return { from, to };
}
