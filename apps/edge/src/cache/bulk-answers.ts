/** Longest request key kept: 50 fingerprints in JSON take about 3,400 characters. */
const MAX_KEY_CHARS = 8192;

/** What a kept answer needs of the request it answered: the cache keys it asks for, each once. */
export interface KeptBulkRequest {
  readonly unique: readonly string[];
}

/** A legacy bulk request as the route read it: the fingerprints its body asks for. */
export interface BulkRequest extends KeptBulkRequest {
  /** As spelled and ordered in the body. */
  readonly requested: readonly string[];
  /** As cache keys: lower case, each once, in first-seen order. */
  readonly unique: readonly string[];
}

interface Assembled {
  readonly request: KeptBulkRequest;
  /** Each of `request.unique`'s entry text when the answer was assembled (undefined: unknown). */
  readonly entries: Array<string | undefined>;
  readonly body: Blob;
}

/** A request body's text, or null when it is not UTF-8 (a body no bulk reads). */
export function bodyText(body: Uint8Array | undefined): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(body);
  } catch {
    return null;
  }
}

/**
 * The last assembled answers of bulk requests that the cache answered whole, per isolate. A
 * team's scripts ask for the same certificates again and again, and assembling a bulk answer
 * (50 documents, about 350 KB, copied into one body) cost the edge about as much CPU as the rest
 * of the request; a repeated request sends the body it sent last time instead.
 *
 * A kept body is reused only for a request with the same key (its route, query and body text:
 * so the same ids, spelled and ordered alike, which the route then need not parse and check
 * again) whose every id has the same entry text as when it was assembled: which rows answer, and
 * whether they are fresh, is decided by the cache for each request as before, so a kept body is
 * never staler than a new one. Bounded by bytes, least recently used first: each answer counts
 * its body twice, for the entry texts it keeps alive beside it (the memory tier may have let them
 * go); an answer larger than the bound is not kept.
 */
export class AssembledBulkAnswers {
  private readonly kept = new Map<string, Assembled>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /**
   * The request a key stood for when its answer was kept, read without parsing it again. Each
   * route's keys begin with its own prefix, so a key finds only requests of its route's type.
   */
  request<R extends KeptBulkRequest>(key: string): R | undefined {
    return this.kept.get(key)?.request as R | undefined;
  }

  /**
   * The body for `request` (known by `key`) with `entries` (entry text by cache key): the kept
   * one when it still holds exactly these entries, else `assemble()`'s, which is kept for the next
   * request with the same key.
   */
  body(
    key: string,
    request: KeptBulkRequest,
    entries: ReadonlyMap<string, string>,
    assemble: () => Blob,
  ): Blob {
    const found = this.kept.get(key);
    if (found && holdsEntries(found, entries)) {
      // Most recently used last.
      this.kept.delete(key);
      this.kept.set(key, found);
      return found.body;
    }
    const body = assemble();
    if (found) {
      this.kept.delete(key);
      this.bytes -= cost(found.body);
    }
    if (key.length > MAX_KEY_CHARS || cost(body) > this.maxBytes) return body;
    this.kept.set(key, { request, entries: request.unique.map((fp) => entries.get(fp)), body });
    this.bytes += cost(body);
    for (const [oldest, answer] of this.kept) {
      if (this.bytes <= this.maxBytes) break;
      this.kept.delete(oldest);
      this.bytes -= cost(answer.body);
    }
    return body;
  }

  /** Answers kept now (for tests and diagnostics). */
  get size(): number {
    return this.kept.size;
  }
}

/** What a kept answer holds: its body, and about as much again in the entry texts beside it. */
const cost = (body: Blob) => 2 * body.size;

/**
 * Whether every requested id's entry is the text the kept body was assembled from. An
 * equal text in another string (the row read again from D1) takes the kept one's place, so the
 * next comparison is of the same string, which costs nothing.
 */
function holdsEntries(found: Assembled, entries: ReadonlyMap<string, string>): boolean {
  for (const [i, id] of found.request.unique.entries()) {
    const entry = entries.get(id);
    if (entry !== found.entries[i]) return false;
    found.entries[i] = entry;
  }
  return true;
}
