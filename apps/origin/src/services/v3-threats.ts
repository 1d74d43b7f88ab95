import type { V3ThreatListItem } from "@scangate/core";
import type { ThreatProfile } from "../dataset/threats";
import type { CompiledWhere } from "./search-engine";

/**
 * The threats list: the threat catalogue (dataset/threats.ts) with, per threat, the hosts and
 * the web properties it was planted on, within the assets a CenQL query selects.
 *
 * Both counts read the leaf rows of the hosts' `services.threats.id` (field_values: `doc` is the
 * host's rowid, `scope` its service's), so they cost an index range over the threatened services
 * whatever the dataset's size. A host counts once however many of its services carry the
 * threat. A web property (`hostname:port`) counts when the service on its port of the host its
 * name resolves to carries the threat: the port must be one the website holds (an HTTP
 * service), as its web property document shows the threat there.
 */

export interface ThreatCount {
  hosts: number;
  web: number;
}

/** Which assets to count on: all of a kind (`"all"`), those a condition holds for, or none. */
export type AssetFilter = "all" | CompiledWhere | null;

/** The filter as SQL over the root row (alias `r`), and its values. */
function condition(filter: AssetFilter): CompiledWhere {
  return filter === "all" || filter === null ? { sql: filter === null ? "0" : "1", params: [] } : filter;
}

/**
 * Per threat id, the hosts and web properties whose services carry it, of those the filters
 * select; `field` is the catalogue id of the hosts' `services.threats.id` leaf.
 */
export async function countThreats(
  db: D1Database,
  field: number,
  hosts: AssetFilter,
  web: AssetFilter,
): Promise<Map<string, ThreatCount>> {
  const onHosts = condition(hosts);
  const onWeb = condition(web);
  const [hostRows, webRows] = await db.batch<{ id: string; n: number }>([
    db
      .prepare(
        `SELECT tv.value AS id, count(DISTINCT tv.doc) AS n
         FROM field_values tv JOIN hosts r ON r.rowid = tv.doc
         WHERE tv.field = ? AND (${onHosts.sql})
         GROUP BY tv.value`,
      )
      .bind(field, ...onHosts.params),
    db
      .prepare(
        `SELECT tv.value AS id, count(DISTINCT r.rowid * 65536 + ts.port) AS n
         FROM field_values tv
           JOIN host_services ts ON ts.id = tv.scope
           JOIN hosts th ON th.rowid = tv.doc
           JOIN websites r ON r.ip_num = th.ip_num
         WHERE tv.field = ? AND json_type(r.doc, '$."' || ts.port || '"') IS NOT NULL AND (${onWeb.sql})
         GROUP BY tv.value`,
      )
      .bind(field, ...onWeb.params),
  ]);
  const counts = new Map<string, ThreatCount>();
  const entry = (id: string) => {
    const found = counts.get(id) ?? { hosts: 0, web: 0 };
    counts.set(id, found);
    return found;
  };
  for (const row of hostRows?.results ?? []) entry(String(row.id)).hosts = Number(row.n);
  for (const row of webRows?.results ?? []) entry(String(row.id)).web = Number(row.n);
  return counts;
}

/**
 * The list's items: each catalogued threat seen on at least one asset (an active threat, as the
 * Platform lists them), most assets first, then by name. Counts of ids the catalogue does not
 * hold are left out: the list describes what it names.
 */
export function threatList(
  catalogue: readonly ThreatProfile[],
  counts: ReadonlyMap<string, ThreatCount>,
): V3ThreatListItem[] {
  return catalogue
    .flatMap((threat) => {
      const found = counts.get(threat.id);
      if (!found || found.hosts + found.web === 0) return [];
      return [
        {
          id: threat.id,
          name: threat.name,
          description: threat.description,
          added_at: `${threat.added}T00:00:00Z`,
          references: [
            ...threat.references,
            ...(threat.malware.malpedia_id
              ? [`https://malpedia.caad.fkie.fraunhofer.de/details/${threat.malware.malpedia_id}`]
              : []),
          ].map((link) => ({ link })),
          count: found.hosts + found.web,
          host_count: found.hosts,
          web_count: found.web,
        },
      ];
    })
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}
