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
  /** Its own maximum of pages per Platform job; null: the edge's default. */
  job_max_pages: z.number().int().nullable(),
});
export type Tenant = z.infer<typeof tenantSchema>;

/** Only the create and rotate answers carry the secret; it is never shown again. */
export const tenantWithSecretSchema = tenantSchema.extend({ api_secret: z.string() });
export type TenantWithSecret = z.infer<typeof tenantWithSecretSchema>;

export const tenantListSchema = z.object({ tenants: z.array(tenantSchema) });
export type TenantList = z.infer<typeof tenantListSchema>;

// A tenant's Platform (/v3) bearer token as the admin API shows it: never the token or its hash.

export const platformTokenStatusSchema = z.object({
  tenant_id: z.string().regex(/^tnt_[0-9a-z]+$/),
  /** The current token, or null when the tenant has none (never issued, or revoked). */
  token_id: z
    .string()
    .regex(/^ptk_[0-9a-z]+$/)
    .nullable(),
  issued_at: adminTimeSchema.nullable(),
  /** Set while a rotated-out token is still accepted (its grace period). */
  previous_token_expires_at: adminTimeSchema.nullable(),
});
export type PlatformTokenStatus = z.infer<typeof platformTokenStatusSchema>;

/** Only the issue answer carries the token; it is never shown again. */
export const platformTokenWithSecretSchema = platformTokenStatusSchema.extend({
  token_id: z.string().regex(/^ptk_[0-9a-z]+$/),
  issued_at: adminTimeSchema,
  token: z.string(),
});
export type PlatformTokenWithSecret = z.infer<typeof platformTokenWithSecretSchema>;

export const platformTokenRevokeResultSchema = z.object({
  tenant_id: z.string(),
  /** How many tokens stopped working (the current one and any still in its grace period). */
  revoked: z.number().int().min(0),
});
export type PlatformTokenRevokeResult = z.infer<typeof platformTokenRevokeResultSchema>;
