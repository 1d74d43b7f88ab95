/**
 * The executor: runs a Plan over a RowSource in batches, with every bound of SQL_LIMITS
 * enforced. Work is counted where it is done (run-budget.ts): `pause` is awaited after every
 * scanned batch and, within a batch, between two rows whenever a slice of work is spent, so the
 * host serves other requests meanwhile and the deadline is checked every few milliseconds.
 *
 * A query without ORDER BY, GROUP BY or aggregates streams: output batches are yielded as scan
 * batches arrive, and the scan stops once LIMIT is reached. The others hold what they must
 * (groups, the first LIMIT + OFFSET rows, or every row, up to SQL_LIMITS.maxHeldBytes) and
 * yield at the end.
 */
import { SQL_LIMITS } from "./limits";
import type { InSet } from "./expressions";
import { runFrom, type RunContext } from "./from-run";
import { groupRows } from "./grouping-run";
import type { Plan } from "./plan";
import type { Env, OrderKey, QueryNode, Row, SelectNode, UnionNode } from "./plan-nodes";
import { ROW_STEPS, RunBudget } from "./run-budget";
import { limitExceeded, SqlRunError } from "./run-error";
import { keysOf, OrderedBuffer } from "./sorting";
import type { RowSource } from "./source";
import { rowKey, toOutputValue, valueKey } from "./values";

export { SqlRunError } from "./run-error";

export interface RunOptions {
  /** Epoch ms; past it the run fails with "query exceeded the N s time limit". */
  deadline: number;
  /** The limit the deadline came from, for the message. */
  timeLimitMs: number;
  now?: () => number;
  /** More output rows than this fail the run (no ORDER BY needed to notice). */
  maxRows: number;
  /** Rows asked per scan (default 2000). */
  batchRows?: number;
  /** Awaited after every batch and whenever a slice of work is spent, with the busy time since the last pause. */
  pause?: (busyMs: number) => Promise<void>;
}

/** Output rows, values per `plan.columns`. */
export type ResultBatch = unknown[][];

interface Shape {
  distinct: boolean;
  order: readonly OrderKey[];
  limit: number | null;
  offset: number;
}

interface Candidate {
  row: Row;
  keys: unknown[];
}

function tooManyRows(maxRows: number): SqlRunError {
  return new SqlRunError(`the result has more than ${maxRows} rows; narrow the query or use an export job`);
}

/**
 * `fn` of each row (rows it maps to undefined are dropped), in pieces: whenever a slice of work
 * is spent, the results so far are handed on and the run pauses before the next row.
 */
async function* sliced<T, U>(
  rows: readonly T[],
  fn: (row: T) => U | undefined,
  ctx: RunContext,
  rowSteps = ROW_STEPS,
): AsyncGenerator<U[]> {
  let out: U[] = [];
  for (const row of rows) {
    ctx.budget.charge(rowSteps);
    const result = fn(row);
    if (result !== undefined) out.push(result);
    if (ctx.budget.due()) {
      if (out.length) yield out;
      out = [];
      if (ctx.budget.due()) await ctx.budget.pause();
    }
  }
  if (out.length) yield out;
}

/**
 * DISTINCT, ORDER BY, OFFSET and LIMIT over candidate rows. Without ORDER BY it streams and
 * stops pulling once LIMIT rows are out. `cap` (the caller's maxRows, top level only) fails a
 * sort early once it holds more rows than may be output.
 */
async function* shapeRows(
  source: AsyncIterable<Candidate[]>,
  shape: Shape,
  ctx: RunContext,
  cap: number | null,
): AsyncGenerator<Row[]> {
  if (shape.limit === 0) return;
  if (!shape.distinct) {
    yield* shapeInOrder(source, shape, ctx, cap);
    return;
  }
  const seen = new Set<string>();
  let seenBytes = 0;
  const fresh = (candidate: Candidate): Candidate | undefined => {
    const key = rowKey(candidate.row);
    ctx.budget.charge(key.length);
    if (seen.has(key)) return undefined;
    seen.add(key);
    ctx.budget.hold(16 + key.length);
    seenBytes += 16 + key.length;
    if (seen.size > SQL_LIMITS.maxGroups)
      throw limitExceeded("distinct rows", SQL_LIMITS.maxGroups, "maxGroups");
    return candidate;
  };
  async function* distinct(): AsyncGenerator<Candidate[]> {
    for await (const batch of source) yield* sliced(batch, fresh, ctx, 0);
  }
  try {
    yield* shapeInOrder(distinct(), shape, ctx, cap);
  } finally {
    ctx.budget.release(seenBytes);
  }
}

/** ORDER BY, OFFSET and LIMIT over candidates already made distinct when they must be. */
async function* shapeInOrder(
  source: AsyncIterable<Candidate[]>,
  shape: Shape,
  ctx: RunContext,
  cap: number | null,
): AsyncGenerator<Row[]> {
  if (shape.order.length === 0) {
    let skipped = 0;
    let emitted = 0;
    for await (const batch of source) {
      const out: Row[] = [];
      for (const { row } of batch) {
        if (skipped < shape.offset) {
          skipped++;
          continue;
        }
        out.push(row);
        if (shape.limit !== null && ++emitted >= shape.limit) break;
      }
      if (out.length) yield out;
      if (shape.limit !== null && emitted >= shape.limit) return;
    }
    return;
  }
  const keep = shape.limit === null ? null : shape.limit + shape.offset;
  const buffer = new OrderedBuffer(shape.order, keep, ctx.budget, (rows) => {
    if (cap !== null && rows - shape.offset > cap) throw tooManyRows(cap);
  });
  try {
    for await (const batch of source) {
      for (const { row, keys } of batch) await buffer.add(row, keys);
    }
    const sorted = (await buffer.sorted()).slice(shape.offset);
    for (let start = 0; start < sorted.length; start += ctx.batchRows) {
      yield sorted.slice(start, start + ctx.batchRows).map((item) => item.row);
    }
  } finally {
    buffer.close();
  }
}

async function* frames(node: SelectNode, ctx: RunContext): AsyncGenerator<Row[]> {
  if (!node.from) {
    yield [new Array<unknown>(node.slots).fill(null)];
    return;
  }
  const where = node.where;
  for await (const batch of runFrom(node.from, node.slots, ctx)) {
    if (!where) yield batch;
    else yield* sliced(batch, (frame) => (where(frame, ctx.env) === true ? frame : undefined), ctx);
  }
}

async function* selectCandidates(
  node: SelectNode,
  ctx: RunContext,
  cap: number | null,
): AsyncGenerator<Candidate[]> {
  const env = ctx.env;
  const candidate = (source: Row): Candidate => ({
    row: node.outputs.map((output) => output(source, env)),
    keys: keysOf(node.order, source, env),
  });
  if (!node.grouping) {
    for await (const batch of frames(node, ctx)) yield* sliced(batch, candidate, ctx);
    return;
  }
  const watched = !node.grouping.having && !node.distinct && node.limit === null ? cap : null;
  const grouped = await groupRows(node.grouping, frames(node, ctx), env, ctx.budget, (groups) => {
    if (watched !== null && groups - node.offset > watched) throw tooManyRows(watched);
  });
  try {
    const records = grouped.records;
    for (let start = 0; start < records.length; start += ctx.batchRows) {
      yield* sliced(records.slice(start, start + ctx.batchRows), candidate, ctx);
      await ctx.budget.pause();
    }
  } finally {
    ctx.budget.release(grouped.bytes);
  }
}

async function* unionCandidates(node: UnionNode, ctx: RunContext): AsyncGenerator<Candidate[]> {
  for (const query of node.queries) {
    for await (const rows of runQuery(query, ctx, null))
      yield rows.map((row) => ({ row, keys: keysOf(node.order, row, ctx.env) }));
  }
}

/** A query's rows in engine form (timestamps as epoch ms). */
function runQuery(node: QueryNode, ctx: RunContext, cap: number | null): AsyncGenerator<Row[]> {
  const candidates = node.kind === "select" ? selectCandidates(node, ctx, cap) : unionCandidates(node, ctx);
  return shapeRows(candidates, node, ctx, cap);
}

async function answerSubqueries(plan: Plan, ctx: RunContext): Promise<void> {
  for (const subquery of plan.subqueries) {
    let answer: unknown;
    if (subquery.use === "exists") {
      answer = false;
      for await (const rows of runQuery(subquery.query, ctx, null)) {
        if (rows.length) {
          answer = true;
          break;
        }
      }
    } else if (subquery.use === "scalar") {
      answer = null;
      let count = 0;
      for await (const rows of runQuery(subquery.query, ctx, null)) {
        for (const row of rows) {
          if (++count > 1) throw new SqlRunError("Scalar subquery produced more than one element");
          answer = row[0] ?? null;
        }
      }
    } else {
      const set: InSet = { keys: new Set(), hasNull: false };
      for await (const rows of runQuery(subquery.query, ctx, null)) {
        for (const row of rows) {
          const value = row[0];
          if (value === null || value === undefined) set.hasNull = true;
          else {
            // Held for the whole run: the query reads the set on every row.
            const key = valueKey(value);
            if (!set.keys.has(key)) ctx.budget.hold(16 + key.length);
            set.keys.add(key);
          }
          if (set.keys.size > SQL_LIMITS.maxDistinct)
            throw limitExceeded("values in an IN subquery", SQL_LIMITS.maxDistinct, "maxDistinct");
        }
      }
      answer = set;
    }
    ctx.env.subqueries.push(answer);
  }
}

/** Runs `plan`, yielding batches of output rows (values per `plan.columns`). */
export async function* runPlan(
  plan: Plan,
  source: RowSource,
  options: RunOptions,
): AsyncGenerator<ResultBatch> {
  const budget = new RunBudget(options);
  const env: Env = { subqueries: [], now: budget.now(), meter: budget };
  const ctx: RunContext = {
    source,
    budget,
    env,
    batchRows: options.batchRows ?? 2000,
    run: (query) => runQuery(query, ctx, null),
  };
  budget.check();
  await answerSubqueries(plan, ctx);
  const columns = plan.columns;
  let count = 0;
  for await (const rows of runQuery(plan.root, ctx, options.maxRows)) {
    count += rows.length;
    if (count > options.maxRows) throw tooManyRows(options.maxRows);
    yield rows.map((row) => columns.map((column, i) => toOutputValue(row[i], column.type)));
  }
}
