import {
  ApiError,
  ipAddressSchema,
  parseWebpropertyId,
  v3CertificateIdSchema,
  v3CertificateObservationsQuerySchema,
  v3HostEnrichmentAssetSchema,
  v3HostObservationsSchema,
  v3HostServicesQuerySchema,
  v3HostServicesSchema,
  v3InputError,
  v3WebpropertyTimelineQuerySchema,
  v3WebpropertyTimelineSchema,
  V3_ENRICHMENTS_PER_DAY,
  V3_FUTURE_SKEW_MS,
  V3_HISTORY_WINDOW_MAX_DAYS,
  assetOf,
} from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { ApiErrorWithHeaders } from "../../http/errors";
import { v3Query } from "../../http/v3-inputs";
import { hostEnrichment } from "../../services/v3-enrichment";
import { nextPageToken, pageOf, pageRequest } from "../../services/v3-paging";
import { historyWindow } from "../../services/v3-presence";
import { certificateObservations, serviceHistory, serviceRanges } from "../../services/v3-service-history";
import { webTimelineEvents } from "../../services/v3-web-timeline";
import { historyHosts } from "./dns";
import { hostAsset } from "./hosts";
import { pathParam, platformRoute } from "./operation";

/**
 * What the origin reads from the host history beside the host timeline: a host's service
 * history, the hosts a certificate was observed on, a web property's timeline; and host
 * enrichment (the current host, trimmed for SOC use, on a daily allowance instead of credits).
 */

const WINDOW_LIMITS = { maxDays: V3_HISTORY_WINDOW_MAX_DAYS, skewMs: V3_FUTURE_SKEW_MS };
/** Hosts a certificate's observations read at most; one seen on more is a 409 (ours). */
const CERTIFICATE_HOSTS_MAX = 1000;

function requireHost(c: Context<AppEnv>, name: string): string {
  const ip = pathParam(c, name);
  if (!ipAddressSchema.safeParse(ip).success) throw v3InputError(`path.${name}`, "not an IP address", ip);
  return ip;
}

const scopeOf = (kind: string, subject: string, query: Record<string, unknown>) => {
  const { page_size: _size, page_token: _token, ...filters } = query;
  return `${kind} ${subject} ${JSON.stringify(filters)}`;
};

export const servicesOnHost = platformRoute(
  "globalDataListServicesOnHost",
  {
    request: { params: z.object({ host_id: z.string() }), query: v3HostServicesQuerySchema },
    result: v3HostServicesSchema,
  },
  async (c) => {
    const ip = requireHost(c, "host_id");
    const query = v3Query(c, v3HostServicesQuerySchema);
    const { cursors, platform, clock } = c.var.services;
    const page = await pageRequest(cursors, scopeOf("services", ip, query), query);
    const window = historyWindow(query, clock.now(), WINDOW_LIMITS, v3InputError);
    const [history] = await platform.readHostHistories([ip]);
    if (!history) throw new ApiError("not_found", `Host ${ip} not found.`);
    const ranges = serviceHistory(
      ip,
      serviceRanges(history, window),
      { port: query.port, protocol: query.protocol, transport: query.transport_protocol },
      query.order_by ?? [],
    );
    return {
      result: {
        ranges: pageOf(ranges, page),
        next_page_token: await nextPageToken(cursors, page, ranges.length),
      },
    };
  },
);

export const certificateHostObservations = platformRoute(
  "threatHuntingGetHostObservationsWithCertificate",
  {
    request: {
      params: z.object({ certificate_id: v3CertificateIdSchema }),
      query: v3CertificateObservationsQuerySchema,
    },
    result: v3HostObservationsSchema,
  },
  async (c) => {
    const raw = pathParam(c, "certificate_id");
    if (!v3CertificateIdSchema.safeParse(raw).success)
      throw v3InputError(
        "path.certificate_id",
        "expected a SHA-256 certificate fingerprint (64 hex digits)",
        raw,
      );
    const fingerprint = raw.toLowerCase();
    const query = v3Query(c, v3CertificateObservationsQuerySchema);
    const { cursors, platform, clock, dataset } = c.var.services;
    const page = await pageRequest(cursors, scopeOf("certificate hosts", fingerprint, query), query);
    const window = historyWindow(query, clock.now(), WINDOW_LIMITS, v3InputError);
    const ips = await historyHosts(c, "cert", fingerprint);
    if (ips.length === 0 && (await dataset.readCertificates([fingerprint])).size === 0)
      throw new ApiError("not_found", `Certificate ${fingerprint} not found.`);
    if (ips.length > CERTIFICATE_HOSTS_MAX)
      throw new ApiError(
        "conflict",
        `The certificate was observed on more than ${CERTIFICATE_HOSTS_MAX} hosts; they cannot be listed here.`,
      );
    const histories = await platform.readHostHistories(ips);
    const transport = query.protocol?.toLowerCase();
    const ranges = histories
      .flatMap((history) => certificateObservations(history, fingerprint, window))
      .filter(
        (range) =>
          (query.port === undefined || range.port === query.port) &&
          (transport === undefined || range.transport_protocol === transport),
      );
    const next = await nextPageToken(cursors, page, ranges.length);
    return {
      result: {
        ranges: pageOf(ranges, page),
        total_results: ranges.length,
        ...(next === "" ? {} : { next_page_token: next }),
      },
    };
  },
);

export const webpropertyTimeline = platformRoute(
  "globalDataGetWebPropertyTimeline",
  {
    request: { params: z.object({ webproperty_id: z.string() }), query: v3WebpropertyTimelineQuerySchema },
    result: v3WebpropertyTimelineSchema,
  },
  async (c) => {
    const raw = pathParam(c, "webproperty_id");
    const id = parseWebpropertyId(raw);
    if (!id) throw v3InputError("path.webproperty_id", "expected a web property id hostname:port", raw);
    const query = v3Query(c, v3WebpropertyTimelineQuerySchema);
    const startMs = Date.parse(query.start_time);
    const endMs = Date.parse(query.end_time);
    if (startMs < endMs)
      throw v3InputError("query.start_time", "must not be earlier than end_time", query.start_time);
    const { platform } = c.var.services;
    const address = ipAddressSchema.safeParse(id.hostname).success
      ? id.hostname
      : (await platform.readWebsites([id.hostname])).get(id.hostname)?.ip;
    const [history] = address ? await platform.readHostHistories([address]) : [];
    const served = history?.versions.some((v) =>
      ((v.doc.services ?? []) as { port: number; http?: unknown }[]).some(
        (s) => s.port === id.port && s.http !== undefined,
      ),
    );
    if (!history || !served) throw new ApiError("not_found", `Web property ${raw} not found.`);
    const events = webTimelineEvents(history.versions, { ip: history.ip, ...id }, { startMs, endMs });
    return { result: { events, scanned_to: query.end_time } };
  },
);

export const enrichment = platformRoute(
  "globalDataGetHostEnrichment",
  { request: { params: z.object({ host_ip: z.string() }) }, result: v3HostEnrichmentAssetSchema },
  async (c) => {
    const ip = requireHost(c, "host_ip");
    const asset = await hostAsset(c, ip, undefined);
    if (!asset) throw new ApiError("not_found", `Host ${ip} not found.`);
    const { platform, clock } = c.var.services;
    const now = clock.now();
    const day = new Date(now).toISOString().slice(0, 10);
    const counted = await platform.countEnrichment(
      c.var.platform.organization.organizationId,
      day,
      V3_ENRICHMENTS_PER_DAY,
    );
    if (!counted) {
      const tomorrow = Date.parse(`${day}T00:00:00Z`) + 86_400_000;
      throw new ApiErrorWithHeaders(
        "rate_limited",
        { "Retry-After": String(Math.ceil((tomorrow - now) / 1000)) },
        `The organization has made its ${V3_ENRICHMENTS_PER_DAY} host enrichment calls today (UTC).`,
      );
    }
    return { result: assetOf(hostEnrichment(asset.resource)) };
  },
);

export const v3HistoryRoutes = [servicesOnHost, certificateHostObservations, webpropertyTimeline, enrichment];
