import { DAY_MS, DATASET_NOW, HISTORY_DAYS, isoSeconds, rfc3339Nanos } from "../clock";
import type { Prng } from "../prng";
import { NETWORKS, numberToIp, prefixRange, type Network } from "./networks";
import { SERVICE_PORTS, buildService, type ServiceKind, type ServiceSpec, type TlsLeaf } from "./services";

/**
 * One host: its place (network, location), its services over the history window, and the
 * documents it is served as: the current v2 document, one v2 document per history version and
 * the v1 ipv4 document. A version changes when a daily scan sees a service appear, disappear
 * or change.
 */

export interface HostVersion {
  validFrom: number;
  validTo: number | null;
  services: ServiceSpec[];
}

export interface ObservedService {
  spec: ServiceSpec;
  observedAt: number;
  document: Record<string, unknown>;
}

export interface GeneratedHost {
  ip: string;
  ipNum: number;
  network: Network;
  firstSeen: number;
  versions: HostVersion[];
  current: ObservedService[];
  lastUpdatedAt: number;
  document: Record<string, unknown>;
  v1Document: Record<string, unknown>;
  /** v2 document as of each version's start. */
  historyDocuments: { validFrom: number; validTo: number | null; document: Record<string, unknown> }[];
}

export interface LeafPools {
  /** CA-issued, servable leaves. */
  issued: TlsLeaf[];
  selfSigned: TlsLeaf[];
}

/** Scanner addresses and vantage points the observations come from. */
const SOURCE_IPS = [
  "167.94.138.35",
  "167.94.138.120",
  "167.94.145.57",
  "167.94.146.59",
  "162.142.125.10",
  "206.168.34.61",
];
const PERSPECTIVES = ["PERSPECTIVE_NTT", "PERSPECTIVE_TATA", "PERSPECTIVE_HE", "PERSPECTIVE_ORANGE"];

const HOSTING_SERVICES: [ServiceKind, number][] = [
  ["HTTP", 0.55],
  ["HTTPS", 0.55],
  ["SSH", 0.5],
  ["SMTP", 0.08],
  ["FTP", 0.06],
  ["MYSQL", 0.07],
  ["REDIS", 0.04],
  ["POSTGRES", 0.03],
  ["DNS", 0.05],
  ["RDP", 0.05],
];
const DEVICE_SERVICES: [ServiceKind, number][] = [
  ["HTTP", 0.5],
  ["HTTPS", 0.35],
  ["TELNET", 0.15],
  ["DNS", 0.25],
  ["SSH", 0.15],
  ["FTP", 0.08],
  ["RDP", 0.06],
];

export class HostFactory {
  private readonly usedIps = new Set<number>();
  private readonly leafBySha: Map<string, TlsLeaf>;

  constructor(
    private readonly rng: Prng,
    private readonly leaves: LeafPools,
  ) {
    this.leafBySha = new Map([...leaves.issued, ...leaves.selfSigned].map((l) => [l.sha256, l]));
  }

  private pickIp(network: Network): number {
    const { first, size } = prefixRange(network.prefix);
    for (;;) {
      const n = first + this.rng.int(1, size - 2);
      if ((n & 255) === 0 || (n & 255) === 255 || this.usedIps.has(n)) continue;
      this.usedIps.add(n);
      return n;
    }
  }

  private leafFor(device: boolean): TlsLeaf | undefined {
    const selfSigned = device ? this.rng.chance(0.7) : this.rng.chance(0.05);
    const pool =
      selfSigned && this.leaves.selfSigned.length > 0 ? this.leaves.selfSigned : this.leaves.issued;
    return pool.length > 0 ? this.rng.pick(pool) : undefined;
  }

  private newService(
    kind: ServiceKind,
    taken: Set<number>,
    ip: string,
    device: boolean,
    domainLeaf?: TlsLeaf,
  ): ServiceSpec | null {
    const ports = SERVICE_PORTS[kind].filter((p) => !taken.has(p));
    if (ports.length === 0) return null;
    const port =
      ports[0] !== SERVICE_PORTS[kind][0] || this.rng.chance(0.8)
        ? (ports[0] as number)
        : this.rng.pick(ports);
    taken.add(port);
    const leaf = kind === "HTTPS" ? this.leafFor(device) : kind === "HTTP" ? domainLeaf : undefined;
    if (kind === "HTTPS" && !leaf) return null;
    return buildService(this.rng, kind, port, { ip, device, leaf });
  }

  private initialServices(ip: string, device: boolean): ServiceSpec[] {
    const table = device ? DEVICE_SERVICES : HOSTING_SERVICES;
    const kinds = table.filter(([, p]) => this.rng.chance(p)).map(([k]) => k);
    if (kinds.length === 0) kinds.push(this.rng.weighted(table));
    // HTTPS first so a plain HTTP service on the same host can redirect to the site's domain.
    kinds.sort((a, b) => (a === "HTTPS" ? -1 : b === "HTTPS" ? 1 : 0));
    const taken = new Set<number>();
    const out: ServiceSpec[] = [];
    let siteLeaf: TlsLeaf | undefined;
    for (const kind of kinds) {
      const spec = this.newService(kind, taken, ip, device, siteLeaf);
      if (!spec) continue;
      if (kind === "HTTPS" && spec.certificate) siteLeaf = this.leafBySha.get(spec.certificate);
      out.push(spec);
    }
    return out;
  }

  /** Daily history: each day a host may gain, lose or change one service. */
  private history(ip: string, device: boolean, firstSeen: number): HostVersion[] {
    let services = this.initialServices(ip, device);
    const versions: HostVersion[] = [{ validFrom: firstSeen, validTo: null, services }];
    const firstDay = Math.floor(firstSeen / DAY_MS) + 1;
    const lastDay = Math.floor(DATASET_NOW / DAY_MS) - 1;
    for (let day = firstDay; day <= lastDay; day++) {
      if (!this.rng.chance(0.02)) continue;
      const at = day * DAY_MS + this.rng.int(0, 23) * 3_600_000 + this.rng.int(0, 3599) * 1000;
      const roll = this.rng.next();
      let next: ServiceSpec[] | null = null;
      if (roll < 0.5) {
        const table = device ? DEVICE_SERVICES : HOSTING_SERVICES;
        const kind = this.rng.weighted(table);
        const spec = this.newService(kind, new Set(services.map((s) => s.port)), ip, device);
        if (spec) next = [...services, spec];
      } else if (roll < 0.85 && services.length > 1) {
        const drop = this.rng.int(0, services.length - 1);
        next = services.filter((_, i) => i !== drop);
      } else {
        const index = this.rng.int(0, services.length - 1);
        const old = services[index] as ServiceSpec;
        const leaf = old.kind === "HTTPS" ? this.leafFor(device) : undefined;
        const replaced =
          old.kind === "HTTPS" && !leaf
            ? old
            : buildService(this.rng, old.kind, old.port, { ip, device, leaf });
        next = services.map((s, i) => (i === index ? replaced : s));
      }
      if (!next) continue;
      const previous = versions[versions.length - 1] as HostVersion;
      previous.validTo = at;
      services = next;
      versions.push({ validFrom: at, validTo: null, services });
    }
    return versions;
  }

  private observe(spec: ServiceSpec, observedAt: number): ObservedService {
    const nanos = this.rng.int(0, 999_999);
    const encoding: Record<string, string> = { banner: "DISPLAY_UTF8" };
    if (spec.certificate) encoding.certificate = "DISPLAY_HEX";
    const document: Record<string, unknown> = {
      _decoded: spec.decodedName,
      _encoding: encoding,
      banner: spec.banner,
      ...(spec.certificate ? { certificate: spec.certificate } : {}),
      extended_service_name: spec.extendedServiceName,
      [spec.decodedName]: spec.decoded,
      observed_at: rfc3339Nanos(observedAt, nanos),
      perspective_id: this.rng.pick(PERSPECTIVES),
      port: spec.port,
      service_name: spec.serviceName,
      software: spec.software,
      source_ip: this.rng.pick(SOURCE_IPS),
      ...(spec.tls ? { tls: spec.tls } : {}),
      transport_protocol: spec.transport,
      truncated: false,
    };
    return { spec, observedAt, document };
  }

  private v2Document(
    host: { ip: string; network: Network; firstSeen: number },
    services: ObservedService[],
    lastUpdatedAt: number,
  ): Record<string, unknown> {
    const { network } = host;
    const l = network.location;
    return {
      ip: host.ip,
      services: services.map((s) => s.document),
      location: {
        continent: l.continent,
        country: l.country,
        country_code: l.countryCode,
        city: l.city,
        postal_code: l.postalCode,
        timezone: l.timezone,
        province: l.province,
        coordinates: { latitude: l.latitude, longitude: l.longitude },
        registered_country: l.country,
        registered_country_code: l.countryCode,
      },
      location_updated_at: isoSeconds(host.firstSeen),
      autonomous_system: {
        asn: network.asn,
        description: network.description,
        bgp_prefix: network.prefix,
        name: network.name,
        country_code: network.asCountryCode,
      },
      autonomous_system_updated_at: isoSeconds(host.firstSeen),
      last_updated_at: rfc3339Nanos(lastUpdatedAt, 0),
    };
  }

  private v1Document(
    ip: string,
    network: Network,
    services: ServiceSpec[],
    lastUpdatedAt: number,
  ): Record<string, unknown> {
    const l = network.location;
    const doc: Record<string, unknown> = {
      ip,
      protocols: services.map((s) => s.v1Protocol).sort(),
      ports: [...new Set(services.map((s) => s.port))].sort((a, b) => a - b),
      location: {
        continent: l.continent,
        country: l.country,
        country_code: l.countryCode,
        city: l.city,
        province: l.province,
        postal_code: l.postalCode,
        timezone: l.timezone,
        latitude: l.latitude,
        longitude: l.longitude,
        registered_country: l.country,
        registered_country_code: l.countryCode,
      },
      autonomous_system: {
        asn: network.asn,
        name: network.name,
        description: network.description,
        routed_prefix: network.prefix,
        country_code: network.asCountryCode,
      },
      tags: [...new Set(services.map((s) => s.v1Protocol.split("/")[1] ?? ""))].sort(),
      updated_at: isoSeconds(lastUpdatedAt),
    };
    for (const s of services) {
      const [port = "", protocol = ""] = s.v1Protocol.split("/");
      doc[port] = { [protocol]: s.v1 };
    }
    return doc;
  }

  create(): GeneratedHost {
    const network = this.rng.weighted(NETWORKS.map((n) => [n, n.weight] as const));
    const ipNum = this.pickIp(network);
    const ip = numberToIp(ipNum);
    const device = network.kind === "access" ? this.rng.chance(0.85) : this.rng.chance(0.05);
    const windowStart = DATASET_NOW - HISTORY_DAYS * DAY_MS;
    const lateArrival = this.rng.chance(0.1) ? this.rng.int(1, HISTORY_DAYS - 2) * DAY_MS : 0;
    const firstSeen =
      windowStart + lateArrival + this.rng.int(0, 23) * 3_600_000 + this.rng.int(0, 3599) * 1000;
    const versions = this.history(ip, device, firstSeen);
    const place = { ip, network, firstSeen };
    const byPort = (a: ObservedService, b: ObservedService) => a.spec.port - b.spec.port;
    const historyDocuments = versions.map((v) => {
      const observed = v.services
        .map((s) => this.observe(s, Math.max(firstSeen, v.validFrom - this.rng.int(0, 3599) * 1000)))
        .sort(byPort);
      return {
        validFrom: v.validFrom,
        validTo: v.validTo,
        document: this.v2Document(place, observed, v.validFrom),
      };
    });
    const latest = versions[versions.length - 1] as HostVersion;
    const current = latest.services
      .map((s) => this.observe(s, Math.max(latest.validFrom, DATASET_NOW - this.rng.int(60, 86_399) * 1000)))
      .sort(byPort);
    const lastUpdatedAt = Math.max(...current.map((s) => s.observedAt));
    return {
      ip,
      ipNum,
      network,
      firstSeen,
      versions,
      current,
      lastUpdatedAt,
      document: this.v2Document(place, current, lastUpdatedAt),
      v1Document: this.v1Document(
        ip,
        network,
        current.map((s) => s.spec),
        lastUpdatedAt,
      ),
      historyDocuments,
    };
  }
}
