import type { HostHit } from "@scangate/core";
import type { CursorPosition } from "./cursor";
import { keysetPage } from "./keyset-page";
import { projectFields } from "./projection";
import { countedPage } from "./search-totals";
import type { CompiledWhere } from "./search-engine";

/**
 * v2 host search with keyset pagination on `ip_num` (no OFFSET: every page costs the same).
 * A page is read with one extra row to learn whether another page follows in its direction.
 */

export interface HostsPage {
  total: number;
  hits: HostHit[];
  /** Keys for the links: null at either end. */
  prev: CursorPosition | null;
  next: CursorPosition | null;
}

interface HitRow {
  ip: string;
  ip_num: number;
  location: string | null;
  autonomous_system: string | null;
  last_updated_at: string | null;
  services: string;
  doc?: string;
}

// Summaries straight from the side table and JSON paths, so the full documents are not shipped.
const SUMMARY_COLUMNS = `r.ip as ip, r.ip_num as ip_num,
  r.doc -> '$.location' as location,
  r.doc -> '$.autonomous_system' as autonomous_system,
  r.doc ->> '$.last_updated_at' as last_updated_at,
  (select json_group_array(json_object('port', s.port, 'service_name', s.service_name,
      'extended_service_name', s.extended_service_name, 'transport_protocol', s.transport_protocol))
   from (select * from host_services where ip = r.ip order by port, transport_protocol) s) as services`;

function toHit(row: HitRow, fields: readonly string[] | undefined): HostHit {
  if (fields && fields.length > 0 && row.doc) {
    return { ip: row.ip, ...projectFields(JSON.parse(row.doc), fields, false) };
  }
  const hit: HostHit = { ip: row.ip, services: JSON.parse(row.services) as HostHit["services"] };
  if (row.location) hit.location = JSON.parse(row.location) as HostHit["location"];
  if (row.autonomous_system)
    hit.autonomous_system = JSON.parse(row.autonomous_system) as HostHit["autonomous_system"];
  if (row.last_updated_at) hit.last_updated_at = row.last_updated_at;
  return hit;
}

export async function searchHosts(
  db: D1Database,
  where: CompiledWhere,
  perPage: number,
  cursor: CursorPosition | null,
  fields: readonly string[] | undefined,
): Promise<HostsPage> {
  const columns = fields && fields.length > 0 ? `${SUMMARY_COLUMNS}, r.doc as doc` : SUMMARY_COLUMNS;
  const filter = `(${where.sql})`;
  const backwards = cursor?.direction === "prev";
  const keyClause = cursor ? (backwards ? " and r.ip_num < ?" : " and r.ip_num > ?") : "";
  const keyParams = cursor ? [cursor.key] : [];
  const order = backwards ? "desc" : "asc";
  const { total, rows } = await countedPage<HitRow>(
    db,
    { sql: `select count(*) as n from hosts r where ${filter}`, params: where.params },
    // Keys first, summaries after: SQLite computes result columns for every row it sorts, and
    // the summaries (JSON paths, a services subquery) should run for the page's rows only.
    db
      .prepare(
        `with page as (select r.rowid as id from hosts r where ${filter}${keyClause} order by r.ip_num ${order} limit ?)
         select ${columns} from page join hosts r on r.rowid = page.id order by r.ip_num ${order}`,
      )
      .bind(...where.params, ...keyParams, perPage + 1),
  );
  const { page, hasPrev, hasNext } = keysetPage(rows, perPage, cursor);

  const first = page[0];
  const last = page[page.length - 1];
  // On an empty page the cursor's own key is the boundary for the way back.
  const prevKey = first ? first.ip_num : cursor ? (backwards ? cursor.key : cursor.key + 1) : null;
  const nextKey = last ? last.ip_num : cursor ? (backwards ? cursor.key - 1 : cursor.key) : null;
  return {
    total,
    hits: page.map((row) => toHit(row, fields)),
    prev: perPage > 0 && hasPrev && prevKey !== null ? { direction: "prev", key: prevKey } : null,
    next: perPage > 0 && hasNext && nextKey !== null ? { direction: "next", key: nextKey } : null,
  };
}
