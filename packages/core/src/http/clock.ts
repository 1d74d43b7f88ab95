/** Time as a worker sees it; tests swap in a clock they move by hand. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
