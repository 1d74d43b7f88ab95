import {
  auditListQuerySchema,
  auditListSchema,
  usageListQuerySchema,
  usageListSchema,
  type UsageRollup,
} from "@scangate/core";
import { and, desc, eq, gte, type SQL } from "drizzle-orm";
import { type AdminRoute, defineAdminRoute } from "../../pipeline/define-route";
import { usage } from "../../db/schema";
import { parseQuery } from "../../http/json-body";
import { component } from "../../openapi/components";

// Read-only admin views: the audit log and the hourly usage rollups, newest first.

export const REPORT_ROUTES: readonly AdminRoute[] = [
  defineAdminRoute({
    method: "GET",
    path: "/admin/audit",
    summary: "The audit log, newest first",
    query: auditListQuerySchema,
    ok: component("AuditList", auditListSchema),
    handler: async (c) => {
      const query = parseQuery(c, auditListQuerySchema);
      const entries = await c.get("services").audit.list({ tenantId: query.tenant_id, limit: query.limit });
      return c.json({ entries });
    },
  }),

  defineAdminRoute({
    method: "GET",
    path: "/admin/usage",
    summary: "Hourly usage rollups, newest first",
    query: usageListQuerySchema,
    ok: component("UsageList", usageListSchema),
    handler: async (c) => {
      const query = parseQuery(c, usageListQuerySchema);
      const filters: SQL[] = [];
      if (query.tenant_id) filters.push(eq(usage.tenantId, query.tenant_id));
      if (query.since) filters.push(gte(usage.hour, Date.parse(query.since)));
      const rows = await c
        .get("services")
        .db.select()
        .from(usage)
        .where(and(...filters))
        .orderBy(desc(usage.hour), usage.tenantId, usage.operation)
        .limit(query.limit);
      const rollups: UsageRollup[] = rows.map((row) => ({
        tenant_id: row.tenantId,
        hour: new Date(row.hour).toISOString(),
        operation: row.operation,
        requests: row.requests,
        cache_hits: row.cacheHits,
        upstream_calls: row.upstreamCalls,
        errors: row.errors,
        quota_spent: row.quotaSpent,
        quota_saved: row.quotaSaved,
      }));
      return c.json({ usage: rollups });
    },
  }),
];
