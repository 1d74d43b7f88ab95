import type { SchemaField } from "@scangate/core";
import { and, eq, inArray, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
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

/**
 * A started job whose heartbeat is this old lost its consumer (the service restarted while it
 * ran): the sweep ends it, and another delivery may take it over. The runner beats every few
 * seconds while a job runs, and every job is bounded, so a live job is never this quiet.
 */
export const HEARTBEAT_STALE_MS = 90 * 1000;

/**
 * Claims a pending job for the consumer starting it now (its start and first heartbeat). False
 * when the job already ended (another delivery, or the sweep declared its work lost) or another
 * consumer is running it (a duplicate delivery): then this consumer must not run it.
 */
export async function markStarted(db: D1Database, id: string, now: Date): Promise<boolean> {
  const updated = await drizzle(db)
    .update(jobs)
    .set({ startedAt: now.getTime(), heartbeatAt: now.getTime() })
    .where(
      and(
        eq(jobs.id, id),
        eq(jobs.status, "pending"),
        or(isNull(jobs.startedAt), lte(jobs.heartbeatAt, now.getTime() - HEARTBEAT_STALE_MS)),
      ),
    )
    .returning({ id: jobs.id });
  return updated.length === 1;
}

/** The running job's heartbeat: while it beats, the sweep leaves the job alone. */
export async function touchJob(db: D1Database, id: string, now: Date): Promise<void> {
  await drizzle(db)
    .update(jobs)
    .set({ heartbeatAt: now.getTime() })
    .where(and(eq(jobs.id, id), eq(jobs.status, "pending")));
}

/**
 * Hands a pending job back to the queue for a retry: not started any more, and waiting from now
 * (the sweep gives it the queue's grace, not the heartbeat's, before it counts as lost).
 */
export async function markRetrying(db: D1Database, id: string, now: Date): Promise<void> {
  await drizzle(db)
    .update(jobs)
    .set({ startedAt: null, heartbeatAt: now.getTime() })
    .where(and(eq(jobs.id, id), eq(jobs.status, "pending")));
}

/** Ends as `error` every pending job that meets `lost`, in one conditional update; how many ended. */
async function failPendingJobs(db: D1Database, lost: SQL, message: string, now: Date): Promise<number> {
  const ended = await drizzle(db)
    .update(jobs)
    .set({ status: "error", completedAt: now.getTime(), errorMessage: message })
    .where(and(eq(jobs.status, "pending"), lost))
    .returning({ id: jobs.id });
  return ended.length;
}

/**
 * Ends as `error` the started jobs whose heartbeat is at or before `cutoff` (epoch ms): their
 * consumer is gone. One conditional update, so a job that beats meanwhile is not caught.
 * Returns how many ended.
 */
export function failSilentJobs(db: D1Database, cutoff: number, message: string, now: Date): Promise<number> {
  return failPendingJobs(
    db,
    and(isNotNull(jobs.startedAt), lte(jobs.heartbeatAt, cutoff)) as SQL,
    message,
    now,
  );
}

/**
 * Ends as `error` the jobs waiting in the queue (never started, or handed back for a retry)
 * since at or before `cutoff` (epoch ms): their message is gone. Returns how many ended.
 */
export function failUnstartedJobs(
  db: D1Database,
  cutoff: number,
  message: string,
  now: Date,
): Promise<number> {
  return failPendingJobs(
    db,
    and(isNull(jobs.startedAt), lte(sql`coalesce(${jobs.heartbeatAt}, ${jobs.createdAt})`, cutoff)) as SQL,
    message,
    now,
  );
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

export async function deleteJob(db: D1Database, id: string): Promise<void> {
  await drizzle(db).delete(jobs).where(eq(jobs.id, id));
}

export function exportFilesOf(job: JobRow): ExportFile[] {
  return job.files ? (JSON.parse(job.files) as ExportFile[]) : [];
}

export function resultSchemaOf(job: JobRow): SchemaField[] {
  return job.resultSchema ? (JSON.parse(job.resultSchema) as SchemaField[]) : [];
}

/** The job records as the routes use them; chosen from the bindings in infrastructure.ts. */
export interface JobStore {
  insert(job: NewJob): Promise<JobRow>;
  find(id: string): Promise<JobRow | null>;
  /** Ends a pending job as `error` with `message`; false when it was no longer pending. */
  markFailed(id: string, message: string, now: Date): Promise<boolean>;
  /** Marks a successful export expired; false when it was not (or no longer) `success`. */
  markExpired(id: string): Promise<boolean>;
}

export function d1JobStore(db: D1Database): JobStore {
  return {
    insert: (job) => insertJob(db, job),
    find: (id) => findJob(db, id),
    markFailed: (id, message, now) => markFailed(db, id, message, now),
    markExpired: (id) => markExpired(db, id),
  };
}
