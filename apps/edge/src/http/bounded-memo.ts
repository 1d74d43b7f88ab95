/**
 * Answers the hot path works out from one string (a path, a header value) and would work out the
 * same way again, kept for at most `max` keys. When full, all are forgotten at once: no
 * bookkeeping per request, and a client cycling through more keys than that only costs what
 * working each out costs anyway. Keys longer than `maxKeyChars` are never kept.
 */
export class BoundedMemo<V> {
  private readonly values = new Map<string, V>();

  constructor(
    private readonly max: number,
    private readonly maxKeyChars = Number.POSITIVE_INFINITY,
  ) {}

  get(key: string): V | undefined {
    return this.values.get(key);
  }

  /** Keeps `value` for `key` (unless the key is too long) and gives it back. */
  remember(key: string, value: V): V {
    if (key.length > this.maxKeyChars) return value;
    if (this.values.size >= this.max) this.values.clear();
    this.values.set(key, value);
    return value;
  }
}

/** Sets `key` in `map`, first forgetting its oldest entry when it already holds `max`. */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (map.size >= max) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}
