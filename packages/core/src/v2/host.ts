import { z } from "zod";
import { rfc3339Schema } from "../formats";
import { ipAddressSchema, sha256FingerprintSchema } from "../indexes";

// The v2 host document (GET /api/v2/hosts/{ip}) and its services. Documents are open: objects
// are loose so fields the spec does not show pass through.

/** Marker that stands in for a hidden HTTP header value (inside the value array). */
export const HTTP_HEADER_REDACTED = "<REDACTED>";

const port = z.number().int().min(0).max(65535);
const encodingMap = z.record(z.string(), z.string());
/** Header name to values; every value is an array of strings. */
export const httpHeadersSchema = z.record(z.string(), z.array(z.string()));

export const autonomousSystemSchema = z.looseObject({
  asn: z.number().int().min(0),
  bgp_prefix: z.string(),
  country_code: z.string(),
  name: z.string(),
  description: z.string(),
});
export type AutonomousSystem = z.infer<typeof autonomousSystemSchema>;

export const hostLocationSchema = z.looseObject({
  continent: z.string(),
  country: z.string(),
  country_code: z.string(),
  postal_code: z.string(),
  registered_country: z.string(),
  registered_country_code: z.string(),
  timezone: z.string(),
  coordinates: z.looseObject({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
  }),
  city: z.string().optional(),
  province: z.string().optional(),
});
export type HostLocation = z.infer<typeof hostLocationSchema>;

export const softwareSchema = z.looseObject({
  uniform_resource_identifier: z.string().optional(),
  part: z.string().optional(),
  vendor: z.string().optional(),
  product: z.string().optional(),
  version: z.string().optional(),
  source: z.string().optional(),
});
export type Software = z.infer<typeof softwareSchema>;

export const dnsServiceSchema = z.looseObject({ server_type: z.string() });
export type DnsService = z.infer<typeof dnsServiceSchema>;

export const httpServiceSchema = z.looseObject({
  request: z.looseObject({
    method: z.string(),
    uri: z.string(),
    headers: httpHeadersSchema,
    _encoding: encodingMap.optional(),
  }),
  response: z.looseObject({
    protocol: z.string(),
    status_code: z.number().int().min(100).max(999),
    status_reason: z.string(),
    body: z.string(),
    body_size: z.number().int().min(0),
    headers: httpHeadersSchema,
    html_tags: z.array(z.string()).optional(),
    html_title: z.string().optional(),
    _encoding: encodingMap.optional(),
  }),
  body_hash: z.string().optional(),
  _encoding: encodingMap.optional(),
});
export type HttpService = z.infer<typeof httpServiceSchema>;

export const tlsServiceSchema = z.looseObject({
  version_selected: z.string(),
  cipher_selected: z.string(),
  certificates: z.looseObject({
    leaf_fp_sha_256: sha256FingerprintSchema,
    chain_fps_sha_256: z.array(sha256FingerprintSchema).optional(),
    leaf_data: z.looseObject({
      pubkey_algorithm: z.string(),
      pubkey_bit_size: z.number().int().min(0),
      subject_dn: z.string(),
      issuer_dn: z.string(),
      names: z.array(z.string()),
      tbs_fingerprint: sha256FingerprintSchema,
    }),
  }),
  _encoding: encodingMap.optional(),
});
export type TlsService = z.infer<typeof tlsServiceSchema>;

export const hostServiceSchema = z.looseObject({
  port,
  /** e.g. TCP, UDP. */
  transport_protocol: z.string().min(1),
  service_name: z.string().min(1),
  extended_service_name: z.string().min(1),
  /** Name of the decoded protocol sub-object (`http`, `tls`, `dns`, ...). */
  _decoded: z.string(),
  truncated: z.boolean(),
  source_ip: ipAddressSchema,
  perspective_id: z.string(),
  /** Up to nanosecond precision. */
  observed_at: rfc3339Schema,
  software: z.array(softwareSchema),
  banner: z.string(),
  /** SHA-256 fingerprint of the leaf certificate. */
  certificate: sha256FingerprintSchema.optional(),
  /** Field name to display encoding (DISPLAY_UTF8, DISPLAY_HEX, ...). */
  _encoding: encodingMap,
  dns: dnsServiceSchema.optional(),
  http: httpServiceSchema.optional(),
  tls: tlsServiceSchema.optional(),
  /** What the service was found to be (`remote-access`, `login-page`, `c2`, ...). */
  labels: z.array(z.string()).optional(),
  /** `sha256:<hex>` of the banner. */
  banner_hashes: z.array(z.string()).optional(),
  jarm: z
    .looseObject({
      fingerprint: z.string(),
      cipher_and_version_fingerprint: z.string(),
      tls_extensions_sha256: z.string(),
      observed_at: rfc3339Schema,
    })
    .optional(),
  /** The Platform's findings, in its shapes (core v3 `Threat`, `Vuln`, `Risk`). */
  threats: z.array(z.looseObject({ name: z.string() })).optional(),
  vulns: z.array(z.looseObject({ id: z.string() })).optional(),
  exposures: z.array(z.looseObject({ id: z.string() })).optional(),
  misconfigs: z.array(z.looseObject({ id: z.string() })).optional(),
  operating_systems: z.array(softwareSchema).optional(),
  hardware: z.array(softwareSchema).optional(),
});
export type HostService = z.infer<typeof hostServiceSchema>;

export const hostDocumentSchema = z.looseObject({
  ip: ipAddressSchema,
  last_updated_at: rfc3339Schema,
  autonomous_system_updated_at: rfc3339Schema.optional(),
  autonomous_system: autonomousSystemSchema.optional(),
  location_updated_at: rfc3339Schema.optional(),
  location: hostLocationSchema.optional(),
  services: z.array(hostServiceSchema),
  /** The names resolving to the host, and its reverse DNS name. */
  dns: z
    .looseObject({
      names: z.array(z.string()).optional(),
      reverse_dns: z.looseObject({ names: z.array(z.string()), resolved_at: rfc3339Schema }).optional(),
    })
    .optional(),
  labels: z.array(z.string()).optional(),
  operating_system: softwareSchema.optional(),
  hardware: softwareSchema.optional(),
  /** The registry's organization and network records of the address. */
  whois: z
    .looseObject({
      organization: z.looseObject({ handle: z.string(), name: z.string() }),
      network: z.looseObject({ handle: z.string(), name: z.string(), cidrs: z.array(z.string()) }),
    })
    .optional(),
});
export type HostDocument = z.infer<typeof hostDocumentSchema>;
