import type { HostDocument, HostService } from "../v2/host";
import type { HostHit } from "../v2/hosts-api";
import { defined, epochMs, list, num, obj, str, strings, type Json } from "./legacy-json";

/**
 * A Platform (v3) host as the legacy v2 host document, for an edge whose upstream speaks only
 * the Platform API. The inverse of how a v2 host becomes a v3 one: `protocol` is the
 * `service_name`, `scan_time` the `observed_at`, CPE attributes the `software`, the HTTP
 * endpoint the `http` block, the presented chain and certificate the `tls` block.
 *
 * What the Platform does not carry is left out rather than invented: a service's `source_ip`,
 * `perspective_id` and `truncated`, and a host's `*_updated_at` times. `last_updated_at` is
 * the latest scan of any service, to the millisecond (the Platform keeps no separate update time).
 */

/** Protocol blocks whose shape both APIs share (the origin passes the same set through). */
const SHARED_PROTOCOL_BLOCKS = ["ssh", "dns", "ftp", "mysql", "smtp", "redis", "postgres"] as const;

/** The Platform's `tlsv1_2` → v2 `TLSv1_2` (and `sslv3` → `SSLv3`). */
export function legacyTlsVersion(version: string | undefined): string | undefined {
  return version?.replace(/^tls/i, "TLS").replace(/^ssl/i, "SSL");
}

function legacySoftware(attributes: unknown): Json[] {
  return list(attributes).map((entry) => {
    const a = obj(entry);
    return defined({
      uniform_resource_identifier: str(a.cpe),
      part: str(a.part),
      vendor: str(a.vendor),
      product: str(a.product),
      version: str(a.version),
      source: str(a.source),
    });
  });
}

/** The v3 `Http` of a service's endpoint as the v2 `http` block. */
function legacyHttp(http: Json): Json {
  const headers: Record<string, string[]> = {};
  for (const [name, entry] of Object.entries(obj(http.headers))) headers[name] = strings(obj(entry).headers);
  const sha1 = str(http.body_hash_sha1);
  return defined({
    request: { method: "GET", uri: str(http.uri), headers: {} },
    response: defined({
      protocol: str(http.protocol),
      status_code: num(http.status_code),
      status_reason: str(http.status_reason),
      body: str(http.body),
      body_size: num(http.body_size),
      headers,
      html_tags: Array.isArray(http.html_tags) ? strings(http.html_tags) : undefined,
      html_title: str(http.html_title),
    }),
    body_hash: sha1 ? `sha1:${sha1}` : undefined,
    // Known only when the scan listed the versions the server speaks.
    supports_http2: Array.isArray(http.supported_versions)
      ? strings(http.supported_versions).includes("HTTP/2")
      : undefined,
  });
}

/** The v3 `tls` and `cert` of a service as the v2 `tls` block (its leaf's data from the certificate). */
function legacyTls(tls: Json, cert: Json): Json {
  const chain = list(tls.presented_chain).map(obj);
  const leaf = chain[0] ?? {};
  const leafFingerprint = str(tls.fingerprint_sha256) ?? str(leaf.fingerprint_sha256);
  const parsed = obj(cert.parsed);
  const keyInfo = obj(parsed.subject_key_info);
  const keyAlgorithm = str(obj(keyInfo.key_algorithm).name);
  const bits =
    num(obj(keyInfo.rsa).length) ??
    num(obj(keyInfo.rsa_public_key).length) ??
    num(obj(keyInfo.ecdsa_public_key).length);
  const chainFingerprints = chain
    .slice(1)
    .map((c) => str(c.fingerprint_sha256))
    .filter((fp): fp is string => fp !== undefined);
  return defined({
    version_selected: legacyTlsVersion(str(tls.version_selected)),
    cipher_selected: str(tls.cipher_selected),
    certificates: defined({
      leaf_fp_sha_256: leafFingerprint,
      // A presented chain of the leaf alone is an empty v2 chain; no presented chain, none.
      chain_fps_sha_256: chain.length > 0 ? chainFingerprints : undefined,
      leaf_data: defined({
        pubkey_algorithm: keyAlgorithm,
        pubkey_bit_size: bits,
        subject_dn: str(leaf.subject_dn) ?? str(parsed.subject_dn),
        issuer_dn: str(leaf.issuer_dn) ?? str(parsed.issuer_dn),
        names: Array.isArray(cert.names) ? strings(cert.names) : undefined,
        tbs_fingerprint: str(cert.tbs_fingerprint_sha256),
      }),
    }),
  });
}

/** One v3 `Service` as a v2 host service. */
export function legacyHostService(v3Service: unknown): HostService {
  const s = obj(v3Service);
  const protocol = str(s.protocol) ?? "UNKNOWN";
  const cert = obj(s.cert);
  const certificate = str(cert.fingerprint_sha256) ?? str(obj(s.tls).fingerprint_sha256);
  const endpoint = list(s.endpoints)
    .map(obj)
    .find((e) => e.http !== undefined);
  const blocks: Json = {};
  for (const name of SHARED_PROTOCOL_BLOCKS) if (s[name] !== undefined) blocks[name] = s[name];
  const http = endpoint ? legacyHttp(obj(endpoint.http)) : undefined;
  const tls = s.tls !== undefined ? legacyTls(obj(s.tls), cert) : undefined;
  // The decoded block is named after the protocol (`http` for HTTP(S), `rdp`, `ssh`, ...).
  const decoded = http ? "http" : (Object.keys(blocks)[0] ?? protocol.toLowerCase());
  const encoding: Record<string, string> = { banner: "DISPLAY_UTF8" };
  if (certificate) encoding.certificate = "DISPLAY_HEX";
  return defined({
    _decoded: decoded,
    _encoding: encoding,
    banner: str(s.banner) ?? "",
    certificate,
    extended_service_name: protocol === "HTTP" && tls ? "HTTPS" : protocol,
    observed_at: str(s.scan_time),
    port: num(s.port),
    service_name: protocol,
    software: legacySoftware(s.software),
    transport_protocol: str(s.transport_protocol)?.toUpperCase(),
    ...blocks,
    http,
    tls,
  }) as HostService;
}

/**
 * The latest of the services' scan times, to the millisecond, as RFC 3339 with nine fraction
 * digits (`2026-10-31T18:01:02.123000000Z`); undefined without any. To the millisecond: a host's
 * versions are told apart by millisecond instants, so a time just before this one (the legacy
 * clients' `at_time` arithmetic) falls in the version before.
 */
export function latestScanTime(services: readonly unknown[]): string | undefined {
  const latest = latestScanMs(services);
  if (latest === undefined) return undefined;
  return `${new Date(latest).toISOString().slice(0, 23)}000000Z`;
}

/** The latest of the services' scan times in epoch ms (the millisecond it falls in); undefined without any. */
export function latestScanMs(services: readonly unknown[]): number | undefined {
  let latest: number | undefined;
  for (const service of services) {
    const ms = epochMs(str(obj(service).scan_time));
    if (ms !== undefined && (latest === undefined || ms > latest)) latest = ms;
  }
  return latest;
}

/** A v3 host's routing as the v2 `autonomous_system`. */
export function legacyAutonomousSystem(v3Routing: unknown): Json {
  const as = obj(v3Routing);
  return defined({
    asn: num(as.asn),
    bgp_prefix: str(as.bgp_prefix),
    country_code: str(as.country_code),
    name: str(as.name),
    description: str(as.description),
  });
}

/** A v3 `Host` (the `resource` of a host asset) as the v2 host document. */
export function legacyHost(v3Host: unknown): HostDocument {
  const h = obj(v3Host);
  const services = list(h.services);
  return defined({
    ip: str(h.ip),
    last_updated_at: latestScanTime(services),
    autonomous_system:
      h.autonomous_system === undefined ? undefined : legacyAutonomousSystem(h.autonomous_system),
    location: h.location === undefined ? undefined : obj(h.location),
    services: services.map(legacyHostService),
  }) as HostDocument;
}

/**
 * A v3 host search hit (`host_v1.resource`) as a v2 search hit: the address, its services'
 * port, names and transport (in port order, as v2 lists them), location, autonomous system and
 * last update.
 */
export function legacyHostHit(v3Host: unknown): HostHit {
  const document = legacyHost(v3Host);
  const services = document.services
    .map((s) =>
      defined({
        port: s.port,
        service_name: s.service_name,
        extended_service_name: s.extended_service_name,
        transport_protocol: s.transport_protocol,
      }),
    )
    .sort(
      (a, b) => a.port - b.port || (a.transport_protocol ?? "").localeCompare(b.transport_protocol ?? ""),
    );
  return defined({
    ip: document.ip,
    services,
    location: document.location,
    autonomous_system: document.autonomous_system,
    last_updated_at: document.last_updated_at,
  });
}
