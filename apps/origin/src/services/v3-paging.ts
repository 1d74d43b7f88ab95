import { V3_PAGE_SIZE_DEFAULT, v3InputError } from "@scangate/core";
import type { CursorBinding, CursorCodec } from "./cursor";

/**
 * Pages of the Platform's lists (`page_size`, `page_token`): a token is the signed offset of
 * the next page, bound to what shapes the list (the route, its filters, the page size), so a
 * token replayed on another list or with another page size is a 400 naming it, and a forged
 * one too. The end of a list has no next token (`""` or left out, as each model has it).
 */
export interface PageRequest {
  size: number;
  offset: number;
  binding: CursorBinding;
}

const WHY = {
  malformed: "not a page token this service issued",
  forged: "the page token's signature is invalid",
  mismatched:
    "the page token was issued for another list, filters or page_size; repeat the call that returned it",
} as const;

/**
 * The page a request asks for. `scope` names the list and its filters (everything but the
 * paging parameters), `location` where the token was sent (`query.page_token`).
 */
export async function pageRequest(
  cursors: CursorCodec,
  scope: string,
  query: { page_size?: number; page_token?: string },
  location = "query.page_token",
): Promise<PageRequest> {
  const size = query.page_size ?? V3_PAGE_SIZE_DEFAULT;
  const binding: CursorBinding = { q: scope, perPage: size };
  if (query.page_token === undefined || query.page_token === "") return { size, offset: 0, binding };
  const decoded = await cursors.decode(query.page_token, binding);
  if (!decoded.ok) throw v3InputError(location, WHY[decoded.reason], query.page_token);
  if (decoded.position.direction !== "next" || decoded.position.key < 0)
    throw v3InputError(location, WHY.malformed, query.page_token);
  return { size, offset: decoded.position.key, binding };
}

/** The token of the page after `page` when `total` items remain past it, else "". */
export async function nextPageToken(cursors: CursorCodec, page: PageRequest, total: number): Promise<string> {
  const next = page.offset + page.size;
  return next < total ? cursors.encode({ direction: "next", key: next }, page.binding) : "";
}

/** The items of `all` on the page. */
export function pageOf<T>(all: readonly T[], page: PageRequest): T[] {
  return all.slice(page.offset, page.offset + page.size);
}
