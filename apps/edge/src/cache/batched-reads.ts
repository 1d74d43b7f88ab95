import { type CachedDocument, type DocumentKey, documentKeyOf } from "./interface";
import { awaitFlight } from "./single-flight";

/** A key binds 3 parameters: 33 keys stay under D1's 100 per statement. */
export const KEYS_PER_READ = 33;

/**
 * How long a read waits for a statement another request runs before it reads alone: longer
 * than a D1 statement takes, short enough that a request whose reader was cancelled (its client
 * went away) does not wait long for it.
 */
export const READ_JOIN_WAIT_MS = 2000;

/** One statement's worth of reads: its keys, and the rows it found once run. */
class Batch {
  readonly keys = new Map<string, DocumentKey>();
  readonly found: Promise<Map<string, CachedDocument>>;
  settle!: (rows: Promise<Map<string, CachedDocument>>) => void;

  constructor() {
    this.found = new Promise((resolve) => {
      this.settle = resolve;
    });
    // Joiners see a failure; with none it must not surface as an unhandled rejection.
    this.found.catch(() => undefined);
  }
}

/**
 * Group commit for single-document reads: one D1 read statement runs at a time per isolate, and
 * the reads that arrive while it runs go together in the next one. A read on an idle isolate
 * runs at once and alone, so nothing waits for a batch to fill; under load each statement
 * answers every read queued behind the one before it. A D1 statement costs the same for one key
 * as for a few dozen (in Miniflare about 1 ms of CPU; in production a round trip to the
 * database), so concurrent cache misses share that cost instead of each paying it.
 *
 * Each statement is run by one of the requests it answers, never on behalf of a request that may
 * already have finished, and handed to that request's `keepAlive` (its waitUntil): a client that
 * goes away mid-read does not cancel the read the others wait for. The others wait with a timer
 * of their own (see `awaitFlight`) and read alone if it has not answered within READ_JOIN_WAIT_MS.
 */
export class BatchedReads {
  private running: Promise<unknown> | null = null;
  private queued: Batch | null = null;

  /** `readMany`: one statement's rows for `keys`, by `documentKeyOf`. */
  constructor(
    private readonly readMany: (keys: readonly DocumentKey[]) => Promise<Map<string, CachedDocument>>,
    private readonly joinWaitMs = READ_JOIN_WAIT_MS,
  ) {}

  async get(key: DocumentKey, keepAlive?: (work: Promise<void>) => void): Promise<CachedDocument | null> {
    const k = documentKeyOf(key);
    const queued = this.queued;
    if (queued && queued.keys.size < KEYS_PER_READ) {
      queued.keys.set(k, key);
      const joined = await awaitFlight(queued.found, this.joinWaitMs);
      if (joined.ended) return joined.value.get(k) ?? null;
      return (await this.readMany([key])).get(k) ?? null;
    }
    const batch = new Batch();
    batch.keys.set(k, key);
    if (this.running && !queued) {
      // This read runs the next statement, once the one running now has answered.
      this.queued = batch;
      await awaitFlight(this.running, this.joinWaitMs);
      if (this.queued === batch) this.queued = null;
    }
    // Idle, or the next statement already has a reader and is full: run now.
    const rows = this.readMany([...batch.keys.values()]);
    batch.settle(rows);
    const running = rows.then(
      () => undefined,
      () => undefined,
    );
    this.running = running;
    keepAlive?.(running);
    try {
      return (await rows).get(k) ?? null;
    } finally {
      if (this.running === running) this.running = null;
    }
  }
}
