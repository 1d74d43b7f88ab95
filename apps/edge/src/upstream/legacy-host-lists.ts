import {
  certificateHostsQuerySchema,
  hostNamesQuerySchema,
  V3_AGGREGATE_BUCKETS_MAX,
  V3_PAGE_SIZE_MAX,
  v3DnsIpResolutionsSchema,
  v3SearchAggregateResponseSchema,
  v3SearchQueryResponseSchema,
} from "@scangate/core";
import type { UpstreamCall } from "./interface";
import { decodeCursor, encodeCursor } from "./legacy-hosts";
import { legacyError, type PlatformSession, v2Ok } from "./legacy-session";

// The v2 lists about hosts answered from the Platform: a host's names (its DNS resolutions),
// the hosts presenting a certificate (a host search on its fingerprint) and the service names
// hosts run (an aggregate).

/** Query parameters as the legacy schemas read them (each name once). */
const paramsOf = (url: URL) => Object.fromEntries(url.searchParams);

function invalidParams(issues: readonly { path: PropertyKey[]; message: string }[]) {
  const issue = issues[0];
  return legacyError("bad_request", "v2", issue ? `${issue.path.join(".")}: ${issue.message}` : undefined);
}

/** The Platform page token a legacy cursor carries, checked against the list and page size it pages. */
function tokenOf(cursorText: string | undefined, list: string, perPage: number): string | null {
  if (cursorText === undefined || cursorText === "") return null;
  const cursor = decodeCursor(cursorText);
  if (!cursor) throw legacyError("bad_request", "v2", "cursor is not valid");
  if (cursor.q !== list || cursor.perPage !== perPage)
    throw legacyError(
      "bad_request",
      "v2",
      "cursor belongs to another list or page size; send the same per_page",
    );
  return cursor.token;
}

const link = (token: string, list: string, perPage: number) =>
  token === "" ? "" : encodeCursor({ token, q: list, perPage });

/**
 * GET /v2/hosts/{ip}/names ← GET /v3/global/dns/resolutions/ip/{ip}/bounds: the names the
 * host resolved from within the Platform's default window, one per name (the bounds merge a
 * name's ranges), in name order. A page holds at most the Platform's 100.
 */
export async function translateHostNames(_call: UpstreamCall, url: URL, session: PlatformSession) {
  const ip = url.pathname.slice("/v2/hosts/".length, -"/names".length);
  const parsed = hostNamesQuerySchema.safeParse(paramsOf(url));
  if (!parsed.success) throw invalidParams(parsed.error.issues);
  const { per_page: perPage, cursor } = parsed.data;
  const list = `names ${ip}`;
  const token = tokenOf(cursor, list, perPage);
  const query = new URLSearchParams({ page_size: String(Math.min(perPage, V3_PAGE_SIZE_MAX)) });
  if (token !== null) query.set("page_token", token);
  const read = v3DnsIpResolutionsSchema.safeParse(
    await session.result(
      "GET",
      `/v3/global/dns/resolutions/ip/${ip}/bounds?${query.toString()}`,
      undefined,
      "v2",
    ),
  );
  if (!read.success)
    throw legacyError("upstream_error", "v2", "the Platform upstream answered resolutions we cannot read");
  const names = [...new Set((read.data.records ?? []).map((record) => record.domain))];
  return v2Ok({
    names,
    links: { prev: "", next: link(read.data.next_page_token, list, perPage) },
  });
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
export async function translateCertificateHosts(_call: UpstreamCall, url: URL, session: PlatformSession) {
  const fingerprint = url.pathname.slice("/v2/certificates/".length, -"/hosts".length).toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(fingerprint))
    throw legacyError(
      "bad_request",
      "v2",
      "the certificate is named by its SHA-256 fingerprint (64 hex digits)",
    );
  const parsed = certificateHostsQuerySchema.safeParse(paramsOf(url));
  if (!parsed.success) throw invalidParams(parsed.error.issues);
  const { per_page: perPage, cursor } = parsed.data;
  const list = `certificate hosts ${fingerprint}`;
  const token = tokenOf(cursor, list, perPage);
  const body = {
    query: `host.services.cert.fingerprint_sha256 = "${fingerprint}"`,
    page_size: perPage,
    ...(token === null ? {} : { page_token: token }),
  };
  const read = v3SearchQueryResponseSchema.safeParse(
    await session.result("POST", "/v3/global/search/query", body, "v2"),
  );
  if (!read.success)
    throw legacyError("upstream_error", "v2", "the Platform upstream answered a search page we cannot read");
  const page = read.data;
  if (token === null && page.hits.length === 0) throw legacyError("not_found", "v2");
  const hosts = page.hits.flatMap((hit) => {
    const host = hit.host_v1?.resource as { ip?: unknown; services?: ServiceSeen[] } | undefined;
    if (typeof host?.ip !== "string") return [];
    const presenting = (host.services ?? []).filter((s) => presented(s) === fingerprint);
    const times = presenting.flatMap((s) => (typeof s.scan_time === "string" ? [s.scan_time] : []));
    const latest = times.sort((a, b) => Date.parse(b) - Date.parse(a))[0];
    return [{ ip: host.ip, ...(latest === undefined ? {} : { observed_at: latest }) }];
  });
  return v2Ok({
    fingerprint,
    hosts,
    links: { prev: "", next: link(page.next_page_token, list, perPage) },
  });
}

/** GET /v2/metadata/hosts ← an aggregate of the hosts' service names, sorted ignoring case. */
export async function translateHostsMetadata(_call: UpstreamCall, _url: URL, session: PlatformSession) {
  const body = {
    query: "host.ip: *",
    field: "host.services.protocol",
    number_of_buckets: V3_AGGREGATE_BUCKETS_MAX,
  };
  const read = v3SearchAggregateResponseSchema.safeParse(
    await session.result("POST", "/v3/global/search/aggregate", body, "v2"),
  );
  if (!read.success)
    throw legacyError("upstream_error", "v2", "the Platform upstream answered an aggregate we cannot read");
  const byLower = new Map<string, string>();
  for (const { key } of read.data.buckets)
    if (!byLower.has(key.toLowerCase())) byLower.set(key.toLowerCase(), key);
  const lower = (name: string) => name.toLowerCase();
  const services = [...byLower.values()].sort((a, b) =>
    lower(a) < lower(b) ? -1 : lower(a) > lower(b) ? 1 : 0,
  );
  return v2Ok({ services });
}
