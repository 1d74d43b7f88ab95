import type { SchemaField } from "@scangate/core";
import { and, eq, inArray, lte } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { jobs } from "../db/schema-jobs";

/** The job table, behind the few operations the routes, consumer and expiry need. */

export type JobRow = typeof jobs.$inferSelect;
export type JobKind = JobRow["kind"];

export interface ExportFile {
  /** File name as it appears in the download URL. */
  name: string;
  /** R2 key. */
  key: string;
  /** Stored bytes. */
  size: number;
}

export interface NewJob {
  id: string;
  kind: JobKind;
  owner: string;
  query: string;
  checkedSql: string;
  options?: unknown;
  now: Date;
}

export async function insertJob(db: D1Database, job: NewJob): Promise<JobRow> {
  const [row] = await drizzle(db)
    .insert(jobs)
    .values({
      id: job.id,
      kind: job.kind,
      status: "pending",
      owner: job.owner,
      query: job.query,
      checkedSql: job.checkedSql,
      options: job.options === undefined ? null : JSON.stringify(job.options),
      createdAt: job.now.getTime(),
    })
    .returning();
  if (!row) throw new Error("job insert returned no row");
  return row;
}

export async function findJob(db: D1Database, id: string): Promise<JobRow | null> {
  const [row] = await drizzle(db).select().from(jobs).where(eq(jobs.id, id)).limit(1);
  return row ?? null;
}

export interface QueryOutcome {
  rows: number;
  pages: number;
  dataProcessed: number;
  schema: SchemaField[];
  backendTimeMs: number;
  files?: ExportFile[];
}

/**
 * Ends a pending job as `success`. Conditional on `pending`, so a second delivery of the same
 * message cannot overwrite the first outcome; false when the job was no longer pending.
 */
export async function markSucceeded(
  db: D1Database,
  id: string,
  outcome: QueryOutcome,
  now: Date,
): Promise<boolean> {
  const updated = await drizzle(db)
    .update(jobs)
    .set({
      status: "success",
      completedAt: now.getTime(),
      resultRows: outcome.rows,
      resultPages: outcome.pages,
      dataProcessed: outcome.dataProcessed,
      resultSchema: JSON.stringify(outcome.schema),
      backendTimeMs: outcome.backendTimeMs,
      files: outcome.files === undefined ? null : JSON.stringify(outcome.files),
    })
    .where(and(eq(jobs.id, id), eq(jobs.status, "pending")))
    .returning({ id: jobs.id });
  return updated.length === 1;
}

export async function markFailed(
  db: D1Database,
  id: string,
  message: string,
  now: Date,
  backendTimeMs: number | null = null,
): Promise<boolean> {
  const updated = await drizzle(db)
    .update(jobs)
    .set({ status: "error", completedAt: now.getTime(), errorMessage: message, backendTimeMs })
    .where(and(eq(jobs.id, id), eq(jobs.status, "pending")))
    .returning({ id: jobs.id });
  return updated.length === 1;
}

/** Marks a successful export expired; false when it was not (or no longer) `success`. */
export async function markExpired(db: D1Database, id: string): Promise<boolean> {
  const updated = await drizzle(db)
    .update(jobs)
    .set({ status: "expired" })
    .where(and(eq(jobs.id, id), eq(jobs.kind, "export"), eq(jobs.status, "success")))
    .returning({ id: jobs.id });
  return updated.length === 1;
}

/** Finished jobs of `kind` in `statuses` that completed at or before `cutoff` (epoch ms). */
export async function jobsCompletedBefore(
  db: D1Database,
  kind: JobKind,
  statuses: JobRow["status"][],
  cutoff: number,
  limit: number,
): Promise<JobRow[]> {
  return drizzle(db)
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, kind), inArray(jobs.status, statuses), lte(jobs.completedAt, cutoff)))
    .limit(limit);
}

/** Jobs still pending that were created at or before `cutoff`: their consumer never finished. */
export async function jobsPendingSince(db: D1Database, cutoff: number, limit: number): Promise<JobRow[]> {
  return drizzle(db)
    .select()
    .from(jobs)
    .where(and(eq(jobs.status, "pending"), lte(jobs.createdAt, cutoff)))
    .limit(limit);
}

export async function deleteJob(db: D1Database, id: string): Promise<void> {
  await drizzle(db).delete(jobs).where(eq(jobs.id, id));
}

export function exportFilesOf(job: JobRow): ExportFile[] {
  return job.files ? (JSON.parse(job.files) as ExportFile[]) : [];
}

export function resultSchemaOf(job: JobRow): SchemaField[] {
  return job.resultSchema ? (JSON.parse(job.resultSchema) as SchemaField[]) : [];
}
