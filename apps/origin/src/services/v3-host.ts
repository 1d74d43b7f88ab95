import type { V3EndpointScanState, V3Host, V3Http, V3Service } from "@scangate/core";
import { ENDPOINT_OBJECTS } from "@scangate/search";
import { v3Certificate } from "./v3-certificate";
import { v3Attribute, v3Favicons, v3Jarm, v3Labels, v3ProtocolBlock, v3Software } from "./v3-protocols";

export { v3Software };

/**
 * The Platform (v3) face of a host: projected from the v2 host document the dataset stores
 * (current or historical), so v2 and v3 answer from one record. Services become the Platform's
 * `Service` (`protocol`, lowercase `transport_protocol`, `scan_time`, `software` as CPE
 * attributes, HTTP as an endpoint), their certificate the Platform's `Certificate`; a
 * protocol's own block under its name (reshaped where the two APIs differ: v3-protocols.ts),
 * with the labels, JARM, risks and threats the service carries. The host gets its DNS names,
 * labels, operating system, hardware and whois.
 */

type Json = Record<string, unknown>;

const obj = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** v2 `TLSv1_2` → the Platform's `tlsv1_2`. */
const tlsVersion = (version: unknown) => str(version)?.toLowerCase();

/** The Platform's `Tls` from a v2 service's `tls` block. */
export function v3Tls(tls: unknown) {
  const t = obj(tls);
  const certificates = obj(t.certificates);
  const leaf = str(certificates.leaf_fp_sha_256);
  const chain = list(certificates.chain_fps_sha_256).filter((fp): fp is string => typeof fp === "string");
  const leafData = obj(certificates.leaf_data);
  return {
    version_selected: tlsVersion(t.version_selected),
    cipher_selected: str(t.cipher_selected),
    ...(str(t.ja3s) ? { ja3s: str(t.ja3s) } : {}),
    ...(str(t.ja4s) ? { ja4s: str(t.ja4s) } : {}),
    fingerprint_sha256: leaf,
    presented_chain: [
      ...(leaf
        ? [
            {
              fingerprint_sha256: leaf,
              subject_dn: str(leafData.subject_dn),
              issuer_dn: str(leafData.issuer_dn),
            },
          ]
        : []),
      ...chain.map((fingerprint_sha256) => ({ fingerprint_sha256 })),
    ],
  };
}

/** A v2 HTTP response (`http.response`) as the Platform's `Http`, headers as repeated lists. */
export function v3Http(http: unknown): V3Http {
  const h = obj(http);
  const request = obj(h.request);
  const response = obj(h.response);
  const headers: Record<string, { headers: string[] }> = {};
  for (const [name, values] of Object.entries(obj(response.headers))) {
    headers[name] = { headers: list(values).map(String) };
  }
  const hashes = list(response.body_hashes).map(String);
  const sha1 = hashes.find((x) => x.startsWith("sha1:")) ?? str(response.body_hash);
  const sha256 = hashes.find((x) => x.startsWith("sha256:"));
  const favicons = v3Favicons(response.favicons);
  return {
    uri: str(request.uri),
    protocol: str(response.protocol),
    status_code: num(response.status_code),
    status_reason: str(response.status_reason),
    headers,
    html_tags: list(response.html_tags).map(String),
    html_title: str(response.html_title),
    body: str(response.body),
    body_size: num(response.body_size),
    body_hash_sha1: sha1?.startsWith("sha1:") ? sha1.slice(5) : undefined,
    body_hash_sha256: sha256?.slice(7),
    ...(favicons.length > 0 ? { favicons } : {}),
    supported_versions: h.supports_http2 === true ? ["HTTP/1.1", "HTTP/2"] : ["HTTP/1.1"],
  };
}

/** The endpoint objects (a beacon's configuration, a Kubernetes API's) a v2 service carries. */
function endpointObjects(service: Json): Json {
  return Object.fromEntries(
    ENDPOINT_OBJECTS.flatMap((name) => (service[name] !== undefined ? [[name, service[name]]] : [])),
  );
}

/** The HTTP endpoint of a service at `/` (the only path the dataset scans). */
export function v3HttpEndpoint(
  service: Json,
  ip: string | undefined,
  hostname?: string,
): V3EndpointScanState {
  return {
    endpoint_type: "HTTP",
    path: "/",
    ip,
    hostname,
    port: num(service.port),
    transport_protocol: str(service.transport_protocol)?.toLowerCase(),
    scan_time: str(service.observed_at),
    banner: str(service.banner),
    http: v3Http(service.http),
    ...endpointObjects(service),
  };
}

/** An endpoint of a service that speaks no HTTP but carries an endpoint object (Kubernetes). */
function objectEndpoint(service: Json, ip: string | undefined): V3EndpointScanState | null {
  const objects = endpointObjects(service);
  if (Object.keys(objects).length === 0) return null;
  return {
    endpoint_type: str(service.service_name),
    path: "/",
    ip,
    port: num(service.port),
    transport_protocol: str(service.transport_protocol)?.toLowerCase(),
    scan_time: str(service.observed_at),
    ...objects,
  };
}

/** The fields a v2 service carries that the Platform keeps as they are (risks, threats) or renames. */
function serviceFindings(service: Json, ip: string | undefined): Partial<V3Service> {
  const out: Json = {};
  const labels = v3Labels(service.labels);
  if (labels.length > 0) out.labels = labels;
  const jarm = v3Jarm(service.jarm, service, ip);
  if (jarm) out.jarm = jarm;
  const [bannerHash] = list(service.banner_hashes).map(String);
  if (bannerHash?.startsWith("sha256:")) out.banner_hash_sha256 = bannerHash.slice(7);
  for (const key of ["threats", "vulns", "exposures", "misconfigs"]) {
    if (Array.isArray(service[key])) out[key] = service[key];
  }
  if (Array.isArray(service.hardware)) out.hardware = list(service.hardware).map(v3Attribute);
  if (Array.isArray(service.operating_systems))
    out.operating_systems = list(service.operating_systems).map(v3Attribute);
  return out;
}

/**
 * One v2 service as the Platform's `Service`. `certificates` holds the v1 documents of the
 * certificates the services present (by lowercase fingerprint).
 */
export function v3Service(
  service: Json,
  ip: string | undefined,
  certificates: ReadonlyMap<string, unknown>,
): V3Service {
  const result: V3Service = {
    ip,
    port: num(service.port),
    protocol: str(service.service_name),
    transport_protocol: str(service.transport_protocol)?.toLowerCase(),
    scan_time: str(service.observed_at),
    banner: str(service.banner),
    software: v3Software(service.software),
  };
  const fingerprint = str(service.certificate)?.toLowerCase();
  const certificate = fingerprint ? certificates.get(fingerprint) : undefined;
  if (certificate !== undefined) result.cert = v3Certificate(certificate);
  if (service.tls !== undefined) result.tls = v3Tls(service.tls);
  const endpoint = service.http !== undefined ? v3HttpEndpoint(service, ip) : objectEndpoint(service, ip);
  if (endpoint !== null) result.endpoints = [endpoint];
  const block = v3ProtocolBlock(service);
  if (block !== null) result[block[0]] = block[1];
  return { ...result, ...serviceFindings(service, ip) };
}

/** The Platform's `HostDns`: the names resolving to the host, and its reverse name. */
function v3Dns(dns: unknown): V3Host["dns"] {
  const d = obj(dns);
  const names = list(d.names).map(String);
  const reverse = obj(d.reverse_dns);
  const reverseNames = list(reverse.names).map(String);
  if (names.length === 0 && reverseNames.length === 0) return undefined;
  return {
    ...(names.length > 0
      ? {
          names,
          forward_dns: Object.fromEntries(
            names.map((name) => [name, { name, record_type: "a", resolve_time: str(reverse.resolved_at) }]),
          ),
        }
      : {}),
    ...(reverseNames.length > 0
      ? { reverse_dns: { names: reverseNames, resolve_time: str(reverse.resolved_at) } }
      : {}),
  };
}

/** Certificate fingerprints the services of a v2 host document present (lowercase). */
export function presentedCertificates(v2Document: unknown): string[] {
  return list(obj(v2Document).services)
    .map((service) => str(obj(service).certificate)?.toLowerCase())
    .filter((fp): fp is string => fp !== undefined);
}

export function v3Host(v2Document: unknown, certificates: ReadonlyMap<string, unknown>): V3Host {
  const doc = obj(v2Document);
  const ip = str(doc.ip);
  const services = list(doc.services).map((service) => v3Service(obj(service), ip, certificates));
  const as = obj(doc.autonomous_system);
  const location = obj(doc.location);
  const whois = obj(doc.whois);
  const labels = v3Labels(doc.labels);
  const dns = v3Dns(doc.dns);
  return {
    ip,
    autonomous_system: {
      asn: num(as.asn),
      bgp_prefix: str(as.bgp_prefix),
      country_code: str(as.country_code),
      description: str(as.description),
      name: str(as.name),
      ...(str(obj(whois.organization).name) ? { organization: str(obj(whois.organization).name) } : {}),
    },
    location: { ...location },
    ...(dns ? { dns } : {}),
    ...(labels.length > 0 ? { labels } : {}),
    ...(doc.operating_system !== undefined ? { operating_system: v3Attribute(doc.operating_system) } : {}),
    ...(doc.hardware !== undefined ? { hardware: v3Attribute(doc.hardware) } : {}),
    ...(doc.whois !== undefined ? { whois } : {}),
    services,
    service_count: services.length,
  };
}
