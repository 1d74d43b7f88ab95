import { z } from "zod";
import {
  FIELD_NAME_MAX_CHARS,
  REPORT_BUCKETS_DEFAULT,
  REPORT_BUCKETS_MAX,
  V1_SEARCH_FIELDS_MAX,
} from "../limits";

// Search and report: POST /api/v1/search/:index, POST /api/v1/report/:index.

const count = z.number().int().min(0);

export const searchBodySchema = z.object({
  query: z.string().trim().min(1, "query is required"),
  /** One-indexed; the first page when absent. */
  page: z.number().int().min(1).optional(),
  /** Fields to return, in dot notation. */
  fields: z
    .array(
      z
        .string()
        .min(1)
        .max(FIELD_NAME_MAX_CHARS, `a field name is at most ${FIELD_NAME_MAX_CHARS} characters`),
    )
    .max(V1_SEARCH_FIELDS_MAX, `at most ${V1_SEARCH_FIELDS_MAX} fields per search`)
    .optional(),
  flatten: z.boolean().default(true),
});
export type SearchBody = z.infer<typeof searchBodySchema>;
export type SearchBodyInput = z.input<typeof searchBodySchema>;

export const searchResponseSchema = z.object({
  status: z.literal("ok"),
  metadata: z.object({
    count,
    query: z.string(),
    backend_time: count,
    page: z.number().int().min(1),
    pages: count,
  }),
  /** Flattened (`location.country` keys) or nested, per the request's `flatten`. */
  results: z.array(z.record(z.string(), z.unknown())),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

export const reportBodySchema = z.object({
  query: z.string(),
  field: z.string().trim().min(1, "field is required"),
  buckets: z.number().int().min(1).max(REPORT_BUCKETS_MAX).default(REPORT_BUCKETS_DEFAULT),
});
export type ReportBody = z.infer<typeof reportBodySchema>;
export type ReportBodyInput = z.input<typeof reportBodySchema>;

export const reportBucketSchema = z.object({ key: z.string(), doc_count: count });
export type ReportBucket = z.infer<typeof reportBucketSchema>;

export const reportResponseSchema = z.object({
  status: z.literal("ok"),
  results: z.array(reportBucketSchema),
  metadata: z.object({
    count,
    backend_time: count,
    nonnull_count: count,
    other_result_count: count,
    /** Number of buckets returned. */
    buckets: count,
    error_bound: count,
    query: z.string(),
  }),
});
export type ReportResponse = z.infer<typeof reportResponseSchema>;
