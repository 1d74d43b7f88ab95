import { and, eq, lt } from "drizzle-orm";
import type { Clock } from "@scangate/core/http";
import type { EdgeDb } from "../db/client";
import { jobs, type JobRow } from "../db/schema";

export type JobKind = JobRow["kind"];

/** Which tenant started each upstream job; everyone else is told the job does not exist. */
export class JobStore {
  constructor(
    private readonly db: EdgeDb,
    private readonly clock: Clock,
  ) {}

  async record(kind: JobKind, jobId: string, tenantId: string, upstreamCredential: string): Promise<void> {
    await this.db
      .insert(jobs)
      .values({ kind, jobId, tenantId, upstreamCredential, createdAt: this.clock.now() })
      .onConflictDoNothing();
  }

  /** The job if `tenantId` started it, else null (unknown and foreign jobs look the same). */
  async owned(kind: JobKind, jobId: string, tenantId: string): Promise<JobRow | null> {
    const row = await this.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, kind), eq(jobs.jobId, jobId), eq(jobs.tenantId, tenantId)))
      .get();
    return row ?? null;
  }

  /** Forgets jobs older than `before` (the upstream keeps results 24 h; we keep a margin). */
  async expire(before: number): Promise<number> {
    const rows = await this.db.delete(jobs).where(lt(jobs.createdAt, before)).returning({ id: jobs.jobId });
    return rows.length;
  }
}
