import { z } from "zod";
import { adminTimeSchema } from "./time";

// Hourly usage rollups per tenant and operation (GET /admin/usage).

export const usageRollupSchema = z.object({
  tenant_id: z.string(),
  /** Start of the hour. */
  hour: adminTimeSchema,
  operation: z.string(),
  requests: z.number().int(),
  cache_hits: z.number().int(),
  upstream_calls: z.number().int(),
  errors: z.number().int(),
  quota_spent: z.number().int(),
  /** Upstream credits the document cache saved: Platform documents served without a paid call. */
  quota_saved: z.number().int(),
});
export type UsageRollup = z.infer<typeof usageRollupSchema>;

export const usageListQuerySchema = z.object({
  tenant_id: z.string().optional(),
  since: adminTimeSchema.optional(),
  limit: z.coerce.number().int().min(1).max(5000).default(500),
});
export const usageListSchema = z.object({ usage: z.array(usageRollupSchema) });
export type UsageList = z.infer<typeof usageListSchema>;
