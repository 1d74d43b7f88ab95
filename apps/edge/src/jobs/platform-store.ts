import type { SchemaField } from "@scangate/core";
import type { Clock } from "@scangate/core/http";
import { and, eq, inArray, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { EdgeDb } from "../db/client";
import { platformJobs, type PlatformJobRow } from "../db/schema";

// The query and export jobs the edge runs over the Platform: one D1 row each. Every read a route
// makes names the tenant, so a job is visible only to the tenant that started it; every change
// is one conditional statement, so the consumer, a duplicate delivery and the sweep never both
// end a job, and its unspent credits go back once.

export type PlatformJobKind = PlatformJobRow["kind"];

/** An export file: its R2 key and its size as stored. */
export interface ExportFile {
  key: string;
  size: number;
}

type NewPlatformJob = Pick<
  PlatformJobRow,
  "id" | "kind" | "tenantId" | "query" | "plannedAt" | "maxPages" | "creditsCharged" | "chargeResetsAt"
> & { options: unknown };

export interface JobOutcome {
  rows: number;
  pages: number;
  dataProcessed: number;
  schema: SchemaField[];
  backendTimeMs: number;
  files?: ExportFile[];
}

/**
 * A running job beats at least this often (every page it reads); one silent for
 * LOST_AFTER_MS lost its consumer (the isolate died), and the sweep ends it as `error`.
 */
export const LOST_AFTER_MS = 2 * 60 * 1000;
/** A job never claimed this long after it was queued lost its message. */
export const UNCLAIMED_AFTER_MS = 10 * 60 * 1000;

/** An ended job whose unspent credits have not gone back yet. */
const refundDue = and(isNull(platformJobs.refundedAt), sql`${platformJobs.status} <> 'pending'`);

export class PlatformJobStore {
  constructor(
    private readonly db: EdgeDb,
    private readonly clock: Clock,
  ) {}

  insert(job: NewPlatformJob): Promise<PlatformJobRow> {
    return this.db
      .insert(platformJobs)
      .values({
        ...job,
        options: job.options === undefined ? null : JSON.stringify(job.options),
        status: "pending",
        createdAt: this.clock.now(),
      })
      .returning()
      .get();
  }

  /**
   * The tenant's jobs that may hold files: running or succeeded. A failed job deleted its files
   * as it ended, an expired one had them deleted by the sweep.
   */
  async withFilesOf(tenantId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: platformJobs.id })
      .from(platformJobs)
      .where(and(eq(platformJobs.tenantId, tenantId), sql`${platformJobs.status} in ('pending', 'success')`));
    return rows.map((row) => row.id);
  }

  /** The job if `tenantId` started it, else null (unknown and foreign jobs look the same). */
  async owned(kind: PlatformJobKind, id: string, tenantId: string): Promise<PlatformJobRow | null> {
    const row = await this.db
      .select()
      .from(platformJobs)
      .where(and(eq(platformJobs.id, id), eq(platformJobs.kind, kind), eq(platformJobs.tenantId, tenantId)))
      .get();
    return row ?? null;
  }

  /**
   * Claims a pending job for the consumer starting it now; null when it already ended or
   * another consumer is running it (a duplicate delivery), which must then leave it alone.
   */
  async claim(id: string): Promise<PlatformJobRow | null> {
    const now = this.clock.now();
    const row = await this.db
      .update(platformJobs)
      .set({ startedAt: now, heartbeatAt: now })
      .where(
        and(
          eq(platformJobs.id, id),
          eq(platformJobs.status, "pending"),
          or(isNull(platformJobs.startedAt), lte(platformJobs.heartbeatAt, now - LOST_AFTER_MS)),
        ),
      )
      .returning()
      .get();
    return row ?? null;
  }

  /** The running job's heartbeat, with the credits it has spent so far. */
  async beat(id: string, spent: number): Promise<void> {
    await this.db
      .update(platformJobs)
      .set({ heartbeatAt: this.clock.now(), creditsSpent: spent })
      .where(and(eq(platformJobs.id, id), eq(platformJobs.status, "pending")));
  }

  /** Ends a pending job as `success`; false when it had ended already (its outcome stands). */
  succeed(id: string, outcome: JobOutcome, spent: number): Promise<boolean> {
    return this.end(id, "success", {
      creditsSpent: spent,
      resultRows: outcome.rows,
      resultPages: outcome.pages,
      dataProcessed: outcome.dataProcessed,
      resultSchema: JSON.stringify(outcome.schema),
      backendTimeMs: outcome.backendTimeMs,
      files: outcome.files === undefined ? null : JSON.stringify(outcome.files),
    });
  }

  /** Ends a pending job as `error` with `message`; false when it had ended already. */
  fail(id: string, message: string, spent: number, backendTimeMs: number | null): Promise<boolean> {
    return this.end(id, "error", { errorMessage: message, creditsSpent: spent, backendTimeMs });
  }

  private async end(
    id: string,
    status: "success" | "error",
    outcome: Partial<PlatformJobRow>,
  ): Promise<boolean> {
    const updated = await this.db
      .update(platformJobs)
      .set({ status, completedAt: this.clock.now(), ...outcome })
      .where(and(eq(platformJobs.id, id), eq(platformJobs.status, "pending")))
      .returning({ id: platformJobs.id });
    return updated.length === 1;
  }

  /**
   * Takes the refund of an ended job: the row when this call is the one that marks it refunded,
   * null when it was refunded already (or is still running).
   */
  async takeRefund(id: string): Promise<PlatformJobRow | null> {
    const row = await this.db
      .update(platformJobs)
      .set({ refundedAt: this.clock.now() })
      .where(and(eq(platformJobs.id, id), refundDue))
      .returning()
      .get();
    return row ?? null;
  }

  /**
   * Ends as `error` every job whose work was lost: started and silent for LOST_AFTER_MS, or
   * queued and never claimed for UNCLAIMED_AFTER_MS. Returns their ids (to refund).
   */
  async failLost(message: string): Promise<string[]> {
    const now = this.clock.now();
    const lost = or(
      and(isNotNull(platformJobs.startedAt), lte(platformJobs.heartbeatAt, now - LOST_AFTER_MS)),
      and(isNull(platformJobs.startedAt), lte(platformJobs.createdAt, now - UNCLAIMED_AFTER_MS)),
    ) as SQL;
    const ended = await this.db
      .update(platformJobs)
      .set({ status: "error", completedAt: now, errorMessage: message })
      .where(and(eq(platformJobs.status, "pending"), lost))
      .returning({ id: platformJobs.id });
    return ended.map((row) => row.id);
  }

  /** Ended jobs whose unspent credits have not gone back yet (a refund that failed earlier). */
  async unrefunded(limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: platformJobs.id })
      .from(platformJobs)
      .where(refundDue)
      .limit(limit);
    return rows.map((row) => row.id);
  }

  /**
   * Jobs completed at or before `cutoff` that still hold files: successes become `expired`
   * (an export says so; a query's pages are gone). Returns them, to delete their files.
   */
  async expire(cutoff: number, limit: number): Promise<PlatformJobRow[]> {
    const due = this.db
      .select({ id: platformJobs.id })
      .from(platformJobs)
      .where(and(eq(platformJobs.status, "success"), lte(platformJobs.completedAt, cutoff)))
      .limit(limit);
    return this.db
      .update(platformJobs)
      .set({ status: "expired" })
      .where(and(inArray(platformJobs.id, due), eq(platformJobs.status, "success")))
      .returning();
  }

  /** Forgets jobs that ended at or before `cutoff` (their files are gone already). */
  async forget(cutoff: number): Promise<number> {
    const rows = await this.db
      .delete(platformJobs)
      .where(
        and(
          sql`${platformJobs.status} in ('error', 'expired')`,
          lte(platformJobs.completedAt, cutoff),
          isNotNull(platformJobs.refundedAt),
        ),
      )
      .returning({ id: platformJobs.id });
    return rows.length;
  }
}

export function exportFilesOf(job: PlatformJobRow): ExportFile[] {
  return job.files ? (JSON.parse(job.files) as ExportFile[]) : [];
}

export function resultSchemaOf(job: PlatformJobRow): SchemaField[] {
  return job.resultSchema ? (JSON.parse(job.resultSchema) as SchemaField[]) : [];
}
