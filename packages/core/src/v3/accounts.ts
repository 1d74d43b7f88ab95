import { z } from "zod";
import { rfc3339Schema } from "../formats";

/**
 * Account management of the Platform API (v3): the organization, its credits and credit usage,
 * following the SDK's `OrganizationDetails`, `OrganizationCredits` and `CreditUsageReport`.
 * Times on the wire are RFC 3339 date-times with an offset (the SDK parses each into a Date and
 * refuses anything else, report periods included); query dates are `YYYY-MM-DD`.
 */

/** SDK `ByRole`. */
export const v3MemberCountsByRoleSchema = z
  .object({ admin: z.number().int().optional(), api_access: z.number().int().optional() })
  .loose();

/** SDK `MemberCounts`. */
export const v3MemberCountsSchema = z
  .object({ total: z.number().int(), by_role: v3MemberCountsByRoleSchema })
  .loose();

/** SDK `OrganizationPreferences`. */
export const v3OrganizationPreferencesSchema = z
  .object({
    ai_opt_in: z.boolean().optional(),
    ai_training: z.boolean().optional(),
    mfa_required: z.boolean().optional(),
  })
  .loose();

/** SDK `OrganizationDetails`. */
export const v3OrganizationDetailsSchema = z
  .object({
    uid: z.string(),
    name: z.string(),
    created_at: rfc3339Schema.optional(),
    member_counts: v3MemberCountsSchema.optional(),
    preferences: v3OrganizationPreferencesSchema.optional(),
  })
  .loose();
export type V3OrganizationDetails = z.infer<typeof v3OrganizationDetailsSchema>;

/** SDK `AutoReplenishConfig`. */
export const v3AutoReplenishConfigSchema = z
  .object({
    enabled: z.boolean(),
    amount: z.number().int().optional(),
    threshold: z.number().int().optional(),
  })
  .loose();

/** SDK `CreditExpiration`: one grant of credits and what is left of it. */
export const v3CreditExpirationSchema = z
  .object({
    balance: z.number().int(),
    initial_balance: z.number().int(),
    created_at: rfc3339Schema.optional(),
    expires_at: rfc3339Schema.optional(),
  })
  .loose();

/** SDK `OrganizationCredits`. */
export const v3OrganizationCreditsSchema = z
  .object({
    uid: z.string(),
    balance: z.number().int(),
    credit_expirations: z.array(v3CreditExpirationSchema),
    auto_replenish_config: v3AutoReplenishConfigSchema,
  })
  .loose();
export type V3OrganizationCredits = z.infer<typeof v3OrganizationCreditsSchema>;

/** SDK `Granularity`: report periods are days or calendar months (UTC). */
export const v3GranularitySchema = z.enum(["daily", "monthly"]);
export type V3Granularity = z.infer<typeof v3GranularitySchema>;

/** SDK `SourceUsageBreakdown`: where credits were spent (everything here is `api`). */
export const v3SourceUsageBreakdownSchema = z
  .object({
    api: z.number().int(),
    ui: z.number().int(),
    auto_replenishment: z.number().int().optional(),
    other: z.number().int().optional(),
  })
  .loose();

/** SDK `CreditUsageReportPeriod`. */
export const v3CreditUsageReportPeriodSchema = z
  .object({
    start_date: rfc3339Schema,
    end_date: rfc3339Schema,
    credits_added: z.number().int(),
    credits_consumed: z.number().int(),
    credits_expired: z.number().int(),
    transaction_count: z.number().int(),
  })
  .loose();

/** SDK `CreditUsageReport`: organization and member usage alike. */
export const v3CreditUsageReportSchema = z
  .object({
    start_time: rfc3339Schema,
    end_time: rfc3339Schema,
    granularity: v3GranularitySchema.optional(),
    periods: z.array(v3CreditUsageReportPeriodSchema),
    total_added: z.number().int(),
    total_consumed: z.number().int(),
    total_expired: z.number().int(),
    transaction_count: z.number().int(),
    credits_consumed_by_source: v3SourceUsageBreakdownSchema,
    credits_consumed_by_consumer: z.record(z.string(), z.number().int()).optional(),
  })
  .loose();
export type V3CreditUsageReport = z.infer<typeof v3CreditUsageReportSchema>;

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** A `YYYY-MM-DD` date that exists (2025-02-30 does not). */
export const v3DateSchema = z
  .string()
  .refine(
    (text) => DATE.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text),
    "expected a date YYYY-MM-DD",
  );

/** Query of the credit usage reports (SDK `V3AccountmanagementOrgCreditsUsageRequest`). */
export const v3CreditUsageQuerySchema = z.object({
  /** Optional in the SDK; the report's own default is `daily`. */
  granularity: v3GranularitySchema.default("daily"),
  start_date: v3DateSchema.optional(),
  end_date: v3DateSchema.optional(),
  /** Deprecated by the Platform in favour of start_date/end_date: one day's report. */
  date: v3DateSchema.optional(),
  include_consumer_breakdown: z.enum(["true", "false"]).optional(),
});
export type V3CreditUsageQuery = z.infer<typeof v3CreditUsageQuerySchema>;

/** Query of organization details. */
export const v3OrganizationDetailsQuerySchema = z.object({
  include_member_counts: z.enum(["true", "false"]).optional(),
});
