import type { Ipv4Document } from "../v1/documents";
import { latestScanMs } from "./legacy-host";
import { defined, isoSeconds, list, num, obj, str, type Json } from "./legacy-json";
import { legacyPorts, legacyProtocols, legacyProtocolTags, legacyServiceBlock } from "./legacy-v1-services";

/**
 * A Platform (v3) host as the legacy v1 `ipv4` document: its place (location with flat
 * coordinates, autonomous system with `routed_prefix`), the summaries v1 derives from the
 * services (`protocols` as `<port>/<name>`, `ports`, `tags`: the protocols' names), `updated_at`
 * (the latest scan, to the second) and one block per service under `<port>.<name>`
 * (`legacy-v1-services.ts`).
 *
 * Left out, because the Platform does not carry them (LEGACY_IPV4_GAPS): v1's view of an RDP
 * server's security flags (`<port>.rdp.banner`). Read differently: an SMTP `ehlo` is the server's
 * whole reply on one line, and a leaf's `names` are all of its certificate's names.
 */

/** The v1 ipv4 paths a document translated from the Platform leaves out (`*` is any port). */
export const LEGACY_IPV4_GAPS: readonly string[] = ["*.rdp.banner"];

/** v1 location: the Platform's, with the coordinates flat (`latitude`, `longitude`). */
function legacyLocation(location: Json): Json {
  const { coordinates, ...rest } = location;
  const c = obj(coordinates);
  return defined({ ...rest, latitude: num(c.latitude), longitude: num(c.longitude) });
}

/** v1 autonomous system: the Platform's routing, its BGP prefix as `routed_prefix`. */
function legacyAutonomousSystem(routing: Json): Json {
  return defined({
    asn: num(routing.asn),
    name: str(routing.name),
    description: str(routing.description),
    routed_prefix: str(routing.bgp_prefix),
    country_code: str(routing.country_code),
  });
}

/** The per-port blocks of `services`: `{"443": {"https": {...}}, "22": {"ssh": {...}}}`. */
export function legacyPortBlocks(services: readonly unknown[]): Json {
  const blocks: Json = {};
  for (const service of services) {
    const port = num(obj(service).port);
    if (port === undefined) continue;
    const { name, block } = legacyServiceBlock(service);
    blocks[String(port)] = { ...obj(blocks[String(port)]), [name]: block };
  }
  return blocks;
}

export function legacyIpv4(v3Host: unknown): Ipv4Document {
  const h = obj(v3Host);
  const services = list(h.services);
  const updated = latestScanMs(services);
  return defined({
    ip: str(h.ip),
    protocols: legacyProtocols(services),
    ports: legacyPorts(services),
    location: h.location === undefined ? undefined : legacyLocation(obj(h.location)),
    autonomous_system:
      h.autonomous_system === undefined ? undefined : legacyAutonomousSystem(obj(h.autonomous_system)),
    tags: legacyProtocolTags(services),
    updated_at: updated === undefined ? undefined : isoSeconds(updated),
    ...legacyPortBlocks(services),
  }) as Ipv4Document;
}
