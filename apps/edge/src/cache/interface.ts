import type { PurgeableIndex } from "@scangate/core";

/** Every index a cached document may belong to: the documents, and the v1 searches' kept
 * page tokens (pipeline/page-tokens.ts). */
export type DocumentIndex = PurgeableIndex | "v1_page_tokens";

/**
 * One cached document. `atTime` is "" for the current one, the point in time of a host view at
 * one, or the page of a cached list (`api/page-key.ts`), so a purge by id drops every page.
 */
export interface DocumentKey {
  readonly index: DocumentIndex;
  readonly id: string;
  readonly atTime: string;
}

/** One string per document key: what single-flight, the memory tier and batched reads key on. */
export function documentKeyOf(key: {
  readonly index: string;
  readonly id: string;
  readonly atTime: string;
}): string {
  return `${key.index}\u0000${key.id}\u0000${key.atTime}`;
}

export interface CachedDocument {
  /** The document JSON as served (view body, or a bulk entry). */
  readonly body: string;
  /** An "unknown document" answer, kept for a short time. */
  readonly negative: boolean;
  readonly fetchedAt: number;
  /** End of freshness; null never expires. */
  readonly expiresAt: number | null;
}

/** The shared document cache: one row per document, whichever route fetched it. */
export interface DocumentCache {
  /**
   * `keepAlive` (the request's waitUntil) is handed a D1 read this request runs for concurrent
   * readers too (`BatchedReads`), so the read ends for them even if this request is cancelled.
   */
  get(key: DocumentKey, keepAlive?: (work: Promise<void>) => void): Promise<CachedDocument | null>;
  /** The row this isolate holds in memory for `key`, without asking D1 (null: none held). */
  peek(key: DocumentKey): CachedDocument | null;
  /**
   * The UTF-8 bytes of the answer `render` makes of `body` (the body itself without it), the body
   * of the document at `key` as this request got it: kept with the row while this isolate holds
   * it in memory, so an answer made of the document (a repeated hit, a bulk answer splicing it
   * in) is not made and encoded again on every request. `render` is one function for all of its
   * rows (a route's), not one made per request: bytes are kept for the last one that asked.
   */
  bodyBytes(key: DocumentKey, body: string, render?: (body: string) => string): Uint8Array;
  /**
   * Documents of one index by id, current ones (`atTime` "") unless a point in time is given;
   * missing ids are absent from the map.
   */
  getMany(
    index: DocumentIndex,
    ids: readonly string[],
    atTime?: string,
  ): Promise<Map<string, CachedDocument>>;
  put(entries: ReadonlyArray<{ key: DocumentKey; doc: CachedDocument }>): Promise<void>;
  /**
   * Makes rows visible to this isolate's readers when it resolves, and to every isolate soon
   * after: a write to the shared store may be handed to `defer` (the request's waitUntil),
   * batched with other requests' rows, instead of being awaited.
   */
  putSoon(
    entries: ReadonlyArray<{ key: DocumentKey; doc: CachedDocument }>,
    defer: (write: Promise<void>) => void,
  ): Promise<void>;
  /** Removes a document (every `at_time` of it); returns how many rows went. */
  purge(index: DocumentIndex, id: string): Promise<number>;
  /**
   * Bounds the table: drops rows stale for longer than `keepStaleMs` (never-expiring rows
   * stay), then the least recently fetched beyond `maxRows`.
   */
  cleanup(now: number, keepStaleMs: number, maxRows: number): Promise<number>;
}
