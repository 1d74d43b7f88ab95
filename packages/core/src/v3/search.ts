import { z } from "zod";
import { v3CertificateAssetSchema } from "./certificate";
import { v3HostAssetWithMatchedServicesSchema } from "./host";
import { V3_AGGREGATE_BUCKETS_MAX, V3_CONVERT_QUERIES_MAX, V3_PAGE_SIZE_MAX } from "./limits";
import { v3WebpropertyAssetSchema } from "./webproperty";

/**
 * Global search of the Platform API (v3): query, aggregate and convert, request and response,
 * following the SDK's `Search*` models. CenQL itself is packages/search's.
 */

/** SDK `SearchQueryInputBody`. */
export const v3SearchQueryInputSchema = z
  .object({
    query: z.string().min(1),
    fields: z.array(z.string()).optional(),
    page_size: z.number().int().min(1).max(V3_PAGE_SIZE_MAX).optional(),
    page_token: z.string().optional(),
  })
  .loose();
export type V3SearchQueryInput = z.infer<typeof v3SearchQueryInputSchema>;

/** SDK `SearchQueryTagInfo`. */
export const v3SearchQueryTagSchema = z
  .object({ display_name: z.string(), id: z.string().optional() })
  .loose();

/** SDK `SearchQueryHit`: one resource, under the key of its kind. */
export const v3SearchQueryHitSchema = z
  .object({
    host_v1: v3HostAssetWithMatchedServicesSchema.optional(),
    certificate_v1: v3CertificateAssetSchema.optional(),
    webproperty_v1: v3WebpropertyAssetSchema.optional(),
    tags: z.array(v3SearchQueryTagSchema).optional(),
  })
  .loose();
export type V3SearchQueryHit = z.infer<typeof v3SearchQueryHitSchema>;

/** SDK `SearchQueryResponse`: `next_page_token` is `""` on the last page. */
export const v3SearchQueryResponseSchema = z
  .object({
    hits: z.array(v3SearchQueryHitSchema),
    next_page_token: z.string(),
    previous_page_token: z.string(),
    query_duration_millis: z.number().int(),
    total_hits: z.number(),
  })
  .loose();
export type V3SearchQueryResponse = z.infer<typeof v3SearchQueryResponseSchema>;

/** SDK `SearchAggregateInputBody`. `count_by_level` names the document level counted per bucket. */
export const v3SearchAggregateInputSchema = z
  .object({
    query: z.string(),
    field: z.string().min(1),
    number_of_buckets: z.number().int().min(1).max(V3_AGGREGATE_BUCKETS_MAX),
    count_by_level: z.string().optional(),
    filter_by_query: z.boolean().optional(),
  })
  .loose();
export type V3SearchAggregateInput = z.infer<typeof v3SearchAggregateInputSchema>;

/** SDK `SearchAggregateResponseBucket`: keys are strings. */
export const v3SearchAggregateBucketSchema = z.object({ key: z.string(), count: z.number().int() }).loose();

/** SDK `SearchAggregateResponse`. */
export const v3SearchAggregateResponseSchema = z
  .object({
    buckets: z.array(v3SearchAggregateBucketSchema),
    total_count: z.number().int(),
    other_count: z.number().int(),
    is_more_than_total_hits: z.boolean(),
    query_duration_millis: z.number().int(),
  })
  .loose();
export type V3SearchAggregateResponse = z.infer<typeof v3SearchAggregateResponseSchema>;

/** SDK `SearchConvertQueryInputBody`: legacy (v1/v2) queries, at most 100. */
export const v3SearchConvertInputSchema = z
  .object({ queries: z.array(z.string()).min(1).max(V3_CONVERT_QUERIES_MAX) })
  .loose();
export type V3SearchConvertInput = z.infer<typeof v3SearchConvertInputSchema>;

/** The record kinds a converted query targets (SDK `SearchConvertQueryResponseTargets`, an open enum). */
export const v3SearchTargetSchema = z.string();

/** SDK `ConvertQueryError`. */
export const v3ConvertQueryErrorSchema = z.object({ message: z.string() }).loose();

/** SDK `AlternativeQuery`. */
export const v3AlternativeQuerySchema = z
  .object({ query: z.string(), targets: z.array(v3SearchTargetSchema) })
  .loose();

/** SDK `SearchConvertQueryResponse`: one per input query, in order; errors per query. */
export const v3SearchConvertResultSchema = z
  .object({
    original_query: z.string(),
    converted_query: z.string().optional(),
    targets: z.array(v3SearchTargetSchema),
    errors: z.array(v3ConvertQueryErrorSchema),
    comments: z.array(z.string()).optional(),
    alternative_queries: z.array(v3AlternativeQuerySchema).optional(),
  })
  .loose();
export type V3SearchConvertResult = z.infer<typeof v3SearchConvertResultSchema>;
export const v3SearchConvertResponseSchema = z.array(v3SearchConvertResultSchema);
