import type { CursorPosition } from "./cursor";

/**
 * One page of a list the route holds whole (a host's names, its events), with cursor positions
 * for the neighbouring pages: `next` starts at its key, `prev` ends before its key. Null at the
 * ends. A position past the end gives an empty page.
 */
export interface OffsetPage<T> {
  items: T[];
  prev: CursorPosition | null;
  next: CursorPosition | null;
}

export function pageByOffset<T>(
  all: readonly T[],
  perPage: number,
  cursor: CursorPosition | null,
): OffsetPage<T> {
  const start =
    cursor === null ? 0 : cursor.direction === "next" ? cursor.key : Math.max(0, cursor.key - perPage);
  const from = Math.min(start, all.length);
  const end = Math.min(all.length, from + perPage);
  return {
    items: all.slice(from, end),
    prev: from > 0 ? { direction: "prev", key: from } : null,
    next: end < all.length ? { direction: "next", key: end } : null,
  };
}
