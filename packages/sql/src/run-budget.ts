/**
 * What a run may spend, counted where it is spent: time (the deadline), work (steps) and
 * memory (bytes of rows held).
 *
 * The executor cannot read the time while it computes (workerd's clock stands still while code
 * runs), so it counts work instead. A step is about the cost of one step of a regular
 * expression over one character (tens of nanoseconds at worst): a row handled is ROW_STEPS, a
 * character a function reads or writes is one step, a pattern over a value is its length times
 * its instructions. Every SLICE_STEPS the executor awaits `pause`, between two rows: the host
 * serves other requests meanwhile, and the deadline is checked then, with the clock moved.
 * One row cannot be paused in the middle, so the work of one row is bounded by
 * SQL_LIMITS.maxRowSteps, charged before the expensive part is done.
 */
import { SQL_LIMITS } from "./limits";
import type { WorkMeter } from "./plan-nodes";
import { limitExceeded, SqlRunError } from "./run-error";

/** The work of handling one row (evaluating a simple expression, grouping, comparing). */
export const ROW_STEPS = 32;

/** Steps of work between pauses: about 5,000 simple rows, a few milliseconds at most. */
export const SLICE_STEPS = 160_000;

/** Rows a sort orders in one piece before it pauses (array sort cannot be paused within). */
export const SORT_CHUNK = SLICE_STEPS / ROW_STEPS;

export interface BudgetOptions {
  deadline: number;
  timeLimitMs: number;
  now?: () => number;
  pause?: (busyMs: number) => Promise<void>;
}

/** The characters of a value a function reads or writes: its text, or its array's texts. */
export function textSteps(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (!Array.isArray(value)) return 0;
  let steps = value.length;
  for (const element of value) if (typeof element === "string") steps += element.length;
  return steps;
}

/**
 * Bytes a held value keeps alive, estimated: a character is a byte (V8 keeps ASCII text one
 * byte a character), a value slot 8 bytes, an array or object 16 bytes besides its slots.
 */
export function heldBytes(value: unknown): number {
  if (typeof value === "string") return 16 + value.length;
  if (value === null || typeof value !== "object") return 8;
  let bytes = 16;
  if (Array.isArray(value)) {
    for (const element of value) bytes += 8 + heldBytes(element);
  } else {
    for (const field of Object.values(value)) bytes += 8 + heldBytes(field);
  }
  return bytes;
}

export class RunBudget implements WorkMeter {
  readonly now: () => number;
  private lastResume: number;
  private steps = 0;
  private held = 0;

  constructor(private readonly options: BudgetOptions) {
    this.now = options.now ?? Date.now;
    this.lastResume = this.now();
  }

  /** Throws once the deadline has passed. */
  check(): void {
    if (this.now() > this.options.deadline) {
      throw new SqlRunError(`query exceeded the ${this.options.timeLimitMs / 1000} s time limit`);
    }
  }

  /** Yields to the host (with the time spent busy since the last pause), checking the deadline around it. */
  async pause(): Promise<void> {
    this.check();
    const busy = this.now() - this.lastResume;
    if (this.options.pause) await this.options.pause(busy);
    this.lastResume = this.now();
    this.steps = 0;
    this.check();
  }

  /**
   * Counts `steps` of work. The executor pauses between rows once a slice is spent, so more
   * than a slice plus SQL_LIMITS.maxRowSteps without a pause is one row's work past its bound.
   */
  charge(steps: number): void {
    this.steps += steps;
    if (this.steps > SLICE_STEPS + SQL_LIMITS.maxRowSteps) {
      throw limitExceeded("steps of work for one row", SQL_LIMITS.maxRowSteps, "maxRowSteps");
    }
  }

  /** Whether a slice of work is spent (the caller then awaits `pause` before the next row). */
  due(): boolean {
    return this.steps >= SLICE_STEPS;
  }

  /** Counts `bytes` more held in memory (fewer when negative); fails past SQL_LIMITS.maxHeldBytes. */
  hold(bytes: number): void {
    this.held += bytes;
    if (this.held > SQL_LIMITS.maxHeldBytes) {
      throw limitExceeded(
        "bytes held in memory by ORDER BY, GROUP BY, DISTINCT and JOIN",
        SQL_LIMITS.maxHeldBytes,
        "maxHeldBytes",
      );
    }
  }

  /** Counts `bytes` let go. */
  release(bytes: number): void {
    this.held -= bytes;
  }

  /** Bytes held now. */
  get heldNow(): number {
    return this.held;
  }
}
