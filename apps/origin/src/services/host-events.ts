import type { HostEvent, ServiceId } from "@scangate/core";
import { rfc3339Nanos } from "../dataset/clock";

/**
 * A host's history as events: each version of its document compared with the one before (the
 * first with an empty host), as a scan would report it. A service is the same service across
 * versions when its port and transport match; it is "observed" when it appears or any of its
 * fields other than the observation's own (when, from where) changed, and "removed" when it is
 * gone. Location and routing (autonomous system) changes are events of their own. Each event's
 * `timestamp` is when its version begins, so the host view at that instant shows the change.
 */

export interface HostVersionDocument {
  /** Epoch ms when this version begins. */
  validFrom: number;
  doc: HostVersionShape;
}

interface ServiceShape {
  port: number;
  transport_protocol: string;
  service_name: string;
  observed_at?: string;
  perspective_id?: string;
  [field: string]: unknown;
}

interface HostVersionShape {
  location?: Record<string, unknown>;
  autonomous_system?: Record<string, unknown>;
  services?: ServiceShape[];
}

/** Fields that describe the observation rather than the service: they change on every scan. */
const OBSERVATION_FIELDS = new Set(["observed_at", "perspective_id", "source_ip"]);

const serviceKey = (s: ServiceShape) => `${s.port}/${s.transport_protocol}`;
const serviceId = (s: ServiceShape): ServiceId => ({
  port: s.port,
  transport_protocol: s.transport_protocol,
  service_name: s.service_name,
});
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Top-level service fields whose values differ (every field of a service that is new). */
function changedFields(before: ServiceShape | undefined, after: ServiceShape): string[] {
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after)]);
  return [...names]
    .filter((name) => !OBSERVATION_FIELDS.has(name))
    .filter((name) => before === undefined || !same(before[name], after[name]))
    .sort()
    .map((name) => `services.${name}`);
}

function versionEvents(before: HostVersionShape, after: HostVersionShape, at: number): HostEvent[] {
  const timestamp = rfc3339Nanos(at, 0);
  const events: HostEvent[] = [];
  if (after.location && !same(before.location, after.location)) {
    events.push({ timestamp, _event: "location_updated", location_updated: { location: after.location } });
  }
  if (after.autonomous_system && !same(before.autonomous_system, after.autonomous_system)) {
    events.push({
      timestamp,
      _event: "route_updated",
      route_updated: { autonomous_system: after.autonomous_system },
    });
  }
  const old = new Map((before.services ?? []).map((s) => [serviceKey(s), s]));
  const now = new Map((after.services ?? []).map((s) => [serviceKey(s), s]));
  const keys = [...new Set([...old.keys(), ...now.keys()])];
  const byPort = (key: string) => {
    const s = (now.get(key) ?? old.get(key)) as ServiceShape;
    return [s.port, s.transport_protocol] as const;
  };
  keys.sort((x, y) => {
    const [px, tx] = byPort(x);
    const [py, ty] = byPort(y);
    return px - py || tx.localeCompare(ty);
  });
  for (const key of keys) {
    const previous = old.get(key);
    const current = now.get(key);
    if (!current) {
      events.push({
        timestamp,
        _event: "service_removed",
        service_removed: { id: serviceId(previous as ServiceShape), observed_at: timestamp },
      });
      continue;
    }
    const fields = changedFields(previous, current);
    if (fields.length === 0) continue;
    events.push({
      timestamp,
      _event: "service_observed",
      service_observed: {
        id: serviceId(current),
        observed_at: current.observed_at ?? timestamp,
        perspective_id: current.perspective_id ?? "",
        changed_fields: fields.map((field_name) => ({ field_name })),
      },
    });
  }
  return events;
}

/** Every event of the history, oldest first (versions in any order). */
export function hostEvents(versions: readonly HostVersionDocument[]): HostEvent[] {
  const ordered = [...versions].sort((a, b) => a.validFrom - b.validFrom);
  const events: HostEvent[] = [];
  let before: HostVersionShape = {};
  for (const version of ordered) {
    events.push(...versionEvents(before, version.doc, version.validFrom));
    before = version.doc;
  }
  return events;
}
