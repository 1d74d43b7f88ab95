import {
  ApiError,
  assetOf,
  ipAddressSchema,
  parseRfc3339Nanos,
  v3AtTimeQuerySchema,
  v3BulkQueryForm,
  v3HostAssetSchema,
  v3HostListInputSchema,
  v3HostListQuerySchema,
  v3HostTimelineQuerySchema,
  v3HostTimelineSchema,
  V3_MEDIA_TYPES,
  wrapV3,
} from "@scangate/core";
import { z } from "zod";
import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
import { parseV3, v3Json, v3Query } from "../../http/v3-inputs";
import { jsonBody } from "../../routing";
import { presentedCertificates, v3Host } from "../../services/v3-host";
import { rescanned } from "../../services/v3-scans";
import { historyCertificates, hostTimelineEvents } from "../../services/v3-timeline";
import { type BulkForm, type BulkIds, readBulkInput } from "./bulk-input";
import { platformRoute } from "./operation";

/** Epoch ms of an RFC 3339 text already validated by a core schema. */
const msOf = (text: string) => parseRfc3339Nanos(text)?.ms ?? Number.NaN;

const hostIdParam = z.object({ host_id: ipAddressSchema });

/**
 * The v2 document of `ip` now or at `atMs`, with the certificates its services present. Now,
 * a service a completed Live Rescan or Discovery scan found shows that scan's time.
 */
export async function hostAsset(c: Context<AppEnv>, ip: string, atMs: number | undefined) {
  const { dataset, platform, clock } = c.var.services;
  const document = atMs === undefined ? await dataset.readHost(ip) : await dataset.readHostAt(ip, atMs);
  if (document === null) return null;
  const [certificates, scans] = await Promise.all([
    dataset.readCertificates(presentedCertificates(document)),
    atMs === undefined ? platform.latestScans(ip, clock.now()) : Promise.resolve(new Map<string, number>()),
  ]);
  return assetOf(rescanned(v3Host(document, certificates), scans));
}

/** The current documents of `ips` found, in that order: one query for them, one for their certificates. */
async function currentHostAssets(c: Context<AppEnv>, ips: string[]) {
  const { dataset, platform, clock } = c.var.services;
  const found = await dataset.readHosts(ips);
  const documents = ips.flatMap((ip) => (found.has(ip) && found.get(ip) !== null ? [found.get(ip)] : []));
  const [certificates, scans] = await Promise.all([
    dataset.readCertificates(documents.flatMap((d) => presentedCertificates(d))),
    platform.latestScansOf(
      documents.map((d) => (d as { ip: string }).ip),
      clock.now(),
    ),
  ]);
  return documents.map((document) => {
    const host = v3Host(document, certificates);
    return assetOf(rescanned(host, scans.get(host.ip ?? "") ?? new Map<string, number>()));
  });
}

/** The documents of `ips` as they were at `atMs` (each its own history lookup), in that order. */
async function hostAssetsAt(c: Context<AppEnv>, ips: string[], atMs: number) {
  return (await Promise.all(ips.map((ip) => hostAsset(c, ip, atMs)))).filter((a) => a !== null);
}

/** GET /v3/global/asset/host/{host_id}: a host now, or as it was at `at_time`. */
export const getHost = platformRoute(
  "globalDataGetHost",
  { request: { params: hostIdParam, query: v3AtTimeQuerySchema }, result: v3HostAssetSchema },
  async (c) => {
    const { host_id: ip } = parseV3("path", hostIdParam, { host_id: c.req.param("host_id") });
    const { at_time } = v3Query(c, v3AtTimeQuerySchema);
    const asset = await hostAsset(c, ip, at_time === undefined ? undefined : msOf(at_time));
    if (!asset) throw new ApiError("not_found", `Host ${ip} not found${at_time ? ` at ${at_time}` : ""}.`);
    return v3Json(c, wrapV3(asset), V3_MEDIA_TYPES.host);
  },
);

const HOST_IDS: BulkIds = {
  field: "host_ids",
  valid: (id) => ipAddressSchema.safeParse(id).success,
  message: "not an IP address",
};

/**
 * Several hosts (`host_ids`), optionally at `at_time`, read from `form`. The answer lists the
 * hosts found, in the order asked (each once); an address the dataset does not hold is left out
 * and costs nothing, while text that is no address is a 400 naming it.
 */
async function answerHosts(c: Context<AppEnv>, form: BulkForm): Promise<Response> {
  const input = await readBulkInput(c, form, v3HostListInputSchema, HOST_IDS);
  const atMs = input.at_time === undefined ? undefined : msOf(input.at_time);
  const ips = [...new Set(input.host_ids)];
  const assets = atMs === undefined ? await currentHostAssets(c, ips) : await hostAssetsAt(c, ips, atMs);
  c.set("creditAssets", assets.length);
  return v3Json(c, wrapV3(assets), V3_MEDIA_TYPES.host);
}

const hostsResult = z.array(v3HostAssetSchema);

/** POST /v3/global/asset/host: several hosts, the ids in the JSON body. */
export const getHosts = platformRoute(
  "globalDataGetHosts",
  { request: { body: jsonBody(v3HostListInputSchema) }, result: hostsResult },
  (c) => answerHosts(c, "body"),
);

/** GET /v3/global/asset/host?host_ids=a,b: the same, as the SDKs before 0.6 ask. */
export const getHostsByQuery = platformRoute(
  v3BulkQueryForm("globalDataGetHosts"),
  { request: { query: v3HostListQuerySchema }, result: hostsResult },
  (c) => answerHosts(c, "query"),
);

/**
 * GET /v3/global/asset/host/{host_id}/timeline: what changed on the host between `end_time`
 * (the earlier bound) and `start_time` (the later), newest first, from the history the origin
 * keeps for `at_time`.
 */
export const getHostTimeline = platformRoute(
  "globalDataGetHostTimeline",
  { request: { params: hostIdParam, query: v3HostTimelineQuerySchema }, result: v3HostTimelineSchema },
  async (c) => {
    const { host_id: ip } = parseV3("path", hostIdParam, { host_id: c.req.param("host_id") });
    const query = v3Query(c, v3HostTimelineQuerySchema);
    const startMs = msOf(query.start_time);
    const endMs = msOf(query.end_time);
    if (startMs < endMs) {
      throw new ApiError(
        "bad_request",
        "start_time must not be earlier than end_time (start_time is the later bound).",
        {
          errors: [
            {
              location: "query.start_time",
              message: "must not be earlier than end_time",
              value: query.start_time,
            },
          ],
        },
      );
    }
    const { dataset } = c.var.services;
    const versions = await dataset.readHostHistory(ip);
    if (versions.length === 0) throw new ApiError("not_found", `Host ${ip} not found.`);
    const certificates = await dataset.readCertificates(historyCertificates(versions));
    const events = hostTimelineEvents(versions, { startMs, endMs }, certificates);
    return v3Json(c, wrapV3({ events, scanned_to: query.end_time }), V3_MEDIA_TYPES.hostTimeline);
  },
);

export const v3HostRoutes = [getHosts, getHostsByQuery, getHostTimeline, getHost];
