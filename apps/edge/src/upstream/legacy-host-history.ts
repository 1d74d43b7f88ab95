import {
  diffJson,
  hostDiffQuerySchema,
  hostEventsQuerySchema,
  legacyHost,
  legacyHostEvents,
  v3HostTimelineSchema,
} from "@scangate/core";
import { cursorLink, cursorToken, legacyError, type LegacyCall, v2Ok, v2Query } from "./legacy-session";

// A host over time (v2 events and diffs) from the Platform's host timeline and host lookups at
// a point in time, reshaped by core's v3/legacy-host-events.ts and v3/legacy-host.ts.

/** The earliest instant the timeline is read from when the caller names none. */
const HISTORY_START = "1970-01-01T00:00:00Z";
/**
 * The latest instant the timeline is read to when the caller names none: v2 events without an
 * `end_time` have no later bound. Not the edge's clock: the upstream's data follows its own
 * clock (a dataset scanned through the day it was made), so events it recorded after the
 * edge's "now" would be left out.
 */
const HISTORY_END = "9999-12-31T23:59:59Z";

/**
 * GET /v2/experimental/hosts/{ip}/events ← GET /v3/global/asset/host/{ip}/timeline over the
 * window asked (the Platform's `start_time` is the later bound), one call per page: the events
 * in time order (newest first with `reversed`), `start_time` inclusive and `end_time` exclusive,
 * paged at the edge by a cursor bound to the window, order and page size.
 */
export async function translateHostEvents({ session, id: ip, url }: LegacyCall) {
  const {
    start_time: start,
    end_time: end,
    reversed,
    per_page: perPage,
    cursor,
  } = v2Query(hostEventsQuerySchema, url);
  const startMs = start === undefined ? -Infinity : Date.parse(start);
  const endMs = end === undefined ? Infinity : Date.parse(end);
  if (startMs > endMs) throw legacyError("bad_request", "v2", "start_time must not be after end_time");
  const list = JSON.stringify(["events", ip, start ?? "", end ?? "", reversed]);
  const token = cursorToken(
    cursor,
    list,
    perPage,
    "cursor belongs to another host, start_time, end_time, reversed or per_page",
    (offset) => /^\d+$/.test(offset),
  );
  const offset = token === null ? 0 : Number(token);
  const query = new URLSearchParams({ start_time: end ?? HISTORY_END, end_time: start ?? HISTORY_START });
  const timeline = await session.get(
    v3HostTimelineSchema,
    "a timeline",
    `/v3/global/asset/host/${ip}/timeline?${query.toString()}`,
  );
  const events = legacyHostEvents(timeline.events).filter((event) => {
    const at = Date.parse(event.timestamp);
    return at >= startMs && at < endMs;
  });
  if (reversed) events.reverse();
  const link = (at: number) => cursorLink(String(at), list, perPage);
  return v2Ok({
    ip,
    events: events.slice(offset, offset + perPage),
    links: {
      prev: offset > 0 ? link(Math.max(0, offset - perPage)) : "",
      next: offset + perPage < events.length ? link(offset + perPage) : "",
    },
  });
}

/**
 * GET /v2/hosts/{ip}/diff ← two host lookups (host A at `at_time`, host B, `ip_b` or the same
 * host, at `at_time_b`), one after the other so that an unknown host A costs nothing more; the
 * patch is core's `diffJson` between their v2 documents, as the origin computes it.
 */
export async function translateHostDiff({ session, id: ip, url }: LegacyCall) {
  const { ip_b: ipB, at_time: atTime, at_time_b: atTimeB } = v2Query(hostDiffQuerySchema, url);
  const a = legacyHost(await session.host(ip, atTime));
  const b = legacyHost(await session.host(ipB ?? ip, atTimeB));
  return v2Ok({
    a: { ip: a.ip, last_updated_at: a.last_updated_at },
    b: { ip: b.ip, last_updated_at: b.last_updated_at },
    patch: diffJson(a, b),
  });
}
