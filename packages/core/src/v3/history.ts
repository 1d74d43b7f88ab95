import { z } from "zod";
import { rfc3339Schema } from "../formats";
import { v3Asset } from "./envelope";
import { v3FieldDiffSchema } from "./host";
import { v3ListQuerySchema, v3PagingQuerySchema, v3PortQuerySchema, v3TimeQuerySchema } from "./queries";

/**
 * What the Platform derives from its history of observations: DNS resolutions (by IP and by
 * name, per range or aggregated per record), the service history of a host, the hosts a
 * certificate was observed on, and a web property's timeline. Following the SDK's
 * `DnsIpResolution*`, `DnsNameResolution*`, `DnsResolution*Record`, `ServicesOnHostResponse`,
 * `HostObservationResponse` and `WebpropertyTimeline` models.
 */

/** The time window every history list takes (RFC 3339; both optional). */
const windowQuery = {
  start_time: v3TimeQuerySchema.optional(),
  end_time: v3TimeQuerySchema.optional(),
};

export const V3_DNS_IP_RECORD_TYPES = ["A", "AAAA"] as const;
export const V3_DNS_NAME_RECORD_TYPES = ["A", "AAAA", "MX", "NS", "SOA", "TXT"] as const;
export type V3DnsRecordType = (typeof V3_DNS_NAME_RECORD_TYPES)[number];

/** Query of the by-IP DNS lists; the ranges list also takes `domain`. */
export const v3DnsIpQuerySchema = v3PagingQuerySchema.extend({
  ...windowQuery,
  record_types: v3ListQuerySchema(V3_DNS_IP_RECORD_TYPES).optional(),
  domain: z.string().max(253).optional(),
});
export type V3DnsIpQuery = z.infer<typeof v3DnsIpQuerySchema>;

/** Query of the by-name DNS lists. */
export const v3DnsNameQuerySchema = v3PagingQuerySchema.extend({
  ...windowQuery,
  record_types: v3ListQuerySchema(V3_DNS_NAME_RECORD_TYPES).optional(),
});
export type V3DnsNameQuery = z.infer<typeof v3DnsNameQuerySchema>;

/** SDK `DnsIpResolutionRecord` and `DnsIpResolutionRangeRecord` (the same members). */
export const v3DnsIpRecordSchema = z
  .object({
    domain: z.string(),
    record_type: z.string(),
    first_seen: rfc3339Schema,
    last_seen: rfc3339Schema,
  })
  .loose();
export type V3DnsIpRecord = z.infer<typeof v3DnsIpRecordSchema>;

/** SDK `DnsIpResolutionBoundResponse` and `DnsIpResolutionRangeResponse`. */
export const v3DnsIpResolutionsSchema = z
  .object({
    ip: z.string(),
    records: z.array(v3DnsIpRecordSchema).nullable(),
    total_records: z.number().int(),
    next_page_token: z.string(),
  })
  .loose();

/** The members of a name's record beside its time: the address of an A or AAAA record. */
const nameRecord = {
  record_type: z.string(),
  ip: z.string().optional(),
  mail_server: z.string().optional(),
  priority: z.number().int().optional(),
  name_server: z.string().optional(),
  mname: z.string().optional(),
  rname: z.string().optional(),
  value: z.string().optional(),
};

/** SDK `DnsResolutionRecord` (bounds: `first_seen`/`last_seen`). */
export const v3DnsNameBoundRecordSchema = z
  .object({ ...nameRecord, first_seen: rfc3339Schema, last_seen: rfc3339Schema })
  .loose();

/** SDK `DnsResolutionRangeRecord` (ranges: `first_observed`/`last_observed`). */
export const v3DnsNameRangeRecordSchema = z
  .object({ ...nameRecord, first_observed: rfc3339Schema, last_observed: rfc3339Schema })
  .loose();

/** SDK `DnsNameResolutionBoundResponse`. */
export const v3DnsNameBoundsSchema = z
  .object({
    name: z.string(),
    records: z.array(v3DnsNameBoundRecordSchema).nullable(),
    total_records: z.number().int(),
    next_page_token: z.string(),
  })
  .loose();

/** SDK `DnsNameResolutionRangeResponse`. */
export const v3DnsNameRangesSchema = z
  .object({
    name: z.string(),
    records: z.array(v3DnsNameRangeRecordSchema).nullable(),
    total_records: z.number().int(),
    next_page_token: z.string(),
  })
  .loose();

export const V3_SERVICE_ORDERS = [
  "port ASC",
  "port DESC",
  "protocol ASC",
  "protocol DESC",
  "transport_protocol ASC",
  "transport_protocol DESC",
] as const;
export type V3ServiceOrder = (typeof V3_SERVICE_ORDERS)[number];

/** Query of a host's service history (SDK `V3GlobaldataServiceOnHostRequest`). */
export const v3HostServicesQuerySchema = v3PagingQuerySchema.extend({
  ...windowQuery,
  port: v3PortQuerySchema.optional(),
  protocol: z.string().max(64).optional(),
  transport_protocol: z.enum(["tcp", "udp", "quic"]).optional(),
  order_by: v3ListQuerySchema(V3_SERVICE_ORDERS).optional(),
});
export type V3HostServicesQuery = z.infer<typeof v3HostServicesQuerySchema>;

/** SDK `ServiceOnHostRange`: the port is a string there. */
export const v3ServiceRangeSchema = z
  .object({
    ip: z.string(),
    port: z.string(),
    protocol: z.string(),
    transport_protocol: z.string(),
    start_time: rfc3339Schema,
    end_time: rfc3339Schema,
  })
  .loose();
export type V3ServiceRange = z.infer<typeof v3ServiceRangeSchema>;

/** SDK `ServicesOnHostResponse`. */
export const v3HostServicesSchema = z
  .object({ ranges: z.array(v3ServiceRangeSchema).nullable(), next_page_token: z.string() })
  .loose();

/** Query of a certificate's host observations (SDK `V3ThreathuntingGetHostObservationsWithCertificateRequest`). */
export const v3CertificateObservationsQuerySchema = v3PagingQuerySchema.extend({
  ...windowQuery,
  port: v3PortQuerySchema.optional(),
  /** The transport protocol (`tcp`), as the SDK documents it. */
  protocol: z.string().max(64).optional(),
});
export type V3CertificateObservationsQuery = z.infer<typeof v3CertificateObservationsQuerySchema>;

/** SDK `HostObservationRange`. */
export const v3HostObservationRangeSchema = z
  .object({
    ip: z.string(),
    port: z.number().int(),
    protocols: z.array(z.string()).nullable(),
    transport_protocol: z.string(),
    start_time: rfc3339Schema,
    end_time: rfc3339Schema,
  })
  .loose();
export type V3HostObservationRange = z.infer<typeof v3HostObservationRangeSchema>;

/** SDK `HostObservationResponse`. */
export const v3HostObservationsSchema = z
  .object({
    ranges: z.array(v3HostObservationRangeSchema).nullable(),
    total_results: z.number().int(),
    next_page_token: z.string().optional(),
  })
  .loose();

/** Query of a web property's timeline: `start_time` is the later bound, as for a host's. */
export const v3WebpropertyTimelineQuerySchema = z.object({
  start_time: rfc3339Schema,
  end_time: rfc3339Schema,
});

/** SDK `WebTimelineEvent`: an endpoint scan (`endpoint_scanned`) with the fields it changed. */
export const v3WebTimelineEventSchema = z
  .object({
    event_time: z.string().optional(),
    endpoint_scanned: z
      .object({
        scan: z.record(z.string(), z.unknown()).optional(),
        diff: z.record(z.string(), v3FieldDiffSchema).optional(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type V3WebTimelineEvent = z.infer<typeof v3WebTimelineEventSchema>;

/** SDK `WebpropertyTimeline`. */
export const v3WebpropertyTimelineSchema = z
  .object({ events: z.array(v3Asset(v3WebTimelineEventSchema)).nullable(), scanned_to: rfc3339Schema })
  .loose();
