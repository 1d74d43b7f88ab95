import { hostNames } from "../../services/host-names";
import { DAY_MS, HISTORY_DAYS, isoSeconds, rfc3339Nanos } from "../clock";
import type { Prng } from "../prng";
import { THREATS, type ThreatProfile } from "../threats";
import { jarmBlock } from "./fingerprints";
import { hostIdentity, hostLabels } from "./labels";
import { NETWORKS, numberToIp, prefixRange, type Network } from "./networks";
import { reverseName, whoisRecord } from "./registration";
import { SERVICE_PORTS, buildService, type ServiceKind, type ServiceSpec, type TlsLeaf } from "./services";
import { v1HostDocument } from "./v1-document";

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
  /** The default certificates of threats (threats.ts), by threat id. */
  threats: ReadonlyMap<string, TlsLeaf>;
}

/** Of every host, how many carry a planted threat (threats.ts): hosting networks far more. */
const THREAT_RATE = { hosting: 0.02, access: 0.002 };

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
  ["KUBERNETES", 0.01],
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
  /** Whether a threat was planted yet: the first hosting server gets one, so every dataset has one. */
  private plantedThreat = false;
  /**
   * Whether a Redis service was made yet: the first asks for a password, so every dataset shows
   * both of Redis's answers (an open one is drawn 60% of the time).
   */
  private madeRedis = false;
  private readonly leafBySha: Map<string, TlsLeaf>;
  /** Every servable leaf's names (for a host's DNS names, services/host-names.ts). */
  private readonly namesBySha: Map<string, readonly string[]>;

  /** `now`: the dataset's clock (clock.ts); history runs up to it. */
  constructor(
    private readonly rng: Prng,
    private readonly leaves: LeafPools,
    private readonly now: number,
  ) {
    const all = [...leaves.issued, ...leaves.selfSigned, ...leaves.threats.values()];
    this.leafBySha = new Map(all.map((l) => [l.sha256, l]));
    this.namesBySha = new Map(all.map((l) => [l.sha256.toLowerCase(), l.names]));
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
    const redisAuth = kind === "REDIS" && !this.madeRedis;
    if (kind === "REDIS") this.madeRedis = true;
    return buildService(this.rng, kind, port, { ip, device, leaf, now: this.now, redisAuth });
  }

  /** A planted threat's listener on one of its ports that is free, with its default certificate. */
  private threatService(profile: ThreatProfile, taken: Set<number>, ip: string): ServiceSpec | null {
    const ports = profile.ports.filter((p) => !taken.has(p));
    if (ports.length === 0) return null;
    const port = this.rng.chance(0.7) ? (ports[0] as number) : this.rng.pick(ports);
    taken.add(port);
    const leaf = profile.tls ? (this.leaves.threats.get(profile.id) ?? this.leafFor(true)) : undefined;
    const kind: ServiceKind = profile.tls ? "HTTPS" : "HTTP";
    return buildService(this.rng, kind, port, { ip, device: false, leaf, threat: profile, now: this.now });
  }

  private initialServices(ip: string, device: boolean, network: Network): ServiceSpec[] {
    const table = device ? DEVICE_SERVICES : HOSTING_SERVICES;
    const kinds = table.filter(([, p]) => this.rng.chance(p)).map(([k]) => k);
    if (kinds.length === 0) kinds.push(this.rng.weighted(table));
    // HTTPS first so a plain HTTP service on the same host can redirect to the site's domain.
    kinds.sort((a, b) => (a === "HTTPS" ? -1 : b === "HTTPS" ? 1 : 0));
    const taken = new Set<number>();
    const out: ServiceSpec[] = [];
    const threatRoll = this.rng.next();
    const first = !this.plantedThreat && network.kind === "hosting";
    if (!device && (first || threatRoll < THREAT_RATE[network.kind])) {
      this.plantedThreat = true;
      const planted = this.threatService(
        this.rng.weighted(THREATS.map((t) => [t, t.weight] as const)),
        taken,
        ip,
      );
      if (planted) out.push(planted);
    }
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
  private history(ip: string, device: boolean, firstSeen: number, network: Network): HostVersion[] {
    let services = this.initialServices(ip, device, network);
    const versions: HostVersion[] = [{ validFrom: firstSeen, validTo: null, services }];
    const firstDay = Math.floor(firstSeen / DAY_MS) + 1;
    const lastDay = Math.floor(this.now / DAY_MS) - 1;
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
        // A planted threat keeps its listener; other services may be reconfigured.
        const replaced =
          (old.kind === "HTTPS" && !leaf) || old.extra.threats !== undefined
            ? old
            : buildService(this.rng, old.kind, old.port, { ip, device, leaf, now: this.now });
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
      ...spec.extra,
    };
    // JARM is an enrichment of its own, fingerprinted when the service was.
    if (typeof spec.extra.jarm === "string")
      document.jarm = jarmBlock(spec.extra.jarm, rfc3339Nanos(observedAt, 0));
    return { spec, observedAt, document };
  }

  private v2Document(
    host: { ip: string; network: Network; firstSeen: number; reverse: string | null },
    services: ObservedService[],
    lastUpdatedAt: number,
  ): Record<string, unknown> {
    const { network } = host;
    const l = network.location;
    const documents = services.map((s) => s.document);
    const labels = hostLabels(documents);
    return {
      ip: host.ip,
      services: documents,
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
      dns: this.dns(documents, host.reverse, lastUpdatedAt),
      ...(labels.length > 0 ? { labels } : {}),
      ...hostIdentity(documents),
      whois: whoisRecord(network),
      last_updated_at: rfc3339Nanos(lastUpdatedAt, 0),
    };
  }

  /**
   * The host's DNS: the names that resolve to it (services/host-names.ts, the one reading of
   * a host's names the names and resolution routes share) and the reverse name its network
   * publishes for the address.
   */
  private dns(
    services: Record<string, unknown>[],
    reverse: string | null,
    at: number,
  ): Record<string, unknown> {
    const names = hostNames({ services }, this.namesBySha);
    const resolvedAt = isoSeconds(at - (at % 3_600_000));
    return {
      ...(names.length > 0 ? { names } : {}),
      ...(reverse ? { reverse_dns: { names: [reverse], resolved_at: resolvedAt } } : {}),
    };
  }

  create(): GeneratedHost {
    const network = this.rng.weighted(NETWORKS.map((n) => [n, n.weight] as const));
    const ipNum = this.pickIp(network);
    const ip = numberToIp(ipNum);
    const device = network.kind === "access" ? this.rng.chance(0.85) : this.rng.chance(0.05);
    const windowStart = this.now - HISTORY_DAYS * DAY_MS;
    const lateArrival = this.rng.chance(0.1) ? this.rng.int(1, HISTORY_DAYS - 2) * DAY_MS : 0;
    const firstSeen =
      windowStart + lateArrival + this.rng.int(0, 23) * 3_600_000 + this.rng.int(0, 3599) * 1000;
    const versions = this.history(ip, device, firstSeen, network);
    // Most networks publish a reverse name for most addresses; home routers often keep none.
    const reverse = this.rng.chance(device ? 0.6 : 0.8) ? reverseName(network, ip) : null;
    const place = { ip, network, firstSeen, reverse };
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
      .map((s) => this.observe(s, Math.max(latest.validFrom, this.now - this.rng.int(60, 86_399) * 1000)))
      .sort(byPort);
    const lastUpdatedAt = Math.max(...current.map((s) => s.observedAt));
    const document = this.v2Document(place, current, lastUpdatedAt);
    return {
      ip,
      ipNum,
      network,
      firstSeen,
      versions,
      current,
      lastUpdatedAt,
      document,
      v1Document: v1HostDocument(document, isoSeconds(lastUpdatedAt)),
      historyDocuments,
    };
  }
}
