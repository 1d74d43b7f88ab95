import type { z } from "zod";

/** The query parameters of a paged v2 list: its page size and where it starts. */
type PageQuerySchema = z.ZodType<{ per_page: number; cursor?: string | undefined }>;

/**
 * A paged list's page in one spelling (`per_page=100`, `per_page=2&cursor=...`), for the cache
 * key beside the list's id: the default page size spelled out or left off is the same page.
 * Null when the request carries anything else (another parameter, one twice, a value the
 * schema refuses): such a request is forwarded uncached for the upstream's own answer.
 */
export function pageVariant(url: string, schema: PageQuerySchema): string | null {
  const search = new URL(url).searchParams;
  const keys = [...search.keys()];
  if (keys.some((key) => key !== "per_page" && key !== "cursor")) return null;
  if (new Set(keys).size !== keys.length) return null;
  const parsed = schema.safeParse(Object.fromEntries(search));
  if (!parsed.success) return null;
  const { per_page, cursor } = parsed.data;
  return cursor === undefined ? `per_page=${per_page}` : `per_page=${per_page}&cursor=${cursor}`;
}
