import type { V3Asset, V3HostTimelineEvent } from "@scangate/core";
import { assetOf } from "@scangate/core";
import { rfc3339Nanos } from "../dataset/clock";
import type { HostVersionDocument } from "./host-events";
import { v3Service } from "./v3-host";

/**
 * A host's timeline in the Platform's shape, from the same history v2 `at_time` and the v2
 * events read: each version compared with the one before (the first with an empty host). A
 * service that appears or changes is `service_scanned` (with a `diff` of its changed fields),
 * one that is gone a `service_scanned` whose scan did not succeed; location and routing changes
 * are `location_updated` / `route_updated`. Newest first, as the Platform lists them.
 */

type Json = Record<string, unknown>;

/** Fields that describe the observation rather than the service: they change on every scan. */
const OBSERVATION_FIELDS = new Set(["observed_at", "perspective_id", "source_ip"]);

const keyOf = (s: Json) => `${String(s.port)}/${String(s.transport_protocol)}`;
const text = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields of a service that changed between two scans of it (each field as JSON text). */
export function serviceDiff(
  before: Json | undefined,
  after: Json,
): Record<string, { old?: string; new?: string }> {
  const diff: Record<string, { old?: string; new?: string }> = {};
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after)]);
  for (const name of [...names].sort()) {
    if (OBSERVATION_FIELDS.has(name) || name.startsWith("_")) continue;
    if (before !== undefined && same(before[name], after[name])) continue;
    diff[name] = { old: text(before?.[name]), new: text(after[name]) };
  }
  return diff;
}

function versionEvents(
  before: Json,
  after: Json,
  at: number,
  certificates: ReadonlyMap<string, unknown>,
): V3HostTimelineEvent[] {
  const eventTime = rfc3339Nanos(at, 0);
  const ip = typeof after.ip === "string" ? after.ip : undefined;
  const events: V3HostTimelineEvent[] = [];
  if (after.location && !same(before.location, after.location)) {
    events.push({ event_time: eventTime, location_updated: { location: after.location as Json } });
  }
  if (after.autonomous_system && !same(before.autonomous_system, after.autonomous_system)) {
    const old = (before.autonomous_system ?? {}) as Json;
    const now = after.autonomous_system as Json;
    const diff: Record<string, { old?: string; new?: string }> = {};
    for (const name of new Set([...Object.keys(old), ...Object.keys(now)])) {
      if (!same(old[name], now[name])) diff[name] = { old: text(old[name]), new: text(now[name]) };
    }
    events.push({ event_time: eventTime, route_updated: { route: now, diff } });
  }
  const old = new Map(((before.services ?? []) as Json[]).map((s) => [keyOf(s), s]));
  const now = new Map(((after.services ?? []) as Json[]).map((s) => [keyOf(s), s]));
  const keys = [...new Set([...old.keys(), ...now.keys()])].sort((x, y) => {
    const [px = 0, tx = ""] = x.split("/");
    const [py = 0, ty = ""] = y.split("/");
    return Number(px) - Number(py) || tx.localeCompare(ty);
  });
  for (const key of keys) {
    const previous = old.get(key);
    const current = now.get(key);
    if (!current) {
      const gone = previous as Json;
      events.push({
        event_time: eventTime,
        service_scanned: {
          scan: {
            ip,
            port: gone.port as number,
            protocol: gone.service_name as string,
            transport_protocol: String(gone.transport_protocol).toLowerCase(),
            scan_time: eventTime,
            is_success: false,
          },
          diff: {},
        },
      });
      continue;
    }
    const diff = serviceDiff(previous, current);
    if (Object.keys(diff).length === 0) continue;
    events.push({
      event_time: eventTime,
      service_scanned: { scan: { ...v3Service(current, ip, certificates), is_success: true }, diff },
    });
  }
  return events;
}

/**
 * The events of `versions` whose time is within [endMs, startMs] (the Platform's start_time is
 * the later bound), newest first.
 */
export function hostTimelineEvents(
  versions: readonly HostVersionDocument[],
  window: { startMs: number; endMs: number },
  certificates: ReadonlyMap<string, unknown>,
): V3Asset<V3HostTimelineEvent>[] {
  const ordered = [...versions].sort((a, b) => a.validFrom - b.validFrom);
  const events: V3HostTimelineEvent[] = [];
  let before: Json = {};
  for (const version of ordered) {
    const after = version.doc as Json;
    if (version.validFrom >= window.endMs && version.validFrom <= window.startMs) {
      events.push(...versionEvents(before, after, version.validFrom, certificates));
    }
    before = after;
  }
  return events.reverse().map(assetOf);
}

/** Fingerprints of the certificates any version's services present (lowercase). */
export function historyCertificates(versions: readonly HostVersionDocument[]): string[] {
  const fingerprints = new Set<string>();
  for (const version of versions) {
    for (const service of (version.doc.services ?? []) as Json[]) {
      if (typeof service.certificate === "string") fingerprints.add(service.certificate.toLowerCase());
    }
  }
  return [...fingerprints];
}
