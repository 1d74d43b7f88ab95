/**
 * Collapses concurrent work on one key into one call: the first caller (the leader) runs it,
 * the others wait for its result. Per isolate; that is where concurrent misses meet.
 */
export class SingleFlight<T> {
  private readonly inFlight = new Map<string, Promise<T>>();

  async run(key: string, work: () => Promise<T>): Promise<{ value: T; leader: boolean }> {
    const existing = this.inFlight.get(key);
    if (existing) return { value: await existing, leader: false };
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
  async runMany<R>(keys: readonly string[], work: () => Promise<R>, pick: (result: R, key: string) => T): Promise<R> {
    const shared = work();
    for (const key of keys) {
      const forKey = shared.then((result) => pick(result, key));
      // Joiners see the failure; with no joiner it must not surface as an unhandled rejection.
      forKey.catch(() => undefined);
      this.inFlight.set(key, forKey);
    }
    try {
      return await shared;
    } finally {
      for (const key of keys) this.inFlight.delete(key);
    }
  }
}
