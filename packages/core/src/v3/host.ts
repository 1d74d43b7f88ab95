import { z } from "zod";
import { rfc3339Schema } from "../formats";
import { v3Asset } from "./envelope";

/**
 * Hosts of the Platform API (v3). Each schema names the SDK model it follows
 * (censys-sdk-typescript `src/models/components`); wire names are snake_case. The Platform's
 * documents carry far more than we model, so every object is open (never stripped).
 */

/** SDK `Coordinates`. */
export const v3CoordinatesSchema = z
  .object({ latitude: z.number().optional(), longitude: z.number().optional() })
  .loose();

/** SDK `Location`. */
export const v3LocationSchema = z
  .object({
    city: z.string().optional(),
    continent: z.string().optional(),
    coordinates: v3CoordinatesSchema.optional(),
    country: z.string().optional(),
    country_code: z.string().optional(),
    postal_code: z.string().optional(),
    province: z.string().optional(),
    registered_country: z.string().optional(),
    registered_country_code: z.string().optional(),
    timezone: z.string().optional(),
  })
  .loose();
export type V3Location = z.infer<typeof v3LocationSchema>;

/** SDK `Routing` (a host's `autonomous_system`) and `AutonomousSystem` (timeline `route`). */
export const v3RoutingSchema = z
  .object({
    asn: z.number().int().optional(),
    bgp_prefix: z.string().optional(),
    country_code: z.string().optional(),
    description: z.string().optional(),
    name: z.string().optional(),
    organization: z.string().optional(),
  })
  .loose();
export type V3Routing = z.infer<typeof v3RoutingSchema>;

/** SDK `Attribute`: software, hardware and operating systems as CPE parts. */
export const v3AttributeSchema = z
  .object({
    cpe: z.string().optional(),
    part: z.string().optional(),
    vendor: z.string().optional(),
    product: z.string().optional(),
    version: z.string().optional(),
    edition: z.string().optional(),
    update: z.string().optional(),
    type: z.array(z.string()).optional(),
    source: z.string().optional(),
    confidence: z.number().optional(),
  })
  .loose();
export type V3Attribute = z.infer<typeof v3AttributeSchema>;

/** SDK `HttpRepeatedHeaders`: one header's values. */
export const v3HttpRepeatedHeadersSchema = z.object({ headers: z.array(z.string()).optional() }).loose();

/** SDK `Http`: an HTTP response as the scan saw it. */
export const v3HttpSchema = z
  .object({
    body: z.string().optional(),
    body_hash_sha1: z.string().optional(),
    body_hash_sha256: z.string().optional(),
    body_size: z.number().int().optional(),
    headers: z.record(z.string(), v3HttpRepeatedHeadersSchema).optional(),
    html_tags: z.array(z.string()).optional(),
    html_title: z.string().optional(),
    protocol: z.string().optional(),
    status_code: z.number().int().optional(),
    status_reason: z.string().optional(),
    supported_versions: z.array(z.string()).optional(),
    uri: z.string().optional(),
  })
  .loose();
export type V3Http = z.infer<typeof v3HttpSchema>;

/** SDK `EndpointScanState`: one endpoint (path) of a service or web property. */
export const v3EndpointScanStateSchema = z
  .object({
    banner: z.string().optional(),
    endpoint_type: z.string().optional(),
    hostname: z.string().optional(),
    http: v3HttpSchema.optional(),
    ip: z.string().optional(),
    path: z.string().optional(),
    port: z.number().int().optional(),
    scan_time: z.string().optional(),
    transport_protocol: z.string().optional(),
  })
  .loose();
export type V3EndpointScanState = z.infer<typeof v3EndpointScanStateSchema>;

/** SDK `Tls` (the subset we model: version, cipher, presented certificate fingerprints). */
export const v3TlsSchema = z
  .object({
    version_selected: z.string().optional(),
    cipher_selected: z.string().optional(),
    presented_chain: z.array(z.looseObject({ fingerprint_sha256: z.string().optional() })).optional(),
  })
  .loose();

/** SDK `Label`: a finding about a host, service or web property (`REMOTE_ACCESS`, `C2`, ...). */
export const v3LabelSchema = z
  .object({
    value: z.string().optional(),
    source: z.string().optional(),
    confidence: z.number().optional(),
  })
  .loose();

/** SDK `Evidence`: where a label, threat or risk was seen. */
const v3EvidenceSchema = z
  .object({ data_path: z.string().optional(), found_value: z.string().optional() })
  .loose();

/** SDK `Threat`: malware or a framework a service is found running. */
export const v3ThreatSchema = z
  .object({
    id: z.string().optional(),
    name: z.string().optional(),
    type: z.array(z.string()).optional(),
    tactic: z.array(z.string()).optional(),
    source: z.string().optional(),
    confidence: z.number().optional(),
    malware: z
      .looseObject({ primary_name: z.string().optional(), all_names: z.array(z.string()).optional() })
      .optional(),
    actors: z.array(z.looseObject({ primary_name: z.string().optional() })).optional(),
    evidence: z.array(v3EvidenceSchema).optional(),
  })
  .loose();

/** SDK `Cvss`. */
const v3CvssSchema = z.object({ score: z.number().optional(), vector: z.string().optional() }).loose();

/** SDK `Vuln` and `Risk` (vulnerabilities, exposures, misconfigurations). */
export const v3RiskSchema = z
  .object({
    id: z.string().optional(),
    name: z.string().optional(),
    severity: z.string().optional(),
    type: z.array(z.string()).optional(),
    source: z.string().optional(),
    year: z.number().int().optional(),
    metrics: z
      .looseObject({ cvss_v30: v3CvssSchema.optional(), cvss_v31: v3CvssSchema.optional() })
      .optional(),
    kev: z.array(z.looseObject({ date_added: z.string().optional() })).optional(),
    evidence: z.array(v3EvidenceSchema).optional(),
  })
  .loose();

/** SDK `JarmScan`. */
export const v3JarmScanSchema = z
  .object({
    fingerprint: z.string().optional(),
    cipher_and_version_fingerprint: z.string().optional(),
    tls_extensions_sha256: z.string().optional(),
    scan_time: z.string().optional(),
    is_success: z.boolean().optional(),
  })
  .loose();

/** SDK `Service`: one service of a host. `cert` is a `Certificate` (certificate.ts), kept open here. */
export const v3ServiceSchema = z
  .object({
    banner: z.string().optional(),
    banner_hash_sha256: z.string().optional(),
    cert: z.looseObject({}).optional(),
    endpoints: z.array(v3EndpointScanStateSchema).optional(),
    hardware: z.array(v3AttributeSchema).optional(),
    ip: z.string().optional(),
    operating_systems: z.array(v3AttributeSchema).optional(),
    port: z.number().int().optional(),
    protocol: z.string().optional(),
    scan_time: z.string().optional(),
    software: z.array(v3AttributeSchema).optional(),
    tls: v3TlsSchema.optional(),
    transport_protocol: z.string().optional(),
    labels: z.array(v3LabelSchema).optional(),
    jarm: v3JarmScanSchema.optional(),
    threats: z.array(v3ThreatSchema).optional(),
    vulns: z.array(v3RiskSchema).optional(),
    exposures: z.array(v3RiskSchema).optional(),
    misconfigs: z.array(v3RiskSchema).optional(),
  })
  .loose();
export type V3Service = z.infer<typeof v3ServiceSchema>;

/** SDK `HostDns`. */
export const v3HostDnsSchema = z
  .object({
    names: z.array(z.string()).optional(),
    forward_dns: z
      .record(
        z.string(),
        z.looseObject({
          name: z.string().optional(),
          record_type: z.string().optional(),
          resolve_time: z.string().optional(),
        }),
      )
      .optional(),
    reverse_dns: z
      .looseObject({ names: z.array(z.string()).optional(), resolve_time: z.string().optional() })
      .optional(),
  })
  .loose();

/** SDK `Whois`: the registry's organization and network records of the address. */
export const v3WhoisSchema = z
  .object({
    organization: z
      .looseObject({
        handle: z.string().optional(),
        name: z.string().optional(),
        country: z.string().optional(),
      })
      .optional(),
    network: z
      .looseObject({
        handle: z.string().optional(),
        name: z.string().optional(),
        cidrs: z.array(z.string()).optional(),
      })
      .optional(),
  })
  .loose();

/** SDK `Host`. */
export const v3HostSchema = z
  .object({
    ip: z.string().optional(),
    autonomous_system: v3RoutingSchema.optional(),
    dns: v3HostDnsSchema.optional(),
    location: v3LocationSchema.optional(),
    operating_system: v3AttributeSchema.optional(),
    hardware: v3AttributeSchema.optional(),
    service_count: z.number().int().optional(),
    services: z.array(v3ServiceSchema).optional(),
    labels: z.array(v3LabelSchema).optional(),
    whois: v3WhoisSchema.optional(),
  })
  .loose();
export type V3Host = z.infer<typeof v3HostSchema>;

/** SDK `HostAsset`: the envelope's `result` of get host (and each entry of get hosts). */
export const v3HostAssetSchema = v3Asset(v3HostSchema);
export type V3HostAsset = z.infer<typeof v3HostAssetSchema>;

/** SDK `MatchedService`: a service of a search hit that the query matched. */
export const v3MatchedServiceSchema = z
  .object({
    port: z.number().int().optional(),
    protocol: z.string().optional(),
    transport_protocol: z.string().optional(),
  })
  .loose();

/** SDK `HostAssetWithMatchedServices`: a search hit's `host_v1`. */
export const v3HostAssetWithMatchedServicesSchema = v3HostAssetSchema.extend({
  matched_services: z.array(v3MatchedServiceSchema).optional(),
});

// ---- timeline -------------------------------------------------------------------------------

/** SDK `FieldDiff`: a changed field's old and new value, as text. */
export const v3FieldDiffSchema = z.object({ old: z.string().optional(), new: z.string().optional() }).loose();
const diffs = z.record(z.string(), v3FieldDiffSchema);

/**
 * SDK `HostTimelineEvent`: when, and exactly one of the event kinds we emit (`service_scanned`,
 * `location_updated`, `route_updated`); the Platform's others (`endpoint_scanned`,
 * `forward_dns_resolved`, ...) pass through.
 */
export const v3HostTimelineEventSchema = z
  .object({
    event_time: z.string().optional(),
    service_scanned: z
      .object({
        scan: v3ServiceSchema.extend({ is_success: z.boolean().optional() }).optional(),
        diff: diffs.optional(),
      })
      .loose()
      .optional(),
    location_updated: z.object({ location: v3LocationSchema.optional() }).loose().optional(),
    route_updated: z.object({ route: v3RoutingSchema.optional(), diff: diffs.optional() }).loose().optional(),
  })
  .loose();
export type V3HostTimelineEvent = z.infer<typeof v3HostTimelineEventSchema>;

/** SDK `HostTimeline`: events (newest first) and how far the history was scanned. */
export const v3HostTimelineSchema = z
  .object({
    events: z.array(v3Asset(v3HostTimelineEventSchema)),
    scanned_to: rfc3339Schema,
  })
  .loose();
export type V3HostTimeline = z.infer<typeof v3HostTimelineSchema>;
