/**
 * ORDER BY over rows held in memory: a stable merge sort that pauses between slices of work,
 * and a buffer that keeps only the first LIMIT + OFFSET rows when there is a LIMIT.
 *
 * NULLs sort first ascending and last descending (BigQuery's default) unless NULLS FIRST/LAST
 * says otherwise; equal rows keep their input order.
 */
import { SQL_LIMITS } from "./limits";
import type { Env, OrderKey, Row } from "./plan-nodes";
import type { RunClock } from "./run-clock";
import { SLICE } from "./run-clock";
import { limitExceeded } from "./run-error";
import { compareValues } from "./values";

export interface Sortable {
  row: Row;
  keys: unknown[];
  seq: number;
}

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

/** Sorts `items` in slices of SLICE, pausing between them. */
export async function sortRows(
  items: Sortable[],
  order: readonly OrderKey[],
  clock: RunClock,
): Promise<Sortable[]> {
  const compare = comparator(order);
  let source = items.slice();
  for (let start = 0; start < source.length; start += SLICE) {
    const chunk = source.slice(start, start + SLICE).sort(compare);
    for (let i = 0; i < chunk.length; i++) source[start + i] = chunk[i] as Sortable;
    if (source.length > SLICE) await clock.pause();
  }
  for (let width = SLICE; width < source.length; width *= 2) {
    const target: Sortable[] = new Array<Sortable>(source.length);
    let done = 0;
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
        if (++done % SLICE === 0) await clock.pause();
      }
    }
    source = target;
  }
  return source;
}

/**
 * Rows waiting for ORDER BY. With `keep` (LIMIT + OFFSET) it holds at most about twice that,
 * pruning to the best `keep`; without, it holds every row up to SQL_LIMITS.maxHeldRows.
 * `onGrow` sees the number of rows the query will output so far (the caller's maxRows check).
 */
export class OrderedBuffer {
  private items: Sortable[] = [];
  private seq = 0;
  private readonly threshold: number;

  constructor(
    private readonly order: readonly OrderKey[],
    private readonly keep: number | null,
    private readonly clock: RunClock,
    private readonly onGrow: (rows: number) => void,
  ) {
    this.threshold =
      keep === null
        ? Number.POSITIVE_INFINITY
        : Math.max(keep + 1, Math.min(2 * keep + SLICE, SQL_LIMITS.maxHeldRows));
  }

  async add(row: Row, keys: unknown[]): Promise<void> {
    this.items.push({ row, keys, seq: this.seq++ });
    if (this.items.length > SQL_LIMITS.maxHeldRows) {
      throw limitExceeded("rows held for ORDER BY", SQL_LIMITS.maxHeldRows, "maxHeldRows");
    }
    this.onGrow(Math.min(this.items.length, this.keep ?? Number.POSITIVE_INFINITY));
    if (this.items.length >= this.threshold) {
      this.items = (await sortRows(this.items, this.order, this.clock)).slice(0, this.keep ?? undefined);
    }
    if (this.clock.due()) await this.clock.pause();
  }

  async sorted(): Promise<Sortable[]> {
    const sorted = await sortRows(this.items, this.order, this.clock);
    return this.keep === null ? sorted : sorted.slice(0, this.keep);
  }
}
