import { z } from "zod";
import { adminTimeSchema } from "./time";

// The audit log of admin changes (GET /admin/audit).

export const AUDIT_ACTIONS = [
  "tenant.create",
  "tenant.update",
  "tenant.rotate",
  "tenant.delete",
  // A tenant's Platform (/v3) bearer token: first issue, rotation, revocation.
  "tenant.token.issue",
  "tenant.token.rotate",
  "tenant.token.revoke",
  "cache.purge",
  // Tenants' tags and comments (their `tenant_id` is the acting tenant; `actor` is it, or "admin").
  "tag.create",
  "tag.update",
  "tag.delete",
  "tag.attach",
  "tag.detach",
  "comment.create",
  "comment.update",
  "comment.delete",
] as const;
export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  at: adminTimeSchema,
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
