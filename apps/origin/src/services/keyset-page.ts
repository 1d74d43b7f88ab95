import type { CursorPosition } from "./cursor";

/**
 * One page of rows read past a keyset cursor: the query asked for more than `size` rows in the
 * cursor's direction (descending for `prev`), so a row beyond the page says another page
 * follows that way. The page comes back in ascending order. A cursor is only issued beside a row
 * of a page and the dataset does not change under it, so the side a cursor came from always has
 * rows: no need to look.
 */
export function keysetPage<T>(
  rows: readonly T[],
  size: number,
  cursor: CursorPosition | null,
): { page: T[]; hasPrev: boolean; hasNext: boolean } {
  const backwards = cursor?.direction === "prev";
  const more = rows.length > size;
  const page = rows.slice(0, size);
  if (backwards) page.reverse();
  const behind = cursor !== null;
  return { page, hasPrev: backwards ? more : behind, hasNext: backwards ? behind : more };
}
