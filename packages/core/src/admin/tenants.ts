import { z } from "zod";
import { tenantPeriodSchema } from "./periods";
import { adminTimeSchema } from "./time";

// A tenant as the admin API shows it.

export const tenantSchema = z.object({
  id: z.string().regex(/^tnt_[0-9a-z]+$/),
  name: z.string(),
  email: z.string(),
  api_id: z.string(),
  allowance: z.number().int(),
  period: tenantPeriodSchema,
  used: z.number().int(),
  /** Null for period `never`. */
  resets_at: adminTimeSchema.nullable(),
  tier: z.string(),
  disabled: z.boolean(),
  created_at: adminTimeSchema,
  updated_at: adminTimeSchema,
  last_seen_at: adminTimeSchema.nullable(),
  /** Set while a rotated-out secret is still accepted. */
  previous_secret_expires_at: adminTimeSchema.nullable(),
});
export type Tenant = z.infer<typeof tenantSchema>;

/** Only the create and rotate answers carry the secret; it is never shown again. */
export const tenantWithSecretSchema = tenantSchema.extend({ api_secret: z.string() });
export type TenantWithSecret = z.infer<typeof tenantWithSecretSchema>;

export const tenantListSchema = z.object({ tenants: z.array(tenantSchema) });
export type TenantList = z.infer<typeof tenantListSchema>;
