/**
 * Waits for a flight another request leads, for at most `ms`. The wait holds a timer of the
 * waiting request's own: workerd cancels a request as hung when all it waits for belongs to
 * another request (seen under load as a 500 "code had hung"), and a pending timer of its own
 * keeps it alive. A flight that has not ended by then is given up on, not waited for forever.
 */
export async function awaitFlight<T>(
  flight: Promise<T>,
  ms: number,
): Promise<{ ended: true; value: T } | { ended: false }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<{ ended: false }>((resolve) => {
    timer = setTimeout(() => resolve({ ended: false }), ms);
  });
  try {
    return await Promise.race([flight.then((value) => ({ ended: true as const, value })), gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Collapses concurrent work on one key into one call: the first caller (the leader) runs it,
 * the others wait for its result. Per isolate; that is where concurrent misses meet. A waiter
 * whose leader has not finished within `joinWaitMs` (longer than any upstream call may take)
 * does the work itself.
 */
export class SingleFlight<T> {
  private readonly inFlight = new Map<string, Promise<T>>();

  constructor(readonly joinWaitMs: number) {}

  async run(key: string, work: () => Promise<T>): Promise<{ value: T; leader: boolean }> {
    const existing = this.inFlight.get(key);
    if (existing) {
      const joined = await awaitFlight(existing, this.joinWaitMs);
      if (joined.ended) return { value: joined.value, leader: false };
      return { value: await work(), leader: true };
    }
    const flight = work();
    this.inFlight.set(key, flight);
    try {
      return { value: await flight, leader: true };
    } finally {
      this.inFlight.delete(key);
    }
  }

  /** The flight already under way for `key`, if any. */
  joining(key: string): Promise<T> | undefined {
    return this.inFlight.get(key);
  }

  /** Registers one shared piece of work under several keys (a bulk call for many fingerprints). */
  async runMany(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const shared = work();
    // Joiners see the failure; with no joiner it must not surface as an unhandled rejection.
    shared.catch(() => undefined);
    for (const key of keys) this.inFlight.set(key, shared);
    try {
      return await shared;
    } finally {
      for (const key of keys) this.inFlight.delete(key);
    }
  }
}
