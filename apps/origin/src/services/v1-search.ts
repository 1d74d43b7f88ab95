import { V1_SEARCH_PAGE_SIZE } from "@scangate/core";
import { projectFields } from "./projection";
import { countedPage } from "./search-totals";
import type { CompiledWhere } from "./search-engine";
import type { V1IndexStorage } from "./v1-indexes";

export interface V1SearchPage {
  count: number;
  pages: number;
  results: Record<string, unknown>[];
}

/**
 * One page (one-indexed, V1_SEARCH_PAGE_SIZE rows) of a v1 search. A page past the end is
 * empty rather than an error. Page numbers make OFFSET the natural fit here.
 */
export async function searchV1(
  db: D1Database,
  storage: V1IndexStorage,
  where: CompiledWhere,
  page: number,
  fields: readonly string[],
  flatten: boolean,
): Promise<V1SearchPage> {
  const table = `${storage.registry.root.table} r`;
  // Any offset past the data gives an empty page; the cap keeps absurd page numbers an integer bind.
  const offset = Math.min((page - 1) * V1_SEARCH_PAGE_SIZE, 2 ** 40);
  const { total: count, rows } = await countedPage<{ doc: string }>(
    db,
    { sql: `select count(*) as n from ${table} where (${where.sql})`, params: where.params },
    db
      .prepare(
        `select r.${storage.documentColumn} as doc from ${table} where (${where.sql}) order by ${storage.orderBy} limit ? offset ?`,
      )
      .bind(...where.params, V1_SEARCH_PAGE_SIZE, offset),
  );
  return {
    count,
    pages: Math.ceil(count / V1_SEARCH_PAGE_SIZE),
    results: rows.map((row) => projectFields(JSON.parse(row.doc), fields, flatten)),
  };
}
