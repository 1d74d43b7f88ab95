import type { BulkResponse } from "@scangate/core";

/** Fingerprints once each, in first-seen order: a repeated one would be charged twice. */
export function uniqueInOrder(items: Iterable<string>): string[] {
  return [...new Set(items)];
}

/** Consecutive slices of at most `size` items. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError("chunk size must be a positive integer");
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/**
 * One bulk answer from the answers of each chunk. Every key of every part is kept; since the
 * chunks hold distinct fingerprints no key can be lost to another.
 */
export function mergeBulkResponses(parts: readonly BulkResponse[]): BulkResponse {
  const merged: BulkResponse = {};
  for (const part of parts) Object.assign(merged, part);
  return merged;
}
