import { assetOf, type V3Asset, type V3WebTimelineEvent } from "@scangate/core";
import { rfc3339Nanos } from "../dataset/clock";
import type { HostVersionDocument } from "./host-events";
import { v3HttpEndpoint } from "./v3-host";
import { serviceDiff } from "./v3-timeline";

/**
 * A web property's timeline (`hostname:port`): the scans of the HTTP endpoint the name is
 * served by on that port, read from the history of the host serving it, as the host timeline
 * reads its services. An endpoint that appears or changes is `endpoint_scanned` with a
 * successful scan and the fields that changed; one that is gone, a scan that did not succeed.
 * Newest first, within [end_time, start_time] (start_time is the later bound, as the Platform
 * names them).
 */

type Json = Record<string, unknown>;

/** The host's HTTP service on `port` in a version, if it has one. */
function endpointService(doc: unknown, port: number): Json | undefined {
  const services = (doc as Json | null)?.services;
  if (!Array.isArray(services)) return undefined;
  return (services as Json[]).find((s) => s.port === port && s.http !== undefined);
}

export function webTimelineEvents(
  versions: readonly HostVersionDocument[],
  property: { ip: string; hostname: string; port: number },
  window: { startMs: number; endMs: number },
): V3Asset<V3WebTimelineEvent>[] {
  const ordered = [...versions].sort((a, b) => a.validFrom - b.validFrom);
  const events: V3WebTimelineEvent[] = [];
  let before: Json | undefined;
  for (const version of ordered) {
    const after = endpointService(version.doc, property.port);
    const inWindow = version.validFrom >= window.endMs && version.validFrom <= window.startMs;
    const eventTime = rfc3339Nanos(version.validFrom, 0);
    if (inWindow && after) {
      const diff = serviceDiff(before, after);
      if (Object.keys(diff).length > 0) {
        events.push({
          event_time: eventTime,
          endpoint_scanned: {
            scan: { ...v3HttpEndpoint(after, property.ip, property.hostname), is_success: true },
            diff,
          },
        });
      }
    } else if (inWindow && before) {
      events.push({
        event_time: eventTime,
        endpoint_scanned: {
          scan: {
            endpoint_type: "HTTP",
            path: "/",
            ip: property.ip,
            hostname: property.hostname,
            port: property.port,
            transport_protocol: (typeof before.transport_protocol === "string"
              ? before.transport_protocol
              : "tcp"
            ).toLowerCase(),
            scan_time: eventTime,
            is_success: false,
          },
          diff: {},
        },
      });
    }
    before = after;
  }
  return events.reverse().map(assetOf);
}
