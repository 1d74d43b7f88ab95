import type { Clock } from "@scangate/core/http";
import { READ_JOIN_WAIT_MS } from "./batched-reads";
import {
  type CachedDocument,
  type DocumentCache,
  type DocumentIndex,
  type DocumentKey,
  documentKeyOf,
} from "./interface";
import { SingleFlight } from "./single-flight";

export interface MemoryTierLimits {
  /** How long a row read from (or written to) D1 answers from this isolate's memory. */
  readonly holdMs: number;
  /**
   * Bound on the bodies held, in UTF-16 code units (about bytes for JSON), with the UTF-8 bytes
   * kept for some of them (`bodyBytes`) counted a unit a byte.
   */
  readonly maxChars: number;
}

interface Held {
  readonly doc: CachedDocument;
  readonly until: number;
  /** The UTF-8 bytes of the answer `renderedBy` made of the body, once a request asked (`bodyBytes`). */
  bytes?: Uint8Array;
  renderedBy?: (body: string) => string;
}

const utf8 = new TextEncoder();

/** How long a stored row waits for others before they go to D1 together. */
export const WRITE_BEHIND_MS = 5;

/**
 * A small per-isolate memory tier in front of the D1 document cache. D1 stays the shared
 * source of truth; a row read from it is also held in memory for `holdMs` (a few seconds), so a
 * hot certificate costs one D1 read per isolate per few seconds instead of one per request.
 * What a row means (fresh, stale, negative) is still decided from the row itself, so holding it
 * never makes an expired document look fresh. A purge drops this isolate's copy at once; other
 * isolates drop theirs within `holdMs`, the same bound as the auth cache. Least recently used
 * rows go first once the bodies held pass `maxChars`. Concurrent reads of one key that memory
 * cannot answer share one D1 read; a read that joins another waits with a timer of its own
 * (`awaitFlight`) and reads alone after `joinWaitMs`.
 */
export class MemoryTieredCache implements DocumentCache {
  private readonly held = new Map<string, Held>();
  private readonly reading: SingleFlight<CachedDocument | null>;
  private readonly queued = new Map<string, { key: DocumentKey; doc: CachedDocument }>();
  private flushing: Promise<void> | null = null;
  private chars = 0;

  constructor(
    private readonly shared: DocumentCache,
    private readonly clock: Clock,
    private readonly limits: MemoryTierLimits,
    joinWaitMs = READ_JOIN_WAIT_MS,
  ) {
    this.reading = new SingleFlight(joinWaitMs);
  }

  async get(key: DocumentKey, keepAlive?: (work: Promise<void>) => void): Promise<CachedDocument | null> {
    const k = documentKeyOf(key);
    const hit = this.take(k);
    if (hit) return hit;
    const read = await this.reading.run(k, () =>
      this.shared.get(key, keepAlive).then((doc) => {
        if (doc) this.hold(k, doc);
        return doc;
      }),
    );
    return read.value;
  }

  peek(key: DocumentKey): CachedDocument | null {
    return this.take(documentKeyOf(key));
  }

  /**
   * Renders and encodes a held row's body once and keeps the bytes with the row, counted in
   * `maxChars` (dropped with it, and no longer used once another row replaces it). A body this
   * isolate does not hold, or holds another version of, is rendered and encoded each time.
   */
  bodyBytes(key: DocumentKey, body: string, render?: (body: string) => string): Uint8Array {
    const entry = this.held.get(documentKeyOf(key));
    const held = entry?.doc.body === body ? entry : undefined;
    if (held?.bytes && held.renderedBy === render) return held.bytes;
    const bytes = utf8.encode(render ? render(body) : body);
    if (!held) return bytes;
    this.chars += bytes.length - (held.bytes?.length ?? 0);
    held.bytes = bytes;
    held.renderedBy = render;
    this.evictOverBound();
    return bytes;
  }

  async getMany(
    index: DocumentIndex,
    ids: readonly string[],
    atTime = "",
  ): Promise<Map<string, CachedDocument>> {
    const found = new Map<string, CachedDocument>();
    const missing: string[] = [];
    for (const id of ids) {
      const hit = this.take(documentKeyOf({ index, id, atTime }));
      if (hit) found.set(id, hit);
      else missing.push(id);
    }
    if (missing.length > 0) {
      for (const [id, doc] of await this.shared.getMany(index, missing, atTime)) {
        this.hold(documentKeyOf({ index, id, atTime }), doc);
        found.set(id, doc);
      }
    }
    return found;
  }

  async put(entries: ReadonlyArray<{ key: DocumentKey; doc: CachedDocument }>): Promise<void> {
    await this.shared.put(entries);
    for (const { key, doc } of entries) this.hold(documentKeyOf(key), doc);
  }

  /**
   * Holds the rows at once and writes them to D1 WRITE_BEHIND_MS later, in one batch with the
   * rows other requests stored meanwhile (one upsert statement per 14 rows); the first request
   * of a batch hands its write to `defer`. A row memory cannot hold (the tier is off, or the
   * body is too large) is written before this resolves, as by `put`.
   */
  async putSoon(
    entries: ReadonlyArray<{ key: DocumentKey; doc: CachedDocument }>,
    defer: (write: Promise<void>) => void,
  ): Promise<void> {
    const through: { key: DocumentKey; doc: CachedDocument }[] = [];
    for (const entry of entries) {
      const k = documentKeyOf(entry.key);
      if (this.hold(k, entry.doc)) this.queued.set(k, entry);
      else through.push(entry);
    }
    if (this.queued.size > 0 && !this.flushing) {
      this.flushing = new Promise<void>((resolve) => setTimeout(resolve, WRITE_BEHIND_MS)).then(() =>
        this.flush(),
      );
      defer(this.flushing);
    }
    if (through.length > 0) await this.shared.put(through);
  }

  /** Writes the queued rows to D1; a failed write is logged (the rows stay in memory for holdMs). */
  private async flush(): Promise<void> {
    const batch = [...this.queued.values()];
    this.queued.clear();
    this.flushing = null;
    try {
      await this.shared.put(batch);
    } catch (error) {
      console.error("document cache write failed", error instanceof Error ? error.message : error);
    }
  }

  async purge(index: DocumentIndex, id: string): Promise<number> {
    const prefix = documentKeyOf({ index, id, atTime: "" });
    for (const k of [...this.held.keys()]) if (k.startsWith(prefix)) this.drop(k);
    // A purge wins over a write still queued: the row must not come back after it.
    for (const k of [...this.queued.keys()]) if (k.startsWith(prefix)) this.queued.delete(k);
    return this.shared.purge(index, id);
  }

  cleanup(now: number, keepStaleMs: number, maxRows: number): Promise<number> {
    return this.shared.cleanup(now, keepStaleMs, maxRows);
  }

  /** Documents held now (for tests and diagnostics). */
  get size(): number {
    return this.held.size;
  }

  private take(k: string): CachedDocument | null {
    const entry = this.held.get(k);
    if (!entry) return null;
    if (entry.until <= this.clock.now()) {
      this.drop(k);
      return null;
    }
    // Most recently used last: re-insert.
    this.held.delete(k);
    this.held.set(k, entry);
    return entry.doc;
  }

  /** Holds `doc` under `k`; false when memory cannot (the tier is off, or the body is too large). */
  private hold(k: string, doc: CachedDocument): boolean {
    if (this.limits.holdMs <= 0 || doc.body.length > this.limits.maxChars) return false;
    this.drop(k);
    this.held.set(k, { doc, until: this.clock.now() + this.limits.holdMs });
    this.chars += doc.body.length;
    this.evictOverBound();
    return true;
  }

  /** Drops the least recently used rows until what is held fits `maxChars`. */
  private evictOverBound(): void {
    for (const oldest of this.held.keys()) {
      if (this.chars <= this.limits.maxChars) break;
      this.drop(oldest);
    }
  }

  private drop(k: string): void {
    const entry = this.held.get(k);
    if (!entry) return;
    this.held.delete(k);
    this.chars -= entry.doc.body.length + (entry.bytes?.length ?? 0);
  }
}
