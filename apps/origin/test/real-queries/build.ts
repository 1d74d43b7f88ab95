import { sha1 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { rfc3339Nanos } from "../../src/dataset/clock";
import type { PlantedHost } from "../support/plant";

/**
 * Builders of planted host documents (v2, as the API serves them), so each planted host reads
 * as what it is: a Cobalt Strike team server, a gas station's tank gauge, an SD-WAN console.
 * Computable fields are computed (body hashes, Content-Length, banners) unless a host must carry
 * the value a published query names.
 */

type Json = Record<string, unknown>;

/** An hour before the test runs: these hosts were scanned recently. */
const SCANNED = Date.now() - 3_600_000;
const observed = (): string => rfc3339Nanos(SCANNED, 0);

export interface Place {
  country?: string;
  country_code?: string;
  city?: string;
  province?: string;
  asn?: number;
  as_name?: string;
  as_description?: string;
  prefix?: string;
}

export function host(
  ip: string,
  services: Json[],
  place: Place = {},
  extra: Json = {},
): PlantedHost["document"] {
  return {
    ip,
    services,
    location: {
      continent: "North America",
      country: place.country ?? "United States",
      country_code: place.country_code ?? "US",
      city: place.city ?? "New York City",
      province: place.province ?? "New York",
      postal_code: "10013",
      timezone: "America/New_York",
      coordinates: { latitude: 40.7128, longitude: -74.006 },
      registered_country: place.country ?? "United States",
      registered_country_code: place.country_code ?? "US",
    },
    location_updated_at: rfc3339Nanos(SCANNED - 86_400_000, 0),
    autonomous_system: {
      asn: place.asn ?? 14061,
      description: place.as_description ?? "DigitalOcean, LLC",
      bgp_prefix: place.prefix ?? `${ip.split(".").slice(0, 3).join(".")}.0/24`,
      name: place.as_name ?? "DIGITALOCEAN-ASN",
      country_code: place.country_code ?? "US",
    },
    autonomous_system_updated_at: rfc3339Nanos(SCANNED - 86_400_000, 0),
    last_updated_at: observed(),
    ...extra,
  };
}

export function software(vendor: string, product: string, version?: string, part = "a"): Json {
  const cpe = (s: string) => s.toLowerCase().replace(/[^a-z0-9._-]+/g, "_");
  return {
    uniform_resource_identifier: `cpe:2.3:${part}:${cpe(vendor)}:${cpe(product)}:${version ? cpe(version) : "*"}:*:*:*:*:*:*:*`,
    part,
    vendor,
    product,
    ...(version ? { version } : {}),
    source: "OSI_APPLICATION_LAYER",
  };
}

/** A service of any protocol: its name, port, banner and protocol block (under `decoded`). */
export function service(port: number, name: string, extra: Json = {}, decoded = name.toLowerCase()): Json {
  const banner = typeof extra.banner === "string" ? extra.banner : "";
  return {
    _decoded: decoded,
    _encoding: { banner: "DISPLAY_UTF8" },
    banner,
    extended_service_name: name,
    observed_at: observed(),
    perspective_id: "PERSPECTIVE_NTT",
    port,
    service_name: name,
    software: [],
    source_ip: "167.94.138.35",
    transport_protocol: "TCP",
    truncated: false,
    ...(banner ? { banner_hashes: [`sha256:${bytesToHex(sha256(utf8ToBytes(banner)))}`] } : {}),
    ...extra,
  };
}

export interface Certificate {
  subject?: Record<string, string[]>;
  issuer?: Record<string, string[]>;
  subject_dn?: string;
  issuer_dn?: string;
  names?: string[];
  bits?: number;
  fingerprint?: string;
  spki?: string;
  jarm?: string;
}

const dn = (fields: Record<string, string[]>): string => {
  const short: Record<string, string> = {
    country: "C",
    province: "ST",
    locality: "L",
    organization: "O",
    organizational_unit: "OU",
    common_name: "CN",
  };
  return Object.entries(fields)
    .flatMap(([key, values]) => values.map((value) => `${short[key] ?? key}=${value}`))
    .join(", ");
};

/** The `tls` block and presented certificate of a service (self-signed unless an issuer is given). */
function tls(cert: Certificate, port: number): Json {
  const subject = cert.subject ?? { common_name: ["localhost"] };
  const issuer = cert.issuer ?? subject;
  const fingerprint =
    cert.fingerprint ?? bytesToHex(sha256(utf8ToBytes(`${JSON.stringify(subject)}|${port}`)));
  const out: Json = {
    certificate: fingerprint,
    tls: {
      version_selected: "TLSv1_2",
      cipher_selected: "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
      certificates: {
        leaf_fp_sha_256: fingerprint,
        chain_fps_sha_256: [],
        leaf_data: {
          pubkey_algorithm: "RSA",
          pubkey_bit_size: cert.bits ?? 2048,
          subject_dn: cert.subject_dn ?? dn(subject),
          issuer_dn: cert.issuer_dn ?? dn(issuer),
          subject,
          issuer,
          names: cert.names ?? subject.common_name ?? [],
          tbs_fingerprint: bytesToHex(sha256(utf8ToBytes(`tbs|${fingerprint}`))),
          public_key: {
            fingerprint_sha256: cert.spki ?? bytesToHex(sha256(utf8ToBytes(`spki|${fingerprint}`))),
          },
          signature: { self_signed: cert.issuer === undefined },
        },
      },
    },
  };
  if (cert.jarm) {
    out.jarm = {
      fingerprint: cert.jarm,
      cipher_and_version_fingerprint: cert.jarm.slice(0, 30),
      tls_extensions_sha256: cert.jarm.slice(30),
      observed_at: observed(),
    };
  }
  return out;
}

export interface Web {
  title?: string;
  server?: string;
  body?: string;
  status?: number;
  headers?: Record<string, string>;
  /** The request's path (default `/`). */
  path?: string;
  /** Body hashes a published query names (instead of the body's own). */
  sha1?: string;
  sha256?: string;
  software?: Json[];
  tls?: Certificate;
  protocol?: string;
  extra?: Json;
}

/** An HTTP service (HTTPS with `tls`): its response, computed headers and banner. */
export function http(ip: string, port: number, web: Web = {}): Json {
  const body =
    web.body ?? (web.title ? `<html><head><title>${web.title}</title></head><body></body></html>` : "");
  const bytes = utf8ToBytes(body);
  const status = web.status ?? 200;
  const reason = status === 200 ? "OK" : status === 401 ? "Unauthorized" : "Not Found";
  const headers: Record<string, string[]> = {
    ...(web.server ? { Server: [web.server] } : {}),
    "Content-Type": ["text/html"],
    "Content-Length": [String(bytes.length)],
  };
  for (const [name, value] of Object.entries(web.headers ?? {})) headers[name] = [value];
  const bodySha1 = web.sha1 ?? bytesToHex(sha1(bytes));
  const bodySha256 = web.sha256 ?? bytesToHex(sha256(bytes));
  const banner = [
    `${web.protocol ?? "HTTP/1.1"} ${status} ${reason}`,
    ...Object.entries(headers).map(([name, values]) => `${name}: ${values.join(", ")}`),
  ].join("\r\n");
  const scheme = web.tls ? "https" : "http";
  const response: Json = {
    protocol: web.protocol ?? "HTTP/1.1",
    status_code: status,
    status_reason: reason,
    headers,
    html_tags: web.title ? [`<title>${web.title}</title>`] : [],
    body_size: bytes.length,
    body,
    body_hash: `sha1:${bodySha1}`,
    body_hashes: [`sha1:${bodySha1}`, `sha256:${bodySha256}`],
    ...(web.title ? { html_title: web.title } : {}),
  };
  return service(port, "HTTP", {
    banner,
    extended_service_name: web.tls ? "HTTPS" : "HTTP",
    http: {
      request: { method: "GET", uri: `${scheme}://${ip}:${port}${web.path ?? "/"}`, headers: {} },
      response,
      supports_http2: false,
    },
    software: web.software ?? [],
    ...(web.tls ? tls(web.tls, port) : {}),
    ...web.extra,
  });
}

/** A TLS listener that speaks no HTTP (a RAT, a remote-management agent): an UNKNOWN service. */
export function tlsListener(port: number, cert: Certificate, extra: Json = {}): Json {
  const banner = typeof extra.banner === "string" ? extra.banner : "";
  return service(
    port,
    "UNKNOWN",
    { banner_grab: { banner, transport: "TCP" }, ...tls(cert, port), ...extra },
    "banner_grab",
  );
}

export const threat = (name: string, type = "C2_SERVER"): Json => ({
  id: name.toLowerCase().replace(/\s+/g, "-"),
  name,
  type: [type],
  tactic: ["command_and_control"],
  source: "censys",
  confidence: 0.95,
  malware: { id: name.toLowerCase().replace(/\s+/g, "-"), primary_name: name, all_names: [name] },
});
