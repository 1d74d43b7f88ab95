import type { HostEvent } from "../v2/host-history";
import { legacyAutonomousSystem, legacyHostService } from "./legacy-host";
import { obj, str, type Json } from "./legacy-json";

/**
 * A Platform (v3) host timeline (`GET /v3/global/asset/host/{ip}/timeline`, newest first) as the
 * legacy v2 host events (`view_host_events`, oldest first): a successful service scan is
 * `service_observed`, a failed one (the service gone) `service_removed`, and location and
 * routing changes `location_updated` / `route_updated`, each shaped as the v2 host view shows
 * that part (`legacy-host.ts`), so a view at an event's time shows what the event says.
 *
 * Read differently: a service's `changed_fields` are the names of the Platform's diff
 * (`services.<name>`), and its `perspective_id` is empty (the Platform does not say which
 * perspective scanned). Events of kinds the legacy API has none for (`endpoint_scanned`,
 * `forward_dns_resolved`, ...) are left out.
 */
export function legacyHostEvents(timeline: readonly unknown[]): HostEvent[] {
  const events: HostEvent[] = [];
  // The Platform lists newest first, each instant's events reversed: reversing gives v2's order.
  for (const asset of [...timeline].reverse()) {
    const event = obj(obj(asset).resource);
    const timestamp = str(event.event_time);
    if (timestamp === undefined) continue;
    const legacy = legacyEvent(event, timestamp);
    if (legacy) events.push(legacy);
  }
  return events;
}

function legacyEvent(event: Json, timestamp: string): HostEvent | null {
  if (event.location_updated !== undefined) {
    const location = obj(obj(event.location_updated).location);
    return { timestamp, _event: "location_updated", location_updated: { location } };
  }
  if (event.route_updated !== undefined) {
    const autonomous_system = legacyAutonomousSystem(obj(event.route_updated).route);
    return { timestamp, _event: "route_updated", route_updated: { autonomous_system } };
  }
  if (event.service_scanned === undefined) return null;
  const scanned = obj(event.service_scanned);
  const scan = obj(scanned.scan);
  const service = legacyHostService(scan);
  if (service.port === undefined || service.transport_protocol === undefined) return null;
  const id = {
    port: service.port,
    transport_protocol: service.transport_protocol,
    service_name: service.service_name,
  };
  const observedAt = service.observed_at ?? timestamp;
  if (scan.is_success === false) {
    return { timestamp, _event: "service_removed", service_removed: { id, observed_at: observedAt } };
  }
  return {
    timestamp,
    _event: "service_observed",
    service_observed: {
      id,
      observed_at: observedAt,
      perspective_id: "",
      changed_fields: Object.keys(obj(scanned.diff))
        .sort()
        .map((name) => ({ field_name: `services.${name}` })),
    },
  };
}
