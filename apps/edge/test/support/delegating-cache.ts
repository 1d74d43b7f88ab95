import type { DocumentCache } from "../../src/cache/interface";

/** `inner`, with the methods in `overrides` replaced: a cache double that counts or holds one call. */
export function delegatingCache(inner: DocumentCache, overrides: Partial<DocumentCache> = {}): DocumentCache {
  return {
    get: (key) => inner.get(key),
    peek: (key) => inner.peek(key),
    bodyBytes: (key, body) => inner.bodyBytes(key, body),
    getMany: (index, ids, atTime) => inner.getMany(index, ids, atTime),
    put: (entries) => inner.put(entries),
    putSoon: (entries, defer) => inner.putSoon(entries, defer),
    purge: (index, id) => inner.purge(index, id),
    cleanup: (now, keepStaleMs, maxRows) => inner.cleanup(now, keepStaleMs, maxRows),
    ...overrides,
  };
}
