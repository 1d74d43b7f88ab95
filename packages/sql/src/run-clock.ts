/**
 * The executor's sense of time: the deadline, and the pauses that let the host serve other
 * requests. Work is counted in units (rows held, compared, merged); every `SLICE` units, and
 * after every scanned batch, the executor awaits `pause` and checks the deadline.
 */
import { SqlRunError } from "./run-error";

/** Units of synchronous in-memory work between pauses. */
export const SLICE = 5_000;

export interface ClockOptions {
  deadline: number;
  timeLimitMs: number;
  now?: () => number;
  pause?: (busyMs: number) => Promise<void>;
}

export class RunClock {
  readonly now: () => number;
  private lastResume: number;
  private units = 0;

  constructor(private readonly options: ClockOptions) {
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
    this.units = 0;
    this.check();
  }

  /** Counts `units` of work; true when a pause is due (the caller then awaits `pause`). */
  due(units = 1): boolean {
    this.units += units;
    return this.units >= SLICE;
  }
}
