import type { V3CollectionEvent } from "@scangate/core";
import { rfc3339 } from "./v3-records";

/**
 * A collection's events as the routes read them: assets that entered and left it and its
 * status changes (written by v3-collections.ts when it is evaluated), newest first, and how many
 * assets entered and left it in the last day.
 */

const DAY_MS = 86_400_000;

/** Assets that entered and left the collection in the last day. */
export async function recentChanges(
  db: D1Database,
  ids: readonly string[],
  now: number,
): Promise<Map<string, { added: number; removed: number }>> {
  const out = new Map(ids.map((id) => [id, { added: 0, removed: 0 }]));
  if (ids.length === 0) return out;
  const { results } = await db
    .prepare(
      `SELECT collection_id, kind, count(*) AS n FROM v3_collection_events
       WHERE collection_id IN (${ids.map(() => "?").join(", ")}) AND kind IN ('added', 'removed') AND event_time > ?
       GROUP BY collection_id, kind`,
    )
    .bind(...ids, now - DAY_MS)
    .all<{ collection_id: string; kind: "added" | "removed"; n: number }>();
  for (const row of results) {
    const counts = out.get(row.collection_id);
    if (counts) counts[row.kind] = row.n;
  }
  return out;
}

export interface EventFilter {
  changeTypes?: readonly ("asset" | "status")[];
  assetChangeTypes?: readonly ("added" | "removed")[];
  statusChangeTypes?: readonly string[];
  from?: number;
  to?: number;
}

/** A page of a collection's events, newest first, and how many the filter keeps. */
export async function listCollectionEvents(
  db: D1Database,
  collectionId: string,
  filter: EventFilter,
  offset: number,
  limit: number,
): Promise<{ events: V3CollectionEvent[]; total: number }> {
  const kinds = new Set<string>();
  const asset = !filter.changeTypes?.length || filter.changeTypes.includes("asset");
  const status = !filter.changeTypes?.length || filter.changeTypes.includes("status");
  if (asset)
    for (const kind of filter.assetChangeTypes?.length ? filter.assetChangeTypes : ["added", "removed"])
      kinds.add(kind);
  const conditions = ["collection_id = ?"];
  const params: (string | number)[] = [collectionId];
  const clauses: string[] = [];
  if (kinds.size > 0) {
    clauses.push(`kind IN (${[...kinds].map(() => "?").join(", ")})`);
    params.push(...kinds);
  }
  if (status) {
    if (filter.statusChangeTypes?.length) {
      clauses.push(
        `(kind = 'status' AND new_status IN (${filter.statusChangeTypes.map(() => "?").join(", ")}))`,
      );
      params.push(...filter.statusChangeTypes);
    } else clauses.push("kind = 'status'");
  }
  conditions.push(clauses.length > 0 ? `(${clauses.join(" OR ")})` : "0");
  if (filter.from !== undefined) {
    conditions.push("event_time >= ?");
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    conditions.push("event_time <= ?");
    params.push(filter.to);
  }
  const where = conditions.join(" AND ");
  const [page, count] = await db.batch<{
    kind: string;
    asset_id: string | null;
    new_status: string | null;
    old_status: string | null;
    reason: string;
    event_time: number;
    n?: number;
  }>([
    db
      .prepare(
        `SELECT * FROM v3_collection_events WHERE ${where} ORDER BY event_time DESC, seq DESC LIMIT ? OFFSET ?`,
      )
      .bind(...params, limit, offset),
    db.prepare(`SELECT count(*) AS n FROM v3_collection_events WHERE ${where}`).bind(...params),
  ]);
  const events = (page?.results ?? []).map(
    (row): V3CollectionEvent =>
      row.kind === "status"
        ? {
            status_change: {
              event_time: rfc3339(row.event_time),
              new_status: row.new_status ?? "",
              ...(row.old_status ? { old_status: row.old_status } : {}),
              reason: row.reason,
            },
          }
        : {
            asset_change: {
              change_type: row.kind as "added" | "removed",
              event_time: rfc3339(row.event_time),
              reason: row.reason,
              asset_id: row.asset_id,
            },
          },
  );
  return { events, total: Number(count?.results[0]?.n ?? 0) };
}
