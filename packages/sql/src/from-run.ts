/**
 * Running FROM: the first relation scanned in batches (pausing after each), its rows expanded
 * by flattening and UNNEST, and matched against each join's build side, held in a hash table
 * (its bytes held on the run's budget). Frames flow in chunks, so a consumer that stops early
 * (LIMIT) stops the scan.
 */
import { SQL_LIMITS } from "./limits";
import type { Env, ExpandNode, FromNode, JoinNode, QueryNode, RelationNode, Row } from "./plan-nodes";
import { heldBytes, ROW_STEPS, type RunBudget } from "./run-budget";
import { limitExceeded } from "./run-error";
import type { RowSource } from "./source";
import { rowKey } from "./values";

export interface RunContext {
  source: RowSource;
  budget: RunBudget;
  env: Env;
  batchRows: number;
  /** Runs a (derived) query, yielding its rows in engine form. */
  run(query: QueryNode): AsyncGenerator<Row[]>;
}

/** The rows of one relation as frames of `slots` slots. */
async function* relationFrames(
  relation: RelationNode,
  slots: number,
  ctx: RunContext,
): AsyncGenerator<Row[]> {
  const frame = (value: unknown): Row => {
    const row: Row = new Array<unknown>(slots).fill(null);
    row[relation.slot] = value;
    return row;
  };
  if (relation.kind === "derived") {
    for await (const rows of ctx.run(relation.query)) yield rows.map(frame);
    return;
  }
  let after: string | null = null;
  do {
    ctx.budget.check();
    const batch = await ctx.source.scan({
      table: relation.table,
      columns: relation.columns,
      hints: relation.hints,
      after,
      batchRows: ctx.batchRows,
    });
    if (batch.rows.length) yield batch.rows.map(frame);
    after = batch.next;
    await ctx.budget.pause();
  } while (after !== null);
}

/**
 * Rows a step hands on at a time. A join or an UNNEST can multiply a batch many times over, so
 * its output is cut into chunks, each processed downstream before the next is made, with a
 * pause between them when a slice of work is spent: no step holds the isolate for longer than
 * one slice. A chunk also ends when the slice does (an expensive filter keeps few rows).
 */
const CHUNK_ROWS = 1_000;

/** One frame per element of each frame's array (see ExpandNode), in chunks. */
function* expand(frames: readonly Row[], node: ExpandNode, env: Env, budget: RunBudget): Generator<Row[]> {
  let out: Row[] = [];
  let examined = 0;
  for (const frame of frames) {
    if (budget.due()) {
      yield out;
      out = [];
      examined = 0;
    }
    const elements = node.array(frame, env);
    let kept = false;
    if (Array.isArray(elements)) {
      for (let i = 0; i < elements.length; i++) {
        // A selective filter keeps few rows: the work is the elements examined, not the rows kept.
        if (++examined >= CHUNK_ROWS || budget.due()) {
          yield out;
          out = [];
          examined = 0;
        }
        budget.charge(ROW_STEPS);
        const row = frame.slice();
        row[node.slot] = elements[i] ?? null;
        if (node.offsetSlot !== null) row[node.offsetSlot] = i;
        if (node.filter && node.filter(row, env) !== true) continue;
        out.push(row);
        kept = true;
      }
    }
    if (!kept && node.keepEmpty) {
      const row = frame.slice();
      row[node.slot] = null;
      if (node.offsetSlot !== null) row[node.offsetSlot] = null;
      out.push(row);
    }
    if (out.length >= CHUNK_ROWS) {
      yield out;
      out = [];
    }
  }
  if (out.length) yield out;
}

/** The rows of `frames` expanded by each of `nodes` in turn, chunk by chunk (build sides). */
function* expandEach(
  frames: Row[],
  nodes: readonly ExpandNode[],
  env: Env,
  budget: RunBudget,
  index = 0,
): Generator<Row[]> {
  const node = nodes[index];
  if (!node) {
    yield frames;
    return;
  }
  for (const chunk of expand(frames, node, env, budget))
    yield* expandEach(chunk, nodes, env, budget, index + 1);
}

interface BuiltJoin {
  node: JoinNode;
  table: Map<string, Row[]>;
  produced: number;
  /** Bytes the table holds on the run's budget. */
  bytes: number;
}

function keyOf(
  keys: readonly ((row: Row, env: Env) => unknown)[],
  row: Row,
  env: Env,
  budget: RunBudget,
): string | null {
  const values = keys.map((key) => key(row, env));
  if (values.some((v) => v === null || v === undefined)) return null;
  const key = rowKey(values);
  budget.charge(ROW_STEPS + key.length);
  return key;
}

/**
 * The right side of a join in a hash table. A source row is held once however many rows its
 * expansion makes (they share it); each held row adds its slots and its key.
 */
async function build(node: JoinNode, slots: number, ctx: RunContext): Promise<BuiltJoin> {
  const join: BuiltJoin = { node, table: new Map(), produced: 0, bytes: 0 };
  const hold = (bytes: number) => {
    ctx.budget.hold(bytes);
    join.bytes += bytes;
  };
  try {
    for await (const frames of relationFrames(node.relation, slots, ctx)) {
      for (const frame of frames) {
        let framesHeld = false;
        for (const chunk of expandEach([frame], node.expand, ctx.env, ctx.budget)) {
          for (const row of chunk) {
            const key = keyOf(node.rightKeys, row, ctx.env, ctx.budget);
            if (key === null) continue;
            if (!framesHeld) hold(heldBytes(frame));
            framesHeld = true;
            hold(32 + 8 * slots + key.length);
            const bucket = join.table.get(key);
            if (bucket) bucket.push(row);
            else join.table.set(key, [row]);
          }
          if (ctx.budget.due()) await ctx.budget.pause();
        }
      }
    }
  } catch (error) {
    ctx.budget.release(join.bytes);
    throw error;
  }
  return join;
}

/** The joined rows of `frames`, in chunks. */
function* probe(frames: readonly Row[], join: BuiltJoin, env: Env, budget: RunBudget): Generator<Row[]> {
  const { node, table } = join;
  let out: Row[] = [];
  let examined = 0;
  for (const frame of frames) {
    if (budget.due()) {
      yield out;
      out = [];
      examined = 0;
    }
    const key = keyOf(node.leftKeys, frame, env, budget);
    let matched = false;
    for (const match of key === null ? [] : (table.get(key) ?? [])) {
      // A selective ON condition keeps few pairs: the work is the pairs examined, not the rows kept.
      if (++examined >= CHUNK_ROWS || budget.due()) {
        yield out;
        out = [];
        examined = 0;
      }
      budget.charge(ROW_STEPS);
      const row = frame.slice();
      for (const slot of node.rightSlots) row[slot] = match[slot];
      if (node.residual && node.residual(row, env) !== true) continue;
      matched = true;
      out.push(row);
      if (++join.produced > SQL_LIMITS.maxJoinRows)
        throw limitExceeded("rows from one JOIN", SQL_LIMITS.maxJoinRows, "maxJoinRows");
      if (out.length >= CHUNK_ROWS) {
        yield out;
        out = [];
      }
    }
    if (!matched && node.left) {
      const row = frame.slice();
      for (const slot of node.rightSlots) row[slot] = null;
      out.push(row);
    }
  }
  if (out.length) yield out;
}

/** The frames of a FROM, in chunks of at most CHUNK_ROWS once a join or UNNEST multiplies them. */
export async function* runFrom(from: FromNode, slots: number, ctx: RunContext): AsyncGenerator<Row[]> {
  const joins = new Map<JoinNode, BuiltJoin>();
  try {
    for (const step of from.steps)
      if (step.kind === "join") joins.set(step.join, await build(step.join, slots, ctx));
    for await (const scanned of relationFrames(from.first, slots, ctx)) {
      yield* through(scanned, from.firstExpand, 0);
    }
  } finally {
    for (const join of joins.values()) ctx.budget.release(join.bytes);
  }

  async function* through(frames: Row[], nodes: readonly ExpandNode[], index: number): AsyncGenerator<Row[]> {
    if (index < nodes.length) {
      for (const chunk of expand(frames, nodes[index] as ExpandNode, ctx.env, ctx.budget)) {
        if (chunk.length) yield* through(chunk, nodes, index + 1);
        if (ctx.budget.due()) await ctx.budget.pause();
      }
      return;
    }
    yield* steps(frames, 0);
  }

  async function* steps(frames: Row[], index: number): AsyncGenerator<Row[]> {
    const step = from.steps[index];
    if (!step) {
      if (frames.length) yield frames;
      return;
    }
    const chunks =
      step.kind === "expand"
        ? expand(frames, step.expand, ctx.env, ctx.budget)
        : probe(frames, joins.get(step.join) as BuiltJoin, ctx.env, ctx.budget);
    for (const chunk of chunks) {
      if (chunk.length) yield* steps(chunk, index + 1);
      if (ctx.budget.due()) await ctx.budget.pause();
    }
  }
}
