/**
 * The executor: runs a Plan over a RowSource in batches, with every bound of SQL_LIMITS
 * enforced, the deadline checked, and `pause` awaited after every scanned batch and between
 * slices of in-memory work, so the host can serve other requests meanwhile.
 *
 * A query without ORDER BY, GROUP BY or aggregates streams: output batches are yielded as scan
 * batches arrive, and the scan stops once LIMIT is reached. The others hold what they must
 * (groups, the first LIMIT + OFFSET rows, or every row up to maxHeldRows) and yield at the end.
 */
import { SQL_LIMITS } from "./limits";
import type { InSet } from "./expressions";
import { runFrom, type RunContext } from "./from-run";
import { groupRows } from "./grouping-run";
import type { Plan } from "./plan";
import type { Env, OrderKey, QueryNode, Row, SelectNode, UnionNode } from "./plan-nodes";
import { RunClock } from "./run-clock";
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
  /** Awaited between batches and between slices of in-memory work, with the busy time since the last pause. */
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
  const seen = shape.distinct ? new Set<string>() : null;
  const fresh = (row: Row): boolean => {
    if (!seen) return true;
    const key = rowKey(row);
    if (seen.has(key)) return false;
    seen.add(key);
    if (seen.size > SQL_LIMITS.maxGroups)
      throw limitExceeded("distinct rows", SQL_LIMITS.maxGroups, "maxGroups");
    return true;
  };
  if (shape.order.length === 0) {
    let skipped = 0;
    let emitted = 0;
    for await (const batch of source) {
      const out: Row[] = [];
      for (const { row } of batch) {
        if (!fresh(row)) continue;
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
  const buffer = new OrderedBuffer(shape.order, keep, ctx.clock, (rows) => {
    if (cap !== null && rows - shape.offset > cap) throw tooManyRows(cap);
  });
  for await (const batch of source) {
    for (const { row, keys } of batch) if (fresh(row)) await buffer.add(row, keys);
  }
  const sorted = (await buffer.sorted()).slice(shape.offset);
  for (let start = 0; start < sorted.length; start += ctx.batchRows) {
    yield sorted.slice(start, start + ctx.batchRows).map((item) => item.row);
  }
}

async function* frames(node: SelectNode, ctx: RunContext): AsyncGenerator<Row[]> {
  if (!node.from) {
    yield [new Array<unknown>(node.slots).fill(null)];
    return;
  }
  for await (const batch of runFrom(node.from, node.slots, ctx)) {
    const where = node.where;
    const kept = where ? batch.filter((frame) => where(frame, ctx.env) === true) : batch;
    if (kept.length) yield kept;
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
    for await (const batch of frames(node, ctx)) yield batch.map(candidate);
    return;
  }
  const watched = !node.grouping.having && !node.distinct && node.limit === null ? cap : null;
  const records = await groupRows(node.grouping, frames(node, ctx), env, ctx.clock, (groups) => {
    if (watched !== null && groups - node.offset > watched) throw tooManyRows(watched);
  });
  for (let start = 0; start < records.length; start += ctx.batchRows) {
    yield records.slice(start, start + ctx.batchRows).map(candidate);
    await ctx.clock.pause();
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
          else set.keys.add(valueKey(value));
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
  const clock = new RunClock(options);
  const env: Env = { subqueries: [], now: clock.now() };
  const ctx: RunContext = {
    source,
    clock,
    env,
    batchRows: options.batchRows ?? 2000,
    run: (query) => runQuery(query, ctx, null),
  };
  clock.check();
  await answerSubqueries(plan, ctx);
  const columns = plan.columns;
  let count = 0;
  for await (const rows of runQuery(plan.root, ctx, options.maxRows)) {
    count += rows.length;
    if (count > options.maxRows) throw tooManyRows(options.maxRows);
    yield rows.map((row) => columns.map((column, i) => toOutputValue(row[i], column.type)));
  }
}
