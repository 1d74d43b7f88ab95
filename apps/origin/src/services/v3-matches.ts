import type { CenqlResource } from "@scangate/search";
import type { CompiledWhere } from "./search-engine";

/**
 * The assets a compiled CenQL condition matches, as the Platform names them (hosts by IP,
 * certificates by fingerprint, web properties as `hostname:port`: one per port a website
 * holds), walked in a stable key order a page at a time, and counted. Collections and bulk tag
 * operations read their assets here.
 */

export type AssetKind = "host" | "certificate" | "web_property";

export interface MatchedAsset {
  /** The walk's key: a page after it starts past this asset. */
  key: number;
  id: string;
  type: AssetKind;
}

interface Source {
  from: string;
  key: string;
  id: string;
  type: AssetKind;
  /** Extra conditions of the source itself (a website's port keys). */
  also: string;
}

const SOURCES: Readonly<Record<CenqlResource, Source>> = {
  host: { from: "hosts r", key: "r.ip_num", id: "r.ip", type: "host", also: "1" },
  cert: { from: "certificates r", key: "r.rowid", id: "lower(r.sha256)", type: "certificate", also: "1" },
  web: {
    from: "websites r, json_each(r.doc) j",
    key: "(r.rowid * 65536 + CAST(j.key AS INTEGER))",
    id: "lower(r.domain) || ':' || j.key",
    type: "web_property",
    also: "j.key GLOB '[0-9]*' AND j.key NOT GLOB '*[^0-9]*'",
  },
};

/** The next `limit` matches after `after` (null: from the start), in key order. */
export async function matchPage(
  db: D1Database,
  resource: CenqlResource,
  where: CompiledWhere,
  after: number | null,
  limit: number,
): Promise<MatchedAsset[]> {
  const s = SOURCES[resource];
  const { results } = await db
    .prepare(
      `SELECT ${s.key} AS k, ${s.id} AS id FROM ${s.from} WHERE (${where.sql}) AND ${s.also} AND ${s.key} > ?
       ORDER BY ${s.key} LIMIT ?`,
    )
    .bind(...where.params, after ?? -1, limit)
    .all<{ k: number; id: string }>();
  return results.map((row) => ({ key: row.k, id: String(row.id), type: s.type }));
}

/** How many assets the condition matches. */
export async function matchCount(
  db: D1Database,
  resource: CenqlResource,
  where: CompiledWhere,
): Promise<number> {
  const s = SOURCES[resource];
  const row = await db
    .prepare(`SELECT count(*) AS n FROM ${s.from} WHERE (${where.sql}) AND ${s.also}`)
    .bind(...where.params)
    .first<{ n: number }>();
  return Number(row?.n ?? 0);
}

/**
 * The statement of the first `limit` matches in key order, as a subquery: columns `k` (the
 * walk's key), `id` and `type`.
 */
export function matchSql(resource: CenqlResource, where: CompiledWhere, limit: number): CompiledWhere {
  const s = SOURCES[resource];
  return {
    sql: `SELECT ${s.key} AS k, ${s.id} AS id, '${s.type}' AS type FROM ${s.from} WHERE (${where.sql}) AND ${s.also} ORDER BY ${s.key} LIMIT ?`,
    params: [...where.params, limit],
  };
}
