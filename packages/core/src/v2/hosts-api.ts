import { z } from "zod";
import { rfc3339Schema } from "../formats";
import { ipAddressSchema } from "../indexes";
import {
  AGGREGATE_BUCKETS_DEFAULT,
  AGGREGATE_BUCKETS_MAX,
  AGGREGATE_BUCKETS_MIN,
  HOSTS_PER_PAGE_DEFAULT,
  HOSTS_PER_PAGE_MAX,
  HOSTS_PER_PAGE_MIN,
} from "../limits";
import { integerParam, stringListParamSchema } from "../params";
import { autonomousSystemSchema, hostLocationSchema } from "./host";

// Query parameters and result bodies (inside the v2 envelope) of
// GET /api/v2/hosts/aggregate, /api/v2/hosts/{ip}, /api/v2/hosts/search.

const count = z.number().int().min(0);

export const hostsAggregateQuerySchema = z.object({
  field: z.string().trim().min(1, "field is required"),
  q: z.string().optional(),
  num_buckets: integerParam(AGGREGATE_BUCKETS_MIN, AGGREGATE_BUCKETS_MAX).default(AGGREGATE_BUCKETS_DEFAULT),
});
export type HostsAggregateQuery = z.infer<typeof hostsAggregateQuerySchema>;
export type HostsAggregateQueryInput = z.input<typeof hostsAggregateQuerySchema>;

/** Bucket keys are always strings (a port bucket is "443"). */
export const aggregateBucketSchema = z.object({ key: z.string(), count });
export type AggregateBucket = z.infer<typeof aggregateBucketSchema>;

export const hostsAggregateResultSchema = z.object({
  query: z.string(),
  field: z.string(),
  total: count,
  total_omitted: count,
  potential_deviation: count,
  buckets: z.array(aggregateBucketSchema),
});
export type HostsAggregateResult = z.infer<typeof hostsAggregateResultSchema>;

export const hostViewParamsSchema = z.object({ ip: ipAddressSchema });
export type HostViewParams = z.infer<typeof hostViewParamsSchema>;

export const hostViewQuerySchema = z.object({ at_time: rfc3339Schema.optional() });
export type HostViewQuery = z.infer<typeof hostViewQuerySchema>;

export const hostsSearchQuerySchema = z.object({
  q: z.string().optional(),
  per_page: integerParam(HOSTS_PER_PAGE_MIN, HOSTS_PER_PAGE_MAX).default(HOSTS_PER_PAGE_DEFAULT),
  /** Opaque; other parameters must match the call that produced it. */
  cursor: z.string().optional(),
  /** May repeat or carry a comma list; parsed to a list of field names. */
  fields: stringListParamSchema.optional(),
});
export type HostsSearchQuery = z.infer<typeof hostsSearchQuerySchema>;
export type HostsSearchQueryInput = z.input<typeof hostsSearchQuerySchema>;

export const hostHitServiceSchema = z.looseObject({
  port: z.number().int().min(0).max(65535),
  service_name: z.string(),
  transport_protocol: z.string().optional(),
});
export type HostHitService = z.infer<typeof hostHitServiceSchema>;

export const hostHitSchema = z.looseObject({
  ip: ipAddressSchema,
  /** Absent when a `fields` projection leaves it out (a projected hit is `ip` and those fields). */
  services: z.array(hostHitServiceSchema).optional(),
  location: hostLocationSchema.partial().optional(),
  autonomous_system: autonomousSystemSchema.partial().optional(),
  last_updated_at: rfc3339Schema.optional(),
});
export type HostHit = z.infer<typeof hostHitSchema>;

export const hostsSearchResultSchema = z.object({
  query: z.string(),
  total: count,
  hits: z.array(hostHitSchema),
  /** Cursor tokens; "" at either end. */
  links: z.object({ prev: z.string(), next: z.string() }),
});
export type HostsSearchResult = z.infer<typeof hostsSearchResultSchema>;
