import { z } from "zod";
import { v3Asset } from "./envelope";
import { v3HostDnsSchema, v3LocationSchema, v3RoutingSchema } from "./host";

/**
 * Host enrichment (SDK `HostEnrichment`): the host's place, names and labels, and per service
 * only what a SOC enriches an alert with (port, protocol, when it was scanned, labels, threats).
 */

/** SDK `HostEnrichmentService`. */
export const v3HostEnrichmentServiceSchema = z
  .object({
    port: z.number().int().optional(),
    protocol: z.string().optional(),
    scan_time: z.string().optional(),
    labels: z.array(z.looseObject({ value: z.string().optional() })).optional(),
    threats: z.array(z.looseObject({})).optional(),
  })
  .loose();

/** SDK `HostEnrichment`. */
export const v3HostEnrichmentSchema = z
  .object({
    ip: z.string().optional(),
    autonomous_system: v3RoutingSchema.optional(),
    location: v3LocationSchema.optional(),
    dns: v3HostDnsSchema.optional(),
    labels: z.array(z.looseObject({ value: z.string().optional() })).optional(),
    service_count: z.number().int().optional(),
    services: z.array(v3HostEnrichmentServiceSchema).optional(),
  })
  .loose();
export type V3HostEnrichment = z.infer<typeof v3HostEnrichmentSchema>;

/** SDK `HostEnrichmentAsset`. */
export const v3HostEnrichmentAssetSchema = v3Asset(v3HostEnrichmentSchema);
