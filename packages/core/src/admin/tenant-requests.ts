import { z } from "zod";
import { tenantPeriodSchema } from "./periods";

// What an admin sends to create, change and rotate a tenant (POST/PATCH /admin/tenants...).

/** Ours: a tenant's allowance is at least 1 (the spec's account allowance is never 0 when usable). */
export const TENANT_ALLOWANCE_MAX = 1_000_000_000;
export const TENANT_ROTATE_GRACE_MAX_SECONDS = 30 * 24 * 60 * 60;
/** The most pages of Platform search results one query or export job may read (100,000 rows). */
export const JOB_MAX_PAGES_LIMIT = 1000;

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
    /**
     * The most pages of Platform search results one of its jobs may read (UPSTREAM_API=platform):
     * what a job holds in credits before it starts. null: the edge's JOB_MAX_PAGES.
     */
    job_max_pages: z.number().int().min(1).max(JOB_MAX_PAGES_LIMIT).nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, "nothing to change");
export type TenantPatchBody = z.infer<typeof tenantPatchBodySchema>;

export const tenantRotateBodySchema = z.strictObject({
  /** How long the old secret keeps working; 0 (the default) stops it at once. */
  grace_seconds: z.number().int().min(0).max(TENANT_ROTATE_GRACE_MAX_SECONDS).default(0),
});
export type TenantRotateBody = z.infer<typeof tenantRotateBodySchema>;

/** A rotated-out Platform token keeps working this long unless the admin says otherwise. */
export const PLATFORM_TOKEN_GRACE_DEFAULT_SECONDS = 60 * 60;

/**
 * POST /admin/tenants/:id/platform-token: issues the tenant's Platform (/v3) bearer token, or
 * rotates it when it has one. The token it replaces keeps working for `grace_seconds`.
 */
export const platformTokenIssueBodySchema = z.strictObject({
  grace_seconds: z
    .number()
    .int()
    .min(0)
    .max(TENANT_ROTATE_GRACE_MAX_SECONDS)
    .default(PLATFORM_TOKEN_GRACE_DEFAULT_SECONDS),
});
export type PlatformTokenIssueBody = z.infer<typeof platformTokenIssueBodySchema>;
