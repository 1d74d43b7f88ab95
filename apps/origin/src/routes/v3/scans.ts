import {
  ApiError,
  ipAddressSchema,
  v3DiscoveryInputSchema,
  v3InputError,
  v3RescanInputSchema,
  v3TrackedScanSchema,
  V3_SCAN_DURATION_MS,
} from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { v3Body } from "../../http/v3-inputs";
import { trackedScan, type ScanKind, type ScanOutcome } from "../../services/v3-scans";
import { chargeBefore, pathParam, platformRoute } from "./operation";

/**
 * Live Rescan (`/v3/global/scans/rescan`, a known service or web origin) and Live Discovery
 * (`/v3/threat-hunting/scans/discovery`, any address or name and port), and the scan status at
 * both paths (services/v3-scans.ts). A scan is paid for (10 and 15 credits) before it is
 * recorded, so one the balance cannot pay leaves nothing behind.
 */

type Json = Record<string, unknown>;

interface Service {
  port: number;
  transport_protocol: string;
  http?: unknown;
}

async function servicesOf(c: Context<AppEnv>, ip: string): Promise<Service[]> {
  const doc = (await c.var.services.dataset.readHost(ip)) as { services?: Service[] } | null;
  return doc?.services ?? [];
}

/** The address a host name resolves to now (its website), or null. */
async function resolve(c: Context<AppEnv>, hostname: string): Promise<string | null> {
  const name = hostname.toLowerCase();
  if (ipAddressSchema.safeParse(name).success) return name;
  return (await c.var.services.platform.readWebsites([name])).get(name)?.ip ?? null;
}

interface Planned {
  ip: string | null;
  port: number;
  transport: string | null;
  outcome: ScanOutcome;
}

async function record(c: Context<AppEnv>, kind: ScanKind, target: Json, plan: Planned) {
  await chargeBefore(c);
  const now = c.var.services.clock.now();
  const scan = await c.var.services.platform.createScan({
    organizationId: c.var.platform.organization.organizationId,
    kind,
    target,
    ...plan,
    createdAt: now,
    completesAt: now + V3_SCAN_DURATION_MS,
  });
  return { result: trackedScan(scan, now) };
}

export const rescan = platformRoute(
  "globalDataCreateTrackedScan",
  {
    request: { body: { content: { "application/json": { schema: v3RescanInputSchema } } } },
    result: v3TrackedScanSchema,
  },
  async (c) => {
    const { target } = await v3Body(c, v3RescanInputSchema);
    if ("service_id" in target) {
      const { ip, port, transport_protocol } = target.service_id;
      const known = (await servicesOf(c, ip)).find(
        (s) => s.port === port && s.transport_protocol.toLowerCase() === transport_protocol,
      );
      if (!known)
        throw v3InputError(
          "body.target.service_id",
          `no known service on ${ip}:${port}/${transport_protocol}`,
          target.service_id,
        );
      return record(c, "rescan", target, { ip, port, transport: transport_protocol, outcome: "completed" });
    }
    const { hostname, port } = target.web_origin;
    const ip = await resolve(c, hostname);
    const served =
      ip !== null && (await servicesOf(c, ip)).some((s) => s.port === port && s.http !== undefined);
    if (!served)
      throw v3InputError(
        "body.target.web_origin",
        `no known web origin ${hostname}:${port}`,
        target.web_origin,
      );
    return record(c, "rescan", target, { ip, port, transport: "tcp", outcome: "completed" });
  },
);

export const discovery = platformRoute(
  "threatHuntingCreateTrackedScan",
  {
    request: { body: { content: { "application/json": { schema: v3DiscoveryInputSchema } } } },
    result: v3TrackedScanSchema,
  },
  async (c) => {
    const { target } = await v3Body(c, v3DiscoveryInputSchema);
    const { port } = "host_port" in target ? target.host_port : target.hostname_port;
    const ip = "host_port" in target ? target.host_port.ip : await resolve(c, target.hostname_port.hostname);
    if (ip === null)
      return record(c, "discovery", target, { ip, port, transport: null, outcome: "rejected" });
    const service = (await servicesOf(c, ip)).find((s) => s.port === port);
    return record(c, "discovery", target, {
      ip,
      port,
      transport: service?.transport_protocol.toLowerCase() ?? null,
      outcome: service ? "completed" : "timed_out",
    });
  },
);

async function scanStatus(c: Context<AppEnv>) {
  const id = pathParam(c, "scan_id");
  const scan = await c.var.services.platform.readScan(c.var.platform.organization.organizationId, id);
  if (!scan) throw new ApiError("not_found", `Scan ${JSON.stringify(id)} not found.`);
  return { result: trackedScan(scan, c.var.services.clock.now()) };
}

const scanParam = z.object({ scan_id: z.string() });

export const getScan = platformRoute(
  "globalDataGetTrackedScan",
  { request: { params: scanParam }, result: v3TrackedScanSchema },
  scanStatus,
);

export const getThreatHuntingScan = platformRoute(
  "threatHuntingGetTrackedScanThreatHunting",
  { request: { params: scanParam }, result: v3TrackedScanSchema },
  scanStatus,
);

export const v3ScanRoutes = [rescan, getScan, discovery, getThreatHuntingScan];
