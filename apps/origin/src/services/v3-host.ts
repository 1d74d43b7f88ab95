import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { V3Attribute, V3EndpointScanState, V3Host, V3Http, V3Service } from "@scangate/core";
import { v3Certificate } from "./v3-certificate";

/**
 * The Platform (v3) face of a host: projected from the v2 host document the dataset stores
 * (current or historical), so v2 and v3 answer from one record. Services become the Platform's
 * `Service` (`protocol`, lowercase `transport_protocol`, `scan_time`, `software` as CPE
 * attributes, HTTP as an endpoint), their certificate the Platform's `Certificate`; a
 * protocol's own block passes through under its name where the two shapes agree.
 */

type Json = Record<string, unknown>;

const obj = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * Protocol blocks whose v2 shape is the Platform's own (`Ssh`, `Dns`, `Ftp`, `Mysql`, `Smtp`,
 * `Redis`, `Postgres` in the SDK), passed through under their name. Others differ in shape
 * (v2 telnet options are lists where the Platform keeps maps, v2 RDP names its protocol where
 * the Platform nests it) and are left out rather than sent in a shape the SDKs refuse.
 */
const SHARED_PROTOCOL_BLOCKS = new Set(["ssh", "dns", "ftp", "mysql", "smtp", "redis", "postgres"]);

/** v2 `software` entries (CPE in `uniform_resource_identifier`) as the Platform's `Attribute`. */
export function v3Software(software: unknown): V3Attribute[] {
  return list(software).map((entry) => {
    const s = obj(entry);
    return {
      cpe: str(s.uniform_resource_identifier),
      part: str(s.part),
      vendor: str(s.vendor),
      product: str(s.product),
      version: str(s.version),
      source: str(s.source),
    };
  });
}

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
  const bodyHash = str(h.body_hash);
  const body = str(response.body);
  return {
    uri: str(request.uri),
    protocol: str(response.protocol),
    status_code: num(response.status_code),
    status_reason: str(response.status_reason),
    headers,
    html_tags: list(response.html_tags).map(String),
    html_title: str(response.html_title),
    body,
    body_size: num(response.body_size),
    body_hash_sha1: bodyHash?.startsWith("sha1:") ? bodyHash.slice(5) : undefined,
    // The Platform's hash of the body; the v2 document keeps only its SHA-1.
    body_hash_sha256: body === undefined ? undefined : bytesToHex(sha256(new TextEncoder().encode(body))),
    supported_versions: h.supports_http2 === true ? ["HTTP/1.1", "HTTP/2"] : ["HTTP/1.1"],
  };
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
  };
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
  if (service.http !== undefined) result.endpoints = [v3HttpEndpoint(service, ip)];
  for (const block of SHARED_PROTOCOL_BLOCKS) {
    if (service[block] !== undefined) result[block] = service[block];
  }
  return result;
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
  return {
    ip,
    autonomous_system: {
      asn: num(as.asn),
      bgp_prefix: str(as.bgp_prefix),
      country_code: str(as.country_code),
      description: str(as.description),
      name: str(as.name),
    },
    location: { ...location },
    services,
    service_count: services.length,
  };
}
