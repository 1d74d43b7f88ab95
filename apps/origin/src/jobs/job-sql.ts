import {
  describeSqlError,
  prepareQuery,
  runPlan,
  SqlRunError,
  type Catalog,
  type Plan,
  type SqlResult,
} from "@scangate/sql";
import { loadSnapshotCatalog } from "../snapshots/catalog";
import { createSnapshotRowSource } from "../snapshots/row-source";

/**
 * The SQL of query and export jobs: the user's text, planned by `@scangate/sql` against the
 * published snapshot tables, and run in bounded batches read from SNAPSHOTS. No user text ever
 * reaches a database: the engine reads rows through fixed, parameterised scans and evaluates
 * the query itself, so every job's work is bounded and it can stop at its deadline.
 */

/** A failure the job's owner is told about (`error_message`); anything else is retried. */
export class JobFailure extends Error {
  override readonly name = "JobFailure";
}

/** The plan of `text` over what SNAPSHOTS publishes now, or why it cannot run. */
export async function planJobSql(snapshots: D1Database, text: string): Promise<SqlResult<Plan>> {
  return planJobSqlIn(await loadSnapshotCatalog(snapshots), text);
}

/** The plan of `text` over the tables of `catalog`, or why it cannot run. */
export function planJobSqlIn(catalog: Catalog, text: string): SqlResult<Plan> {
  return prepareQuery(text, catalog);
}

/** The plan of a stored job, planned again at run time (tables may have changed since). */
export async function replanJobSql(snapshots: D1Database, text: string): Promise<Plan> {
  const planned = await planJobSql(snapshots, text);
  if (!planned.ok) throw new JobFailure(`query could not be parsed: ${describeSqlError(planned.error)}`);
  return planned.value;
}

export interface JobRunBounds {
  maxRows: number;
  timeLimitMs: number;
  /** Called at most every HEARTBEAT_MS while the job runs, so a lost job can be told from a live one. */
  heartbeat?: () => Promise<void>;
  /** Wall clock (the deadline bounds real running time). */
  now?: () => number;
  /** Aborted when the consumer has given up on the job: its next pause throws. */
  signal?: AbortSignal;
}

/** How often a running job says it is alive. */
export const HEARTBEAT_MS = 5_000;

/**
 * The pause between slices of a job's work (the engine bounds a slice by the work it counts,
 * since workerd's clock does not move while code runs). It has two halves:
 * - a timer, which workerd fires only after polling its sockets, so requests that arrived while
 *   the slice ran are read and served before the job's next slice. A binding's I/O alone does
 *   not do that: a D1 read can complete without the event loop going back to the network, and
 *   a job pausing only that way kept new connections waiting for seconds (`pnpm bench`,
 *   scenario sql-contention);
 * - a trivial read of SNAPSHOTS, because a zero timer does not move workerd's clock, and the
 *   deadline is read from that clock: with the timer alone a job ran past its time limit.
 */
function fairPause(snapshots: D1Database, now: () => number, bounds: JobRunBounds) {
  const { heartbeat, signal } = bounds;
  let lastBeat = now();
  return async (): Promise<void> => {
    signal?.throwIfAborted();
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    await snapshots.prepare("SELECT 1").first();
    if (heartbeat && now() - lastBeat >= HEARTBEAT_MS) {
      lastBeat = now();
      await heartbeat();
    }
  };
}

/** Runs `plan` over SNAPSHOTS; the engine's run-time failures become the job's `error_message`. */
export async function* runJobSql(
  snapshots: D1Database,
  plan: Plan,
  bounds: JobRunBounds,
): AsyncGenerator<unknown[][]> {
  const now = bounds.now ?? Date.now;
  const started = now();
  try {
    yield* runPlan(plan, createSnapshotRowSource(snapshots), {
      deadline: started + bounds.timeLimitMs,
      timeLimitMs: bounds.timeLimitMs,
      maxRows: bounds.maxRows,
      now,
      pause: fairPause(snapshots, now, bounds),
    });
  } catch (error) {
    if (error instanceof SqlRunError) throw new JobFailure(error.message);
    throw error;
  }
}
