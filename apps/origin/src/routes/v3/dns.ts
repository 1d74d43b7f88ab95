import {
  ipAddressSchema,
  isDomainName,
  v3DnsIpQuerySchema,
  v3DnsIpResolutionsSchema,
  v3DnsNameBoundsSchema,
  v3DnsNameQuerySchema,
  v3DnsNameRangesSchema,
  v3InputError,
  V3_FUTURE_SKEW_MS,
  V3_HISTORY_WINDOW_MAX_DAYS,
  ApiError,
  type V3DnsIpQuery,
  type V3DnsNameQuery,
} from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { ApiErrorWithHeaders } from "../../http/errors";
import { v3Query } from "../../http/v3-inputs";
import {
  compareIps,
  hostResolutions,
  ipRecord,
  nameResolutions,
  resolutionBounds,
  type Resolution,
} from "../../services/v3-dns";
import { certificateNamesOf, historiesCertificates } from "../../services/v3-host-histories";
import { nextPageToken, pageOf, pageRequest } from "../../services/v3-paging";
import { historyWindow } from "../../services/v3-presence";
import { rfc3339 } from "../../services/v3-records";
import { pathParam, platformRoute } from "./operation";

/**
 * DNS resolutions (`/v3/global/dns/resolutions`), by IP and by name, as ranges or merged per
 * record (bounds): computed from the host history (services/v3-dns.ts). By IP reads that
 * host's history; by name finds the hosts the name was ever seen on in the history index
 * (services/v3-history-index.ts) and reads theirs.
 */

const WINDOW_LIMITS = { maxDays: V3_HISTORY_WINDOW_MAX_DAYS, skewMs: V3_FUTURE_SKEW_MS };
/** Hosts a by-name list reads at most; a name seen on more is a 409 (ours). */
const NAME_HOSTS_MAX = 1000;
/** How long a request may spend finishing the history index before it answers 503. */
const INDEX_BUDGET_MS = 10_000;

const ipParam = z.object({ ip: z.string() });
const nameParam = z.object({ name: z.string() });

function requireIp(c: Context<AppEnv>): string {
  const ip = pathParam(c, "ip");
  if (!ipAddressSchema.safeParse(ip).success) throw v3InputError("path.ip", "not an IP address", ip);
  return ip;
}

function requireName(c: Context<AppEnv>): string {
  const name = pathParam(c, "name").toLowerCase().replace(/\.$/, "");
  if (!isDomainName(name)) throw v3InputError("path.name", "not a domain name", pathParam(c, "name"));
  return name;
}

function windowOf(c: Context<AppEnv>, query: { start_time?: string; end_time?: string }) {
  return historyWindow(query, c.var.services.clock.now(), WINDOW_LIMITS, v3InputError);
}

/** Every resolution of the host within the window (404 for a host the dataset lacks). */
async function ipResolutions(c: Context<AppEnv>, ip: string, query: V3DnsIpQuery): Promise<Resolution[]> {
  const window = windowOf(c, query);
  const { platform, dataset } = c.var.services;
  const [history] = await platform.readHostHistories([ip]);
  if (!history) throw new ApiError("not_found", `Host ${ip} not found.`);
  const names = await certificateNamesOf(dataset.readCertificateNames, historiesCertificates([history]));
  const types = query.record_types ?? ["A", "AAAA"];
  const domain = query.domain?.toLowerCase().replace(/\.$/, "");
  return hostResolutions(history, names, window).filter(
    (r) => types.includes(r.recordType) && (domain === undefined || r.name === domain),
  );
}

/** The hosts the history index holds for `key`, finishing the index first if it must. */
export async function historyHosts(
  c: Context<AppEnv>,
  kind: "name" | "cert",
  key: string,
): Promise<string[]> {
  const { platform, clock } = c.var.services;
  const progress = await platform.buildHistoryIndex(INDEX_BUDGET_MS, () => clock.now());
  if (!progress.complete) {
    throw new ApiErrorWithHeaders(
      "unavailable",
      { "Retry-After": "30" },
      `The history index is being built (${Math.floor(progress.done * 100)}% done); retry shortly.`,
    );
  }
  return platform.indexedHosts(kind, key);
}

/** Every resolution of the name within the window (404 for a name never seen). */
async function byName(c: Context<AppEnv>, name: string, query: V3DnsNameQuery): Promise<Resolution[]> {
  const window = windowOf(c, query);
  const ips = await historyHosts(c, "name", name);
  if (ips.length === 0) throw new ApiError("not_found", `No resolution of ${name} is known.`);
  if (ips.length > NAME_HOSTS_MAX)
    throw new ApiError(
      "conflict",
      `${name} resolved to more than ${NAME_HOSTS_MAX} hosts; it cannot be listed here.`,
    );
  const { platform, dataset } = c.var.services;
  const histories = await platform.readHostHistories(ips);
  const names = await certificateNamesOf(dataset.readCertificateNames, historiesCertificates(histories));
  const types = query.record_types ?? ["A", "AAAA", "MX", "NS", "SOA", "TXT"];
  return nameResolutions(name, histories, names, window).filter((r) => types.includes(r.recordType));
}

/** `scope` of the page token: the list and every filter but the paging parameters. */
const scopeOf = (kind: string, subject: string, query: Record<string, unknown>) => {
  const { page_size: _size, page_token: _token, ...filters } = query;
  return `dns ${kind} ${subject} ${JSON.stringify(filters)}`;
};

async function ipList(c: Context<AppEnv>, bounds: boolean) {
  const ip = requireIp(c);
  const query = v3Query(c, v3DnsIpQuerySchema);
  const page = await pageRequest(
    c.var.services.cursors,
    scopeOf(bounds ? "ip-bounds" : "ip-ranges", ip, query),
    query,
  );
  const all = await ipResolutions(c, ip, query);
  const records = bounds ? resolutionBounds(all, (r) => `${r.name} ${r.recordType}`) : all;
  return {
    result: {
      ip,
      records: pageOf(records, page).map((r) => ipRecord(r, rfc3339)),
      total_records: records.length,
      next_page_token: await nextPageToken(c.var.services.cursors, page, records.length),
    },
  };
}

async function nameList(c: Context<AppEnv>, bounds: boolean) {
  const name = requireName(c);
  const query = v3Query(c, v3DnsNameQuerySchema);
  const scope = scopeOf(bounds ? "name-bounds" : "name-ranges", name, query);
  const page = await pageRequest(c.var.services.cursors, scope, query);
  const all = await byName(c, name, query);
  const records = bounds ? resolutionBounds(all, (r) => `${r.ip} ${r.recordType}`) : all;
  records.sort((a, b) => compareIps(a.ip, b.ip) || a.start - b.start);
  const shaped = pageOf(records, page).map((r) =>
    bounds
      ? { record_type: r.recordType, ip: r.ip, first_seen: rfc3339(r.start), last_seen: rfc3339(r.end) }
      : {
          record_type: r.recordType,
          ip: r.ip,
          first_observed: rfc3339(r.start),
          last_observed: rfc3339(r.end),
        },
  );
  return {
    result: {
      name,
      records: shaped,
      total_records: records.length,
      next_page_token: await nextPageToken(c.var.services.cursors, page, records.length),
    },
  };
}

export const dnsIpBounds = platformRoute(
  "globalDataListDnsIpResolutionBounds",
  { request: { params: ipParam, query: v3DnsIpQuerySchema }, result: v3DnsIpResolutionsSchema },
  (c) => ipList(c, true),
);

export const dnsIpRanges = platformRoute(
  "globalDataListDnsIpResolutionRanges",
  { request: { params: ipParam, query: v3DnsIpQuerySchema }, result: v3DnsIpResolutionsSchema },
  (c) => ipList(c, false),
);

export const dnsNameBounds = platformRoute(
  "globalDataListDnsNameResolutionBounds",
  { request: { params: nameParam, query: v3DnsNameQuerySchema }, result: v3DnsNameBoundsSchema },
  (c) => nameList(c, true),
);

export const dnsNameRanges = platformRoute(
  "globalDataListDnsNameResolutionRanges",
  { request: { params: nameParam, query: v3DnsNameQuerySchema }, result: v3DnsNameRangesSchema },
  (c) => nameList(c, false),
);

export const v3DnsRoutes = [dnsIpBounds, dnsIpRanges, dnsNameBounds, dnsNameRanges];
