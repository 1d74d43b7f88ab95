import { describe, expect, it } from "vitest";
import { hostEventSchema, legacyHostEvents } from "../src";

// The Platform's host timeline (newest first) as the v2 host events (oldest first).

const asset = (resource: unknown) => ({ resource });
const T1 = "2026-10-01T00:00:00.000000000Z";
const T2 = "2026-10-05T00:00:00.000000000Z";

describe("legacyHostEvents", () => {
  it("reverses the Platform's newest-first timeline into v2's time order, each instant in its own order", () => {
    const timeline = [
      asset({
        event_time: T2,
        service_scanned: {
          scan: { port: 22, transport_protocol: "tcp", protocol: "SSH", scan_time: T2, is_success: false },
          diff: {},
        },
      }),
      asset({
        event_time: T2,
        service_scanned: {
          scan: { port: 443, transport_protocol: "tcp", protocol: "HTTP", scan_time: T2, is_success: true },
          diff: { banner: { old: "a", new: "b" } },
        },
      }),
      asset({
        event_time: T1,
        route_updated: { route: { asn: 64500, name: "EXAMPLE", bgp_prefix: "192.0.2.0/24" } },
      }),
      asset({ event_time: T1, location_updated: { location: { country: "France", city: "Paris" } } }),
    ];
    const events = legacyHostEvents(timeline);
    for (const event of events) hostEventSchema.parse(event);
    expect(events.map((e) => [e.timestamp, e._event])).toEqual([
      [T1, "location_updated"],
      [T1, "route_updated"],
      [T2, "service_observed"],
      [T2, "service_removed"],
    ]);
    expect(events[0]?.location_updated).toEqual({ location: { country: "France", city: "Paris" } });
    expect(events[1]?.route_updated).toEqual({
      autonomous_system: { asn: 64500, name: "EXAMPLE", bgp_prefix: "192.0.2.0/24" },
    });
    expect(events[2]?.service_observed).toEqual({
      id: { port: 443, transport_protocol: "TCP", service_name: "HTTP" },
      observed_at: T2,
      perspective_id: "",
      changed_fields: [{ field_name: "services.banner" }],
    });
    expect(events[3]?.service_removed).toEqual({
      id: { port: 22, transport_protocol: "TCP", service_name: "SSH" },
      observed_at: T2,
    });
  });

  it("leaves out events the legacy API has no kind for, and events without a time", () => {
    const events = legacyHostEvents([
      asset({ event_time: T1, endpoint_scanned: { endpoint: {} } }),
      asset({ location_updated: { location: { country: "France" } } }),
      "not an event",
    ]);
    expect(events).toEqual([]);
  });
});
