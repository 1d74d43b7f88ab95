/**
 * ORDER BY over rows held in memory: a stable merge sort that pauses between slices of work,
 * and a buffer that keeps only the first LIMIT + OFFSET rows when there is a LIMIT.
 *
 * NULLs sort first ascending and last descending (BigQuery's default) unless NULLS FIRST/LAST
 * says otherwise; equal rows keep their input order.
 */
import { SQL_LIMITS } from "./limits";
import type { Env, OrderKey, Row } from "./plan-nodes";
import { heldBytes, ROW_STEPS, SORT_CHUNK, type RunBudget } from "./run-budget";
import { compareValues } from "./values";

export interface Sortable {
  row: Row;
  keys: unknown[];
  seq: number;
  /** What the buffer counted as held for it. */
  bytes: number;
}

/** A comparison in a merge, in steps: comparing two keys costs less than handling a row. */
const COMPARE_STEPS = ROW_STEPS / 4;

export function keysOf(order: readonly OrderKey[], source: Row, env: Env): unknown[] {
  return order.map((key) => key.evaluate(source, env));
}

function comparator(order: readonly OrderKey[]): (a: Sortable, b: Sortable) => number {
  return (a, b) => {
    for (let i = 0; i < order.length; i++) {
      const key = order[i] as OrderKey;
      const x = a.keys[i];
      const y = b.keys[i];
      const xNull = x === null || x === undefined;
      const yNull = y === null || y === undefined;
      let c: number;
      if (xNull || yNull) {
        if (xNull && yNull) continue;
        c = xNull === key.nullsFirst ? -1 : 1;
      } else {
        c = compareValues(x, y);
        if (key.descending) c = -c;
      }
      if (c !== 0) return c;
    }
    return a.seq - b.seq;
  };
}

/** Sorts `items` in pieces of SORT_CHUNK, then merges them, pausing whenever a slice of work is spent. */
export async function sortRows(
  items: Sortable[],
  order: readonly OrderKey[],
  budget: RunBudget,
): Promise<Sortable[]> {
  const compare = comparator(order);
  let source = items.slice();
  for (let start = 0; start < source.length; start += SORT_CHUNK) {
    const chunk = source.slice(start, start + SORT_CHUNK).sort(compare);
    for (let i = 0; i < chunk.length; i++) source[start + i] = chunk[i] as Sortable;
    budget.charge(chunk.length * ROW_STEPS);
    if (budget.due()) await budget.pause();
  }
  for (let width = SORT_CHUNK; width < source.length; width *= 2) {
    const target: Sortable[] = new Array<Sortable>(source.length);
    for (let left = 0; left < source.length; left += 2 * width) {
      const mid = Math.min(left + width, source.length);
      const end = Math.min(left + 2 * width, source.length);
      let i = left;
      let j = mid;
      let k = left;
      while (i < mid || j < end) {
        if (j >= end || (i < mid && compare(source[i] as Sortable, source[j] as Sortable) <= 0))
          target[k++] = source[i++] as Sortable;
        else target[k++] = source[j++] as Sortable;
        budget.charge(COMPARE_STEPS);
        if (budget.due()) await budget.pause();
      }
    }
    source = target;
  }
  return source;
}

/**
 * Rows waiting for ORDER BY, their bytes held on the run's budget (SQL_LIMITS.maxHeldBytes).
 * With `keep` (LIMIT + OFFSET) it prunes to the best `keep` rows whenever it holds about twice
 * that, or half the bytes a run may hold; without, it holds every row.
 * `onGrow` sees the number of rows the query will output so far (the caller's maxRows check).
 */
export class OrderedBuffer {
  private items: Sortable[] = [];
  private seq = 0;
  private bytes = 0;
  /** Rows that make it prune. */
  private readonly threshold: number;
  /** Rows that make it prune when it holds half the bytes a run may (fewer would sort too often). */
  private readonly bytesThreshold: number;

  constructor(
    private readonly order: readonly OrderKey[],
    private readonly keep: number | null,
    private readonly budget: RunBudget,
    private readonly onGrow: (rows: number) => void,
  ) {
    this.threshold = keep === null ? Number.POSITIVE_INFINITY : 2 * keep + SORT_CHUNK;
    this.bytesThreshold = keep === null ? Number.POSITIVE_INFINITY : Math.ceil(1.5 * keep) + 1;
  }

  async add(row: Row, keys: unknown[]): Promise<void> {
    const bytes = 32 + heldBytes(row) + heldBytes(keys);
    this.budget.charge(ROW_STEPS);
    this.hold(bytes);
    this.items.push({ row, keys, seq: this.seq++, bytes });
    this.onGrow(Math.min(this.items.length, this.keep ?? Number.POSITIVE_INFINITY));
    const count = this.items.length;
    if (
      count >= this.threshold ||
      (count >= this.bytesThreshold && this.bytes > SQL_LIMITS.maxHeldBytes / 2)
    ) {
      this.items = this.prune(await sortRows(this.items, this.order, this.budget));
    }
    if (this.budget.due()) await this.budget.pause();
  }

  /** The rows in order (the first `keep` with a LIMIT). The caller calls `close` once done with them. */
  async sorted(): Promise<Sortable[]> {
    return this.prune(await sortRows(this.items, this.order, this.budget));
  }

  /** Lets go of every row it held. */
  close(): void {
    this.budget.release(this.bytes);
    this.bytes = 0;
    this.items = [];
  }

  private hold(bytes: number): void {
    this.budget.hold(bytes);
    this.bytes += bytes;
  }

  /** The first `keep` of sorted rows; the bytes of the others are let go. */
  private prune(sorted: Sortable[]): Sortable[] {
    if (this.keep === null || sorted.length <= this.keep) return sorted;
    let dropped = 0;
    for (let i = this.keep; i < sorted.length; i++) dropped += (sorted[i] as Sortable).bytes;
    this.budget.release(dropped);
    this.bytes -= dropped;
    return sorted.slice(0, this.keep);
  }
}
