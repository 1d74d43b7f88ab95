import type { V3HostObservationRange, V3ServiceOrder, V3ServiceRange } from "@scangate/core";
import type { HostHistory } from "./v3-host-histories";
import { presenceRanges, versionSpans, withinWindow, type HistoryWindow } from "./v3-presence";
import { rfc3339 } from "./v3-records";

/**
 * Services over a host's history: when each service (port, transport and protocol) was present
 * (the Platform's service history of a host), and when a host presented a certificate on a port
 * (a certificate's host observations). A service whose protocol changes (UNKNOWN, then HTTP) is
 * a new range; one whose content changes keeps its range.
 */

type Json = Record<string, unknown>;

interface ServiceShape {
  port?: number;
  transport_protocol?: string;
  service_name?: string;
  certificate?: string;
}

const servicesOf = (doc: unknown): ServiceShape[] => {
  const services = (doc as Json | null)?.services;
  return Array.isArray(services) ? (services as ServiceShape[]) : [];
};

interface ServiceKey {
  port: number;
  transport: string;
  protocol: string;
}

/** Every service range of the host within the window. */
export function serviceRanges(
  history: HostHistory,
  window: HistoryWindow,
): (ServiceKey & { start: number; end: number })[] {
  const ranges = presenceRanges(versionSpans(history.versions, history.lastSeen), (doc) => {
    const held = new Map<string, ServiceKey>();
    for (const service of servicesOf(doc)) {
      const key: ServiceKey = {
        port: Number(service.port),
        transport: (service.transport_protocol ?? "").toLowerCase(),
        protocol: service.service_name ?? "UNKNOWN",
      };
      held.set(`${key.port}/${key.transport}/${key.protocol}`, key);
    }
    return held;
  });
  return withinWindow(ranges, window.from, window.to).map((range) => ({
    ...range.value,
    start: range.start,
    end: range.end,
  }));
}

export interface ServiceFilter {
  port?: number;
  protocol?: string;
  transport?: string;
}

type Ranged = ServiceKey & { start: number; end: number };

const COLUMNS: Record<string, (r: Ranged) => string | number> = {
  port: (r) => r.port,
  protocol: (r) => r.protocol.toLowerCase(),
  transport_protocol: (r) => r.transport,
};

/**
 * The ranges kept by the filter, ordered by `orderBy` (`port ASC`, ...) then port, transport,
 * protocol and start, as the SDK's `ServiceOnHostRange` (its port is a string).
 */
export function serviceHistory(
  ip: string,
  ranges: readonly Ranged[],
  filter: ServiceFilter,
  orderBy: readonly V3ServiceOrder[],
): V3ServiceRange[] {
  const kept = ranges.filter(
    (r) =>
      (filter.port === undefined || r.port === filter.port) &&
      (filter.protocol === undefined || r.protocol.toLowerCase() === filter.protocol.toLowerCase()) &&
      (filter.transport === undefined || r.transport === filter.transport.toLowerCase()),
  );
  const orders = [...orderBy, "port ASC", "transport_protocol ASC", "protocol ASC"].map((order) => {
    const [column = "port", direction = "ASC"] = order.split(" ");
    return { value: COLUMNS[column] ?? COLUMNS.port!, sign: direction === "DESC" ? -1 : 1 };
  });
  kept.sort((a, b) => {
    for (const { value, sign } of orders) {
      const x = value(a);
      const y = value(b);
      if (x !== y) return (x < y ? -1 : 1) * sign;
    }
    return a.start - b.start;
  });
  return kept.map((r) => ({
    ip,
    port: String(r.port),
    protocol: r.protocol,
    transport_protocol: r.transport,
    start_time: rfc3339(r.start),
    end_time: rfc3339(r.end),
  }));
}

/**
 * When the host presented the certificate, per port and transport, within the window: the
 * protocols of the services that presented it over each range.
 */
export function certificateObservations(
  history: HostHistory,
  fingerprint: string,
  window: HistoryWindow,
): V3HostObservationRange[] {
  const ranges = presenceRanges(
    versionSpans(history.versions, history.lastSeen),
    (doc) => {
      const held = new Map<string, { port: number; transport: string; protocols: Set<string> }>();
      for (const service of servicesOf(doc)) {
        if ((service.certificate ?? "").toLowerCase() !== fingerprint) continue;
        const port = Number(service.port);
        const transport = (service.transport_protocol ?? "").toLowerCase();
        held.set(`${port}/${transport}`, {
          port,
          transport,
          protocols: new Set([service.service_name ?? "UNKNOWN"]),
        });
      }
      return held;
    },
    (a, b) => ({ ...a, protocols: new Set([...a.protocols, ...b.protocols]) }),
  );
  return withinWindow(ranges, window.from, window.to)
    .sort((a, b) => a.value.port - b.value.port || a.start - b.start)
    .map((range) => ({
      ip: history.ip,
      port: range.value.port,
      protocols: [...range.value.protocols].sort(),
      transport_protocol: range.value.transport,
      start_time: rfc3339(range.start),
      end_time: rfc3339(range.end),
    }));
}
