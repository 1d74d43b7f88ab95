/**
 * Running FROM: the first relation scanned in batches (pausing after each), its rows expanded
 * by flattening and UNNEST, and matched against each join's build side, held in a hash table.
 * Frames flow batch by batch, so a consumer that stops early (LIMIT) stops the scan.
 */
import { SQL_LIMITS } from "./limits";
import type { Env, ExpandNode, FromNode, JoinNode, QueryNode, RelationNode, Row } from "./plan-nodes";
import type { RunClock } from "./run-clock";
import { limitExceeded } from "./run-error";
import type { RowSource } from "./source";
import { rowKey } from "./values";

export interface RunContext {
  source: RowSource;
  clock: RunClock;
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
    ctx.clock.check();
    const batch = await ctx.source.scan({
      table: relation.table,
      columns: relation.columns,
      hints: relation.hints,
      after,
      batchRows: ctx.batchRows,
    });
    if (batch.rows.length) yield batch.rows.map(frame);
    after = batch.next;
    await ctx.clock.pause();
  } while (after !== null);
}

/**
 * Rows a step hands on at a time. A join or an UNNEST can multiply a batch many times over, so
 * its output is cut into chunks, each processed downstream before the next is made, with a
 * pause between them: no step holds the isolate for longer than one chunk's work.
 */
const CHUNK_ROWS = 1_000;

/** One frame per element of each frame's array (see ExpandNode), in chunks. */
function* expand(frames: readonly Row[], node: ExpandNode, env: Env): Generator<Row[]> {
  let out: Row[] = [];
  let examined = 0;
  for (const frame of frames) {
    const elements = node.array(frame, env);
    let kept = false;
    if (Array.isArray(elements)) {
      for (let i = 0; i < elements.length; i++) {
        // A selective filter keeps few rows: the work is the elements examined, not the rows kept.
        if (++examined >= CHUNK_ROWS) {
          yield out;
          out = [];
          examined = 0;
        }
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

/** Every row of `frames` expanded by each of `nodes` in turn, materialised (build sides only). */
function expandAll(frames: Row[], nodes: readonly ExpandNode[], env: Env): Row[] {
  return nodes.reduce<Row[]>((rows, node) => {
    const out: Row[] = [];
    for (const chunk of expand(rows, node, env)) {
      for (const row of chunk) out.push(row);
      if (out.length > SQL_LIMITS.maxJoinRows)
        throw limitExceeded("rows from the UNNEST of one batch", SQL_LIMITS.maxJoinRows, "maxJoinRows");
    }
    return out;
  }, frames);
}

interface BuiltJoin {
  node: JoinNode;
  table: Map<string, Row[]>;
  produced: number;
}

function keyOf(keys: readonly ((row: Row, env: Env) => unknown)[], row: Row, env: Env): string | null {
  const values = keys.map((key) => key(row, env));
  return values.some((v) => v === null || v === undefined) ? null : rowKey(values);
}

async function build(node: JoinNode, slots: number, ctx: RunContext): Promise<BuiltJoin> {
  const table = new Map<string, Row[]>();
  let held = 0;
  for await (const frames of relationFrames(node.relation, slots, ctx)) {
    for (const row of expandAll(frames, node.expand, ctx.env)) {
      const key = keyOf(node.rightKeys, row, ctx.env);
      if (key === null) continue;
      if (++held > SQL_LIMITS.maxHeldRows)
        throw limitExceeded("rows on the right side of a JOIN", SQL_LIMITS.maxHeldRows, "maxHeldRows");
      const bucket = table.get(key);
      if (bucket) bucket.push(row);
      else table.set(key, [row]);
    }
  }
  return { node, table, produced: 0 };
}

/** The joined rows of `frames`, in chunks. */
function* probe(frames: readonly Row[], join: BuiltJoin, env: Env): Generator<Row[]> {
  const { node, table } = join;
  let out: Row[] = [];
  let examined = 0;
  for (const frame of frames) {
    const key = keyOf(node.leftKeys, frame, env);
    let matched = false;
    for (const match of key === null ? [] : (table.get(key) ?? [])) {
      // A selective ON condition keeps few pairs: the work is the pairs examined, not the rows kept.
      if (++examined >= CHUNK_ROWS) {
        yield out;
        out = [];
        examined = 0;
      }
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
  for (const step of from.steps)
    if (step.kind === "join") joins.set(step.join, await build(step.join, slots, ctx));

  async function* through(frames: Row[], nodes: readonly ExpandNode[], index: number): AsyncGenerator<Row[]> {
    if (index < nodes.length) {
      for (const chunk of expand(frames, nodes[index] as ExpandNode, ctx.env)) {
        if (chunk.length) yield* through(chunk, nodes, index + 1);
        // Each chunk is up to CHUNK_ROWS of work however few rows it kept.
        if (ctx.clock.due(CHUNK_ROWS)) await ctx.clock.pause();
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
        ? expand(frames, step.expand, ctx.env)
        : probe(frames, joins.get(step.join) as BuiltJoin, ctx.env);
    for (const chunk of chunks) {
      if (chunk.length) yield* steps(chunk, index + 1);
      // Each chunk is up to CHUNK_ROWS of work however few rows it kept.
      if (ctx.clock.due(CHUNK_ROWS)) await ctx.clock.pause();
    }
  }

  for await (const scanned of relationFrames(from.first, slots, ctx)) {
    yield* through(scanned, from.firstExpand, 0);
  }
}
