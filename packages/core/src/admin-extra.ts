import { z } from "zod";
import { V1_INDEXES } from "./indexes";

// The edge's own admin API (/admin, bearer ADMIN_TOKEN): tenants, audit log, usage, cache purge.
// Times are RFC 3339 strings in UTC.

export const TENANT_PERIODS = ["daily", "monthly", "never"] as const;
/** `never`: one-time credits that do not refill. */
export const tenantPeriodSchema = z.enum(TENANT_PERIODS);
export type TenantPeriod = z.infer<typeof tenantPeriodSchema>;

/** Ours: a tenant's allowance is at least 1 (the spec's account allowance is never 0 when usable). */
export const TENANT_ALLOWANCE_MAX = 1_000_000_000;
export const TENANT_ROTATE_GRACE_MAX_SECONDS = 30 * 24 * 60 * 60;

const tenantName = z.string().trim().min(1, "name is required").max(100, "name is at most 100 characters");
const tenantEmail = z.union([z.literal(""), z.email({ error: "expected an email address" })]);
const allowance = z.number().int().min(1).max(TENANT_ALLOWANCE_MAX);
const tierName = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, "tier is a lower-case name (letters, digits, - and _)");

export const tenantCreateBodySchema = z.strictObject({
  name: tenantName,
  email: tenantEmail.optional(),
  allowance: allowance.optional(),
  period: tenantPeriodSchema.optional(),
  tier: tierName.optional(),
});
export type TenantCreateBody = z.infer<typeof tenantCreateBodySchema>;

export const tenantPatchBodySchema = z
  .strictObject({
    name: tenantName.optional(),
    email: tenantEmail.optional(),
    allowance: allowance.optional(),
    period: tenantPeriodSchema.optional(),
    tier: tierName.optional(),
    disabled: z.boolean().optional(),
    /** Set the quota spent in the current period (e.g. 0 to grant a fresh allowance). */
    used: z.number().int().min(0).max(TENANT_ALLOWANCE_MAX).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, "nothing to change");
export type TenantPatchBody = z.infer<typeof tenantPatchBodySchema>;

export const tenantRotateBodySchema = z.strictObject({
  /** How long the old secret keeps working; 0 (the default) stops it at once. */
  grace_seconds: z.number().int().min(0).max(TENANT_ROTATE_GRACE_MAX_SECONDS).default(0),
});
export type TenantRotateBody = z.infer<typeof tenantRotateBodySchema>;

const isoTime = z.iso.datetime();

export const tenantSchema = z.object({
  id: z.string().regex(/^tnt_[0-9a-z]+$/),
  name: z.string(),
  email: z.string(),
  api_id: z.string(),
  allowance: z.number().int(),
  period: tenantPeriodSchema,
  used: z.number().int(),
  /** Null for period `never`. */
  resets_at: isoTime.nullable(),
  tier: z.string(),
  disabled: z.boolean(),
  created_at: isoTime,
  updated_at: isoTime,
  last_seen_at: isoTime.nullable(),
  /** Set while a rotated-out secret is still accepted. */
  previous_secret_expires_at: isoTime.nullable(),
});
export type Tenant = z.infer<typeof tenantSchema>;

/** Only the create and rotate answers carry the secret; it is never shown again. */
export const tenantWithSecretSchema = tenantSchema.extend({ api_secret: z.string() });
export type TenantWithSecret = z.infer<typeof tenantWithSecretSchema>;

export const tenantListSchema = z.object({ tenants: z.array(tenantSchema) });
export type TenantList = z.infer<typeof tenantListSchema>;

export const AUDIT_ACTIONS = [
  "tenant.create",
  "tenant.update",
  "tenant.rotate",
  "tenant.delete",
  "cache.purge",
] as const;
export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  at: isoTime,
  actor: z.string(),
  action: auditActionSchema,
  tenant_id: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditListQuerySchema = z.object({
  tenant_id: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export const auditListSchema = z.object({ entries: z.array(auditEntrySchema) });
export type AuditList = z.infer<typeof auditListSchema>;

export const usageRollupSchema = z.object({
  tenant_id: z.string(),
  /** Start of the hour. */
  hour: isoTime,
  operation: z.string(),
  requests: z.number().int(),
  cache_hits: z.number().int(),
  upstream_calls: z.number().int(),
  errors: z.number().int(),
  quota_spent: z.number().int(),
});
export type UsageRollup = z.infer<typeof usageRollupSchema>;

export const usageListQuerySchema = z.object({
  tenant_id: z.string().optional(),
  since: isoTime.optional(),
  limit: z.coerce.number().int().min(1).max(5000).default(500),
});
export const usageListSchema = z.object({ usage: z.array(usageRollupSchema) });
export type UsageList = z.infer<typeof usageListSchema>;

/** What the document cache holds: the three v1 indexes, and v2 `hosts`. */
export const CACHE_INDEXES = [...V1_INDEXES, "hosts"] as const;
export const cacheIndexSchema = z.enum(CACHE_INDEXES);
export type CacheIndex = z.infer<typeof cacheIndexSchema>;

export const cachePurgeResultSchema = z.object({ deleted: z.number().int().min(0) });
export type CachePurgeResult = z.infer<typeof cachePurgeResultSchema>;
