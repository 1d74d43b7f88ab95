import type { Prng } from "../prng";
import { serviceRisks, type RiskFacts } from "../risks";
import { COBALT_STRIKE_WATERMARKS, threatObject, type ThreatProfile } from "../threats";
import { bannerHash, tlsFingerprints } from "./fingerprints";
import { httpExchange, rawPage } from "./http";
import { serviceHardware, serviceLabels, serviceOperatingSystems } from "./labels";
import {
  dnsScan,
  ftpScan,
  kubernetesScan,
  mysqlScan,
  postgresScan,
  rdpScan,
  redisScan,
  smtpScan,
  sshScan,
  telnetScan,
  type ProtocolScan,
} from "./protocols";
import type { SoftwareEntry } from "./software";

/**
 * One service of a host, with every choice made once (so a service rendered at several
 * instants of its history stays the same service): the v2 service object minus its
 * observation fields (host.ts adds those; v1-document.ts reads the v1 object off it).
 */

/** A certificate a TLS service presents (a leaf of the dataset's certificate catalog). */
export interface TlsLeaf {
  sha256: string;
  chain: string[];
  pubkeyAlgorithm: string;
  pubkeyBits: number;
  subjectDn: string;
  issuerDn: string;
  /** Parsed subject and issuer, as the certificate document spells them (`common_name: [...]`). */
  subject: Record<string, string[]>;
  issuer: Record<string, string[]>;
  names: string[];
  tbsFingerprint: string;
  spkiFingerprint: string;
  /** Old stacks: weak keys and SHA-1 chains are served over older TLS. */
  legacy: boolean;
  selfSigned: boolean;
  notAfter: number;
  domain?: string;
  /** The threat whose default certificate this is. */
  threat?: string;
}

export interface ServiceSpec {
  kind: ServiceKind;
  port: number;
  transport: "TCP" | "UDP";
  serviceName: string;
  extendedServiceName: string;
  decodedName: string;
  software: SoftwareEntry[];
  banner: string;
  decoded: Record<string, unknown>;
  tls?: Record<string, unknown>;
  certificate?: string;
  tlsVersion?: string;
  httpStatus?: number;
  httpTitle?: string;
  httpServer?: string;
  /** The HTTP body (kept once per distinct body for body searches). */
  httpBody?: string;
  /**
   * Fields of the service document beyond the protocol's block: labels, hashes, JARM, risks,
   * threats, hardware and operating systems, endpoint objects (a beacon's configuration).
   */
  extra: Record<string, unknown>;
}

export type ServiceKind =
  | "HTTP"
  | "HTTPS"
  | "SSH"
  | "DNS"
  | "SMTP"
  | "FTP"
  | "MYSQL"
  | "REDIS"
  | "RDP"
  | "TELNET"
  | "POSTGRES"
  | "KUBERNETES";

export const SERVICE_PORTS: Record<ServiceKind, number[]> = {
  HTTP: [80, 8080, 8000, 8888],
  HTTPS: [443, 8443],
  SSH: [22, 2222],
  DNS: [53],
  SMTP: [25, 587],
  FTP: [21],
  MYSQL: [3306],
  REDIS: [6379],
  RDP: [3389],
  TELNET: [23],
  POSTGRES: [5432],
  KUBERNETES: [6443, 10250],
};

export interface ServiceContext {
  ip: string;
  device: boolean;
  leaf?: TlsLeaf;
  /** A threat planted on this service (threats.ts). */
  threat?: ThreatProfile;
  /** The dataset's "now" (certificates are judged expired against it). */
  now: number;
  /** A Redis that asks for a password (the dataset's first, so both answers appear). */
  redisAuth?: boolean;
}

const CIPHERS_13 = ["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"];

function tlsObject(
  rng: Prng,
  leaf: TlsLeaf,
  stack: string,
  http2: boolean,
): { decoded: Record<string, unknown>; version: string; jarm: string } {
  const ec = leaf.pubkeyAlgorithm === "ECDSA";
  const version = leaf.legacy ? rng.pick(["TLSv1_0", "TLSv1_2"]) : rng.chance(0.7) ? "TLSv1_3" : "TLSv1_2";
  const cipher =
    version === "TLSv1_3"
      ? rng.pick(CIPHERS_13)
      : version === "TLSv1_0"
        ? "TLS_RSA_WITH_AES_128_CBC_SHA"
        : ec
          ? "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"
          : "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384";
  const prints = tlsFingerprints(stack, version, cipher, http2);
  return {
    version,
    jarm: prints.jarm,
    decoded: {
      version_selected: version,
      cipher_selected: cipher,
      ja3s: prints.ja3s,
      ja4s: prints.ja4s,
      certificates: {
        leaf_fp_sha_256: leaf.sha256,
        chain_fps_sha_256: leaf.chain,
        leaf_data: {
          pubkey_algorithm: leaf.pubkeyAlgorithm,
          pubkey_bit_size: leaf.pubkeyBits,
          subject_dn: leaf.subjectDn,
          issuer_dn: leaf.issuerDn,
          subject: leaf.subject,
          issuer: leaf.issuer,
          names: leaf.names.slice(0, 8),
          tbs_fingerprint: leaf.tbsFingerprint,
          public_key: { fingerprint_sha256: leaf.spkiFingerprint },
          signature: { self_signed: leaf.selfSigned },
        },
        _encoding: { leaf_fp_sha_256: "DISPLAY_HEX", chain_fps_sha_256: "DISPLAY_HEX" },
      },
      _encoding: {},
    },
  };
}

const base = (
  kind: ServiceKind,
  port: number,
  name: string,
  decodedName: string,
  transport: "TCP" | "UDP" = "TCP",
) => ({
  kind,
  port,
  transport,
  serviceName: name,
  extendedServiceName: name,
  decodedName,
});

/** A Cobalt Strike beacon's configuration, as its staging endpoint serves it (SDK `CobaltStrikeConfig`). */
function beaconConfig(rng: Prng, tls: boolean): Record<string, unknown> {
  const watermark = rng.pick(COBALT_STRIKE_WATERMARKS);
  const config = (arch: string) => ({
    watermark,
    sleep_time: rng.pick([60000, 45000, 5000]),
    jitter: rng.pick([0, 10, 37]),
    ssl: tls,
    dns: false,
    crypto_scheme: 0,
    public_key: `MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC${rng.int(100000, 999999)}${arch}AQAB`,
    user_agent: rng.pick([
      "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; WOW64; Trident/5.0; BOIE9;ENCA)",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    ]),
    http_get: { uri: "/ca", verb: "GET" },
    http_post: { uri: "/submit.php", verb: "POST" },
    post_ex: {
      spawnto_x86: "%windir%\\syswow64\\rundll32.exe",
      spawnto_x64: "%windir%\\sysnative\\rundll32.exe",
    },
  });
  return { x86: config("x86"), x64: config("x64") };
}

/** The HTTP or HTTPS service on `port`, or a threat's listener when one is planted there. */
function webService(rng: Prng, kind: "HTTP" | "HTTPS", port: number, context: ServiceContext): ServiceSpec {
  const { threat } = context;
  const stackRng = rng.fork("stack");
  const http2 = kind === "HTTPS" && stackRng.chance(0.5);
  const themPage = threat?.page;
  const http = httpExchange(rng, {
    host: context.leaf?.domain ?? context.ip,
    port,
    tls: kind === "HTTPS",
    domain: threat ? undefined : context.leaf?.domain,
    device: context.device,
    ...(themPage
      ? {
          page: rawPage(
            themPage.title ? 200 : 404,
            themPage.title ? "OK" : "Not Found",
            themPage.title ?? null,
            themPage.body ?? "",
          ),
          ...(themPage.server !== undefined ? { server: themPage.server } : {}),
        }
      : {}),
  });
  const stack = threat?.id ?? http.server ?? "web";
  const tls = kind === "HTTPS" && context.leaf ? tlsObject(rng, context.leaf, stack, http2) : undefined;
  const spec: ServiceSpec = {
    ...base(kind, port, "HTTP", "http"),
    extendedServiceName: tls ? "HTTPS" : "HTTP",
    software: http.software,
    banner: http.banner,
    decoded: http.decoded,
    httpStatus: http.statusCode,
    httpServer: http.server ?? undefined,
    httpTitle: http.title ?? undefined,
    httpBody: http.body,
    extra: {},
  };
  if (tls && context.leaf) {
    spec.tls = tls.decoded;
    spec.certificate = context.leaf.sha256;
    spec.tlsVersion = tls.version;
    spec.extra.jarm = threat?.jarm ?? tls.jarm;
  }
  if (threat?.beacon) spec.extra.cobalt_strike = beaconConfig(rng, tls !== undefined);
  finish(spec, context, { title: http.title, app: http.app });
  return spec;
}

/** A raw TLS listener of a threat that does not speak HTTP (a RAT): an UNKNOWN service with TLS. */
function threatListener(rng: Prng, port: number, context: ServiceContext): ServiceSpec {
  const spec: ServiceSpec = {
    ...base("HTTPS", port, "UNKNOWN", "banner_grab"),
    extendedServiceName: "UNKNOWN",
    software: [],
    banner: "",
    decoded: { banner: "", transport: "TCP" },
    extra: {},
  };
  if (context.leaf) {
    const tls = tlsObject(rng, context.leaf, context.threat?.id ?? "raw", false);
    spec.tls = tls.decoded;
    spec.certificate = context.leaf.sha256;
    spec.tlsVersion = tls.version;
    spec.extra.jarm = context.threat?.jarm ?? tls.jarm;
  }
  finish(spec, context, {});
  return spec;
}

/**
 * The fields every service derives from what it showed: banner hash, labels, operating
 * systems and hardware, risks, the planted threat.
 */
function finish(
  spec: ServiceSpec,
  context: ServiceContext,
  page: { title?: string | null; app?: string },
): void {
  const clues = {
    protocol: spec.serviceName,
    title: page.title,
    app: page.app,
    threat: context.threat,
    software: spec.software,
  };
  const { extra } = spec;
  if (spec.banner !== "") extra.banner_hashes = [`sha256:${bannerHash(spec.banner)}`];
  const labels = serviceLabels(clues);
  if (labels.length > 0) extra.labels = labels;
  const systems = serviceOperatingSystems(clues);
  if (systems.length > 0) extra.operating_systems = systems;
  const hardware = serviceHardware(clues);
  if (hardware.length > 0) extra.hardware = hardware;
  const leaf = context.leaf;
  const facts: RiskFacts = {
    software: [...spec.software, ...systems].map((s) => ({
      vendor: s.vendor,
      product: s.product,
      version: s.version,
      backported: spec.serviceName === "SSH" && /OpenSSH_\S+ \S/.test(spec.banner),
    })),
    protocol: spec.serviceName,
    ...(spec.tlsVersion && leaf
      ? {
          tls: {
            version: spec.tlsVersion,
            selfSigned: leaf.selfSigned,
            expired: leaf.notAfter < context.now,
            weakKey: leaf.pubkeyAlgorithm === "RSA" && leaf.pubkeyBits < 2048,
          },
        }
      : {}),
    httpTitle: page.title ?? undefined,
    openRedis: spec.decoded.ping_response === "PONG",
  };
  Object.assign(extra, serviceRisks(facts));
  if (context.threat) {
    const evidence = [
      ...(extra.jarm
        ? [{ data_path: "jarm.fingerprint", found_value: typeof extra.jarm === "string" ? extra.jarm : "" }]
        : []),
      ...(leaf?.threat ? [{ data_path: "cert.parsed.subject_dn", found_value: leaf.subjectDn }] : []),
      ...(extra.cobalt_strike
        ? [{ data_path: "endpoints.cobalt_strike.x64.watermark", found_value: "" }]
        : []),
    ];
    extra.threats = [
      threatObject(
        context.threat,
        evidence.length > 0 ? evidence : [{ data_path: "port", found_value: String(spec.port) }],
      ),
    ];
  }
}

function fromScan(
  kind: ServiceKind,
  port: number,
  name: string,
  decodedName: string,
  scan: ProtocolScan,
  context: ServiceContext,
): ServiceSpec {
  const spec: ServiceSpec = {
    ...base(kind, port, name, decodedName, scan.transport),
    software: scan.software,
    banner: scan.banner,
    decoded: scan.decoded,
    extra: {},
  };
  finish(spec, context, {});
  return spec;
}

export function buildService(
  rng: Prng,
  kind: ServiceKind,
  port: number,
  context: ServiceContext,
): ServiceSpec {
  if (context.threat && !context.threat.http) return threatListener(rng, port, context);
  switch (kind) {
    case "HTTP":
    case "HTTPS":
      return webService(rng, kind, port, context);
    case "SSH":
      return fromScan(kind, port, "SSH", "ssh", sshScan(rng), context);
    case "DNS":
      return fromScan(kind, port, "DNS", "dns", dnsScan(rng, context.device), context);
    case "SMTP":
      return fromScan(kind, port, "SMTP", "smtp", smtpScan(rng, context.ip), context);
    case "FTP":
      return fromScan(kind, port, "FTP", "ftp", ftpScan(rng), context);
    case "MYSQL":
      return fromScan(kind, port, "MYSQL", "mysql", mysqlScan(rng), context);
    case "REDIS":
      return fromScan(kind, port, "REDIS", "redis", redisScan(rng, context.redisAuth), context);
    case "RDP":
      return fromScan(kind, port, "RDP", "rdp", rdpScan(rng), context);
    case "TELNET":
      return fromScan(kind, port, "TELNET", "telnet", telnetScan(rng), context);
    case "POSTGRES":
      return fromScan(kind, port, "POSTGRES", "postgres", postgresScan(rng), context);
    case "KUBERNETES":
      return fromScan(kind, port, "KUBERNETES", "kubernetes", kubernetesScan(rng), context);
  }
}
