import { z } from "zod";
import { rfc3339Schema } from "../formats";
import { V3_COUNT_CONDITION_PAIRS_MAX, V3_COUNT_CONDITIONS_MAX, V3_QUERY_MAX_CHARS } from "./limits";
import { v3PagingQuerySchema } from "./queries";

/**
 * CensEye: pivot analysis jobs over one asset and value counts of field-value pairs, following
 * the SDK's `CreateCenseyeJobInputBody`, `CenseyeJob`, `CenseyeJobsListResponse`,
 * `CenseyeResultsResponse`, `SearchValueCountsInputBody` and `ValueCountsResponse`.
 */

/** SDK `CenseyeTarget`: exactly one of the three ids. */
export const v3CenseyeTargetSchema = z
  .object({
    host_id: z.string().max(64).optional(),
    webproperty_id: z.string().max(300).optional(),
    certificate_id: z.string().max(64).optional(),
  })
  .loose();
export type V3CenseyeTarget = z.infer<typeof v3CenseyeTargetSchema>;

/** SDK `CreateCenseyeJobInputBody`. */
export const v3CenseyeJobInputSchema = z.object({ target: v3CenseyeTargetSchema }).loose();

export const V3_CENSEYE_STATES = ["started", "completed", "failed", "unknown"] as const;

/** SDK `CenseyeJob`. */
export const v3CenseyeJobSchema = z
  .object({
    job_id: z.string(),
    state: z.string(),
    target: v3CenseyeTargetSchema,
    at_time: rfc3339Schema.optional(),
    create_time: rfc3339Schema.optional(),
    update_time: rfc3339Schema.optional(),
    delete_time: rfc3339Schema.optional(),
    result_count: z.number().int().optional(),
    error: z.string().optional(),
  })
  .loose();
export type V3CenseyeJob = z.infer<typeof v3CenseyeJobSchema>;

/** SDK `CenseyeJobsListResponse`. */
export const v3CenseyeJobsSchema = z
  .object({ jobs: z.array(v3CenseyeJobSchema).nullable(), next_page_token: z.string().optional() })
  .loose();

/** Query of the job list (SDK `V3ThreathuntingCenseyeJobsListRequest`). */
export const v3CenseyeJobsQuerySchema = v3PagingQuerySchema.extend({
  host_id: z.string().max(64).optional(),
  webproperty_id: z.string().max(300).optional(),
  certificate_id: z.string().max(64).optional(),
});

/** SDK `FieldValuePair`. */
export const v3FieldValuePairSchema = z
  .object({ field: z.string().min(1).max(256), value: z.string().max(1024) })
  .loose();
export type V3FieldValuePair = z.infer<typeof v3FieldValuePairSchema>;

/** SDK `CenseyeResult`. */
export const v3CenseyeResultSchema = z
  .object({ count: z.number(), field_value_pairs: z.array(v3FieldValuePairSchema).nullable() })
  .loose();
export type V3CenseyeResult = z.infer<typeof v3CenseyeResultSchema>;

/** SDK `CenseyeResultsResponse`. */
export const v3CenseyeResultsSchema = z
  .object({ results: z.array(v3CenseyeResultSchema).nullable(), next_page_token: z.string().optional() })
  .loose();

/** SDK `CountCondition`: pairs of one nested object, at most five. */
export const v3CountConditionSchema = z
  .object({
    field_value_pairs: z.array(v3FieldValuePairSchema).min(1).max(V3_COUNT_CONDITION_PAIRS_MAX),
  })
  .loose();

/** SDK `SearchValueCountsInputBody`. */
export const v3ValueCountsInputSchema = z
  .object({
    query: z.string().max(V3_QUERY_MAX_CHARS).optional(),
    and_count_conditions: z.array(v3CountConditionSchema).min(1).max(V3_COUNT_CONDITIONS_MAX),
  })
  .loose();
export type V3ValueCountsInput = z.infer<typeof v3ValueCountsInputSchema>;

/** SDK `ValueCountsResponse`: one count per condition, in order. */
export const v3ValueCountsSchema = z.object({ and_count_results: z.array(z.number()).nullable() }).loose();
