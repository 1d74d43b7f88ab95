import { QUERY_RESULTS_RETENTION_MS } from "@scangate/core";
import type { Clock } from "@scangate/core/http";
import { z } from "zod";
import type { Ledgers } from "../ledger/ledgers";
import type { PlatformUpstream } from "../upstream/platform";
import { deleteJobFiles, runExportJob, runQueryJob, creditsOf } from "./platform-run";
import { JobFailure, platformSearch } from "./platform-search";
import type { PlatformJobKind, PlatformJobStore } from "./platform-store";
import type { PlatformJobRow } from "../db/schema";
import { newPlatformRunStats } from "@scangate/sql/platform";
import type { BatchedUsageRecorder } from "../usage/recorder";

// Query and export jobs run by the edge over the Platform (UPSTREAM_API=platform): the route
// plans and charges a job and queues it; the consumer (this worker's own queue) runs it and
// gives back the credits it did not spend; the sweep (cron) ends lost work and expires results.

/** What the edge's job queue carries: the job's id, nothing the consumer should trust more. */
export const jobMessageSchema = z.object({ job_id: z.string().min(1).max(64) });
export type JobMessage = z.infer<typeof jobMessageSchema>;

/** The usage name of the request that starts a job of each kind (its route's operation). */
export const JOB_START_OPERATION: Readonly<Record<PlatformJobKind, string>> = {
  query: "query_start",
  export: "export_start",
};

/** The producer side of the queue (the JOBS binding). */
export interface JobQueue {
  send(message: JobMessage): Promise<void>;
}

/** Ended jobs are forgotten this long after their results expired. */
const FORGET_AFTER_MS = 7 * 24 * 60 * 60 * 1000;
const LOST_MESSAGE =
  "the job's work was lost (the edge restarted while it ran); start it again: unspent credits were refunded";

export interface PlatformJobsDeps {
  store: PlatformJobStore;
  queue: JobQueue;
  files: R2Bucket;
  platform: PlatformUpstream;
  ledgers: Ledgers;
  /** The usage rollups, whose quota spent a refund corrects. */
  usage: Pick<BatchedUsageRecorder, "givenBack">;
  clock: Clock;
  upstreamTimeoutMs: number;
}

export class PlatformJobs {
  readonly store: PlatformJobStore;
  readonly files: R2Bucket;

  constructor(private readonly deps: PlatformJobsDeps) {
    this.store = deps.store;
    this.files = deps.files;
  }

  /** Queues a stored job; a job that cannot be queued ends at once, its credits given back. */
  async enqueue(job: PlatformJobRow): Promise<boolean> {
    try {
      await this.deps.queue.send({ job_id: job.id });
      return true;
    } catch (error) {
      console.error("job queue unavailable", error);
      await this.deps.store.fail(job.id, "the job could not be queued; start it again", 0, null);
      await this.refund(job.id);
      return false;
    }
  }

  /** Runs the jobs of a batch side by side (one after another, the last would look lost). */
  async consume(messages: readonly Message[]): Promise<void> {
    await Promise.all(
      messages.map(async (message) => {
        const parsed = jobMessageSchema.safeParse(message.body);
        // claim() is the lock: a job already ended, or running under another delivery, is left alone.
        const job = parsed.success ? await this.deps.store.claim(parsed.data.job_id) : null;
        if (job) await this.run(job);
        message.ack();
      }),
    );
  }

  private async run(job: PlatformJobRow): Promise<void> {
    const { store, clock } = this.deps;
    const stats = newPlatformRunStats();
    const deps = {
      search: platformSearch(this.deps.platform, this.deps.upstreamTimeoutMs),
      files: this.deps.files,
      heartbeat: (spent: number) => store.beat(job.id, spent),
      now: () => clock.now(),
    };
    const started = clock.now();
    try {
      const outcome =
        job.kind === "query" ? await runQueryJob(job, deps, stats) : await runExportJob(job, deps, stats);
      // Another delivery or the sweep ended the job first: its outcome stands, these files go.
      if (!(await store.succeed(job.id, outcome, creditsOf(stats))))
        await deleteJobFiles(this.deps.files, job.id);
    } catch (error) {
      const message =
        error instanceof JobFailure ? error.message : "the job failed unexpectedly; start it again";
      if (!(error instanceof JobFailure)) console.error(`job ${job.id} failed`, error);
      await store.fail(job.id, message, creditsOf(stats), clock.now() - started);
      // No partial result survives a failure (pages and files are written as they fill).
      await deleteJobFiles(this.deps.files, job.id);
    }
    await this.refund(job.id);
  }

  /**
   * Gives an ended job's unspent credits back to its tenant, once: the job is marked refunded
   * first, so a refund that cannot reach the ledger leaves the charge as it is, never twice. The
   * usage rollups then take them off the quota spent of the request that started the job.
   */
  private async refund(id: string): Promise<void> {
    const job = await this.deps.store.takeRefund(id);
    if (!job) return;
    const unspent = job.creditsCharged - Math.min(job.creditsSpent, job.creditsCharged);
    if (unspent <= 0) return;
    try {
      await this.deps.ledgers(job.tenantId).refund({
        cost: unspent,
        resetsAt: job.chargeResetsAt,
        now: this.deps.clock.now(),
      });
    } catch (error) {
      console.error(`job ${id}: refund of unspent credits failed; the charge stands`, error);
      return;
    }
    const charged = { tenantId: job.tenantId, operation: JOB_START_OPERATION[job.kind], at: job.createdAt };
    await this.deps.usage.givenBack(charged, unspent);
  }

  /**
   * Deletes every page and file the tenant's jobs stored, before the tenant (and with it, by
   * cascade, the jobs' rows) goes: once the rows are gone no sweep would find the files. A job
   * still running finds its row gone when it ends, and deletes what it wrote.
   */
  async eraseFilesOf(tenantId: string): Promise<void> {
    for (const id of await this.deps.store.withFilesOf(tenantId)) await deleteJobFiles(this.deps.files, id);
  }

  /**
   * The sweep: ends as `error` the jobs whose work was lost (deleting what they wrote and refunding what they had not
   * spent at their last heartbeat), refunds jobs that ended without it, expires results
   * QUERY_RESULTS_RETENTION_MS after completion (deleting their files) and forgets old jobs.
   */
  async sweep(): Promise<{ lost: number; expired: number; forgotten: number }> {
    const { store, clock } = this.deps;
    const lost = await store.failLost(LOST_MESSAGE);
    // A lost query job may have written pages before its consumer died: no partial result stays.
    for (const id of lost) await deleteJobFiles(this.deps.files, id);
    for (const id of [...lost, ...(await store.unrefunded(100))]) await this.refund(id);
    const now = clock.now();
    const expired = await store.expire(now - QUERY_RESULTS_RETENTION_MS, 100);
    for (const job of expired) await deleteJobFiles(this.deps.files, job.id);
    const forgotten = await store.forget(now - QUERY_RESULTS_RETENTION_MS - FORGET_AFTER_MS);
    return { lost: lost.length, expired: expired.length, forgotten };
  }
}

export function bindingQueue(queue: Queue<unknown>): JobQueue {
  return { send: async (message) => void (await queue.send(message)) };
}
