import {
  certificateHostsQuerySchema,
  diffJson,
  hostDiffQuerySchema,
  hostEventsQuerySchema,
  hostNamesQuerySchema,
  hostsAggregateQuerySchema,
  hostsSearchQuerySchema,
  legacyHost,
  legacyHostEvents,
  legacyHostHit,
  projectLegacyFields,
  requireFingerprint,
  requireHostIp,
  requireInstant,
  V3_AGGREGATE_BUCKETS_MAX,
  V3_PAGE_SIZE_MAX,
  v3DnsIpResolutionsSchema,
  v3HostTimelineSchema,
} from "@scangate/core";
import { convertLegacyQuery } from "@scangate/search";
import {
  asLegacy,
  cursorLink,
  cursorToken,
  legacyError,
  type LegacyCall,
  v2Ok,
  v2Query,
} from "./legacy-session";

// v2 hosts (view, search, aggregate) translated to the Platform's host asset and global search,
// and the v2 lists about hosts: a host's names (its DNS resolutions), the hosts presenting a
// certificate (a host search on its fingerprint) and the service names hosts run (an aggregate);
// a host over time (v2 events and diffs) from the host timeline and host lookups at a point in time.

/** Every host: the Platform's search needs a query, the legacy empty one means all. */
const ALL_HOSTS = "host.ip: *";

/** A legacy v2 hosts query as CenQL; one that does not parse is the legacy 422 with where it failed. */
function hostQuery(q: string | undefined): string {
  if (q === undefined || q.trim() === "") return ALL_HOSTS;
  const converted = convertLegacyQuery(q, "v2", "hosts");
  if (!converted.ok) {
    const { message, position, token } = converted.error;
    throw legacyError("invalid_query", "v2", undefined, { detail: message, position, token });
  }
  return converted.value;
}

/** A legacy v2 field name (`services.port`) as its CenQL field (`host.services.port`). */
function hostField(field: string): string {
  const converted = /^[\w.]+$/.test(field) ? convertLegacyQuery(`${field}: *`, "v2", "hosts") : null;
  const name = converted?.ok ? /^([\w.]+): \*$/.exec(converted.value)?.[1] : undefined;
  if (!name)
    throw legacyError("bad_request", "v2", `field ${JSON.stringify(field)} has no Platform equivalent`);
  return name;
}

/** GET /v2/hosts/{ip}[?at_time=...] ← GET /v3/global/asset/host/{ip}[?at_time=...]. */
export async function translateHostView({ session, id, url }: LegacyCall) {
  const atTime = url.searchParams.get("at_time");
  const ip = asLegacy("v2", () => {
    if (atTime !== null) requireInstant("at_time", atTime);
    return requireHostIp(id);
  });
  return v2Ok(legacyHost(await session.host(ip, atTime, "invalid_query")));
}

/** GET /v2/hosts/search ← POST /v3/global/search/query (host hits; page tokens as cursors). */
export async function translateHostsSearch({ session, url }: LegacyCall) {
  const { q = "", per_page: perPage, cursor, fields } = v2Query(hostsSearchQuerySchema, url, true);
  const pageToken = cursorToken(
    cursor,
    q,
    perPage,
    "cursor belongs to another query or page size; send the same q and per_page",
  );
  const query = hostQuery(q);
  // per_page 0 asks for the total alone: the Platform's smallest page is one hit.
  const page = await session.search({ query, page_size: Math.max(1, perPage) }, pageToken, "invalid_query");
  const hosts = perPage === 0 ? [] : page.hits.flatMap((hit) => (hit.host_v1 ? [hit.host_v1.resource] : []));
  const link = (token: string) => (perPage === 0 ? "" : cursorLink(token, q, perPage));
  return v2Ok({
    query: q,
    total: page.total_hits,
    hits: hosts.map((host) => {
      if (!fields || fields.length === 0) return legacyHostHit(host);
      const document = legacyHost(host);
      return { ip: document.ip, ...projectLegacyFields(document, fields, false) };
    }),
    links: { prev: link(page.previous_page_token), next: link(page.next_page_token) },
  });
}

/** GET /v2/hosts/aggregate ← POST /v3/global/search/aggregate. */
export async function translateHostsAggregate({ session, url }: LegacyCall) {
  const { q = "", field, num_buckets: buckets } = v2Query(hostsAggregateQuerySchema, url, true);
  const body = { query: hostQuery(q), field: hostField(field), number_of_buckets: buckets };
  const aggregate = await session.aggregate(body, "invalid_query");
  return v2Ok({
    query: q,
    field,
    total: aggregate.total_count,
    total_omitted: aggregate.other_count,
    potential_deviation: 0,
    buckets: aggregate.buckets.map(({ key, count }) => ({ key, count })),
  });
}

/**
 * One page of a v2 list the Platform pages forward only: the cursor carries the Platform's page
 * token, bound to the list and the page size, and there is never a previous page.
 */
async function forwardPage<Page extends { next_page_token: string }>(
  list: string,
  { per_page: perPage, cursor }: { per_page: number; cursor?: string },
  read: (token: string | null) => Promise<Page>,
) {
  const mismatch = "cursor belongs to another list or page size; send the same per_page";
  const page = await read(cursorToken(cursor, list, perPage, mismatch));
  return { page, links: { prev: "", next: cursorLink(page.next_page_token, list, perPage) } };
}

/**
 * GET /v2/hosts/{ip}/names ← GET /v3/global/dns/resolutions/ip/{ip}/bounds: the names the
 * host resolved from within the Platform's default window, one per name (the bounds merge a
 * name's ranges), in name order. A page holds at most the Platform's 100.
 */
export async function translateHostNames({ session, id, url }: LegacyCall) {
  const ip = asLegacy("v2", () => requireHostIp(id));
  const paging = v2Query(hostNamesQuerySchema, url);
  const { page, links } = await forwardPage(`names ${ip}`, paging, (token) => {
    const query = new URLSearchParams({ page_size: String(Math.min(paging.per_page, V3_PAGE_SIZE_MAX)) });
    if (token !== null) query.set("page_token", token);
    const target = `/v3/global/dns/resolutions/ip/${ip}/bounds?${query.toString()}`;
    return session.get(v3DnsIpResolutionsSchema, "resolutions", target);
  });
  return v2Ok({ names: [...new Set((page.records ?? []).map((record) => record.domain))], links });
}

interface ServiceSeen {
  cert?: { fingerprint_sha256?: unknown };
  tls?: { fingerprint_sha256?: unknown };
  scan_time?: unknown;
}

/** The certificate a service presents: its `cert`, or the fingerprint its TLS block names. */
const presented = (s: ServiceSeen) => s.cert?.fingerprint_sha256 ?? s.tls?.fingerprint_sha256;

/**
 * GET /v2/certificates/{sha256}/hosts ← a host search on the fingerprint: each host with the
 * latest scan of a service presenting it. When a host first presented it is the host history's,
 * which a search does not carry: `first_observed_at` is left out. No host at all is the 404 an
 * unknown certificate gets.
 */
export async function translateCertificateHosts({ session, id, url }: LegacyCall) {
  const fingerprint = asLegacy("v2", () => requireFingerprint(id));
  const paging = v2Query(certificateHostsQuerySchema, url);
  const { page, links } = await forwardPage(`certificate hosts ${fingerprint}`, paging, async (token) => {
    const query = `host.services.cert.fingerprint_sha256 = "${fingerprint}"`;
    const found = await session.search({ query, page_size: paging.per_page }, token);
    if (token === null && found.hits.length === 0) throw legacyError("not_found", "v2");
    return found;
  });
  const hosts = page.hits.flatMap((hit) => {
    const host = hit.host_v1?.resource as { ip?: unknown; services?: ServiceSeen[] } | undefined;
    if (typeof host?.ip !== "string") return [];
    const presenting = (host.services ?? []).filter((s) => presented(s) === fingerprint);
    const times = presenting.flatMap((s) => (typeof s.scan_time === "string" ? [s.scan_time] : []));
    const latest = times.sort((a, b) => Date.parse(b) - Date.parse(a))[0];
    return [{ ip: host.ip, ...(latest === undefined ? {} : { observed_at: latest }) }];
  });
  return v2Ok({ fingerprint, hosts, links });
}

/** GET /v2/metadata/hosts ← an aggregate of the hosts' service names, sorted ignoring case. */
export async function translateHostsMetadata({ session }: LegacyCall) {
  const body = {
    query: ALL_HOSTS,
    field: "host.services.protocol",
    number_of_buckets: V3_AGGREGATE_BUCKETS_MAX,
  };
  const read = await session.aggregate(body);
  const byLower = new Map<string, string>();
  for (const { key } of [...read.buckets].reverse()) byLower.set(key.toLowerCase(), key);
  // Keys are unique: no two compare equal.
  const services = [...byLower].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, name]) => name);
  return v2Ok({ services });
}

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
export async function translateHostEvents({ session, id, url }: LegacyCall) {
  const ip = asLegacy("v2", () => requireHostIp(id));
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
export async function translateHostDiff({ session, id, url }: LegacyCall) {
  const ip = asLegacy("v2", () => {
    const other = url.searchParams.get("ip_b");
    if (other !== null) requireHostIp(other);
    return requireHostIp(id);
  });
  const { ip_b: ipB, at_time: atTime, at_time_b: atTimeB } = v2Query(hostDiffQuerySchema, url);
  const a = legacyHost(await session.host(ip, atTime));
  const b = legacyHost(await session.host(ipB ?? ip, atTimeB));
  return v2Ok({
    a: { ip: a.ip, last_updated_at: a.last_updated_at },
    b: { ip: b.ip, last_updated_at: b.last_updated_at },
    patch: diffJson(a, b),
  });
}
