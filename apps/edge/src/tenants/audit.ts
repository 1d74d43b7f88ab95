import type { AuditAction, AuditEntry } from "@scangate/core";
import { desc, eq, sql } from "drizzle-orm";
import { newRecordId } from "../auth/secrets";
import type { Clock } from "@scangate/core/http";
import type { EdgeDb } from "../db/client";
import { auditLog } from "../db/schema";

export interface AuditRecord {
  readonly actor: string;
  readonly action: AuditAction;
  readonly tenantId: string | null;
  /** Wire views of the record before and after; never secrets or their hashes. */
  readonly before: object | null;
  readonly after: object | null;
}

/** The append-only log of admin actions. */
export class AuditLog {
  constructor(
    private readonly db: EdgeDb,
    private readonly clock: Clock,
  ) {}

  async record(entry: AuditRecord): Promise<void> {
    await this.db.insert(auditLog).values({
      id: newRecordId("aud"),
      at: this.clock.now(),
      actor: entry.actor,
      action: entry.action,
      tenantId: entry.tenantId,
      before: entry.before ? JSON.stringify(entry.before) : null,
      after: entry.after ? JSON.stringify(entry.after) : null,
    });
  }

  /** Newest first. */
  async list(query: { tenantId?: string | undefined; limit: number }): Promise<AuditEntry[]> {
    const rows = await this.db
      .select()
      .from(auditLog)
      .where(query.tenantId ? eq(auditLog.tenantId, query.tenantId) : undefined)
      .orderBy(desc(auditLog.at), desc(sql`rowid`))
      .limit(query.limit);
    return rows.map((row) => ({
      id: row.id,
      at: new Date(row.at).toISOString(),
      actor: row.actor,
      action: row.action as AuditAction,
      tenant_id: row.tenantId,
      before: row.before ? (JSON.parse(row.before) as Record<string, unknown>) : null,
      after: row.after ? (JSON.parse(row.after) as Record<string, unknown>) : null,
    }));
  }
}
