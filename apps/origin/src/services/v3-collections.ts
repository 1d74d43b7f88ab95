import { v3NameKey, V3_COLLECTION_ASSETS_MAX, V3_COLLECTIONS_MAX, type V3Collection } from "@scangate/core";
import type { CenqlResource } from "@scangate/search";
import type { CompiledWhere } from "./search-engine";
import { matchCount, matchPage } from "./v3-matches";
import { newRecordId, rfc3339 } from "./v3-records";

/**
 * Collections: a saved CenQL query per organization, and the assets it holds. The assets are
 * what the query matches in the dataset (hosts by IP, certificates by fingerprint, web
 * properties as `hostname:port`), evaluated when the collection is made, when its query
 * changes, and when it is read after the dataset changed (a reseed: `dataset_meta.dataset`).
 * Each evaluation records the assets that entered and left it as events, beside its status
 * changes. A query matching more than V3_COLLECTION_ASSETS_MAX assets pauses the collection
 * (`too_many_assets`), as a plan's limit pauses it on the Platform.
 */

/** Events a collection keeps (the oldest go first). */
const EVENTS_KEPT = 50_000;
/** Asset ids per statement when writing them (two values each, under D1's 100). */
const ROWS_PER_INSERT = 49;

export interface CollectionRecord {
  id: string;
  organizationId: string;
  name: string;
  description: string;
  query: string;
  status: string;
  statusReason: string | null;
  createdBy: string;
  createdAt: number;
  dataset: string;
  totalAssets: number;
}

interface CollectionRow {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  query: string;
  status: string;
  status_reason: string | null;
  created_by: string;
  created_at: number;
  dataset: string;
  total_assets: number;
}

const recordOf = (row: CollectionRow): CollectionRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  description: row.description,
  query: row.query,
  status: row.status,
  statusReason: row.status_reason,
  createdBy: row.created_by,
  createdAt: row.created_at,
  dataset: row.dataset,
  totalAssets: row.total_assets,
});

/** What an evaluation found: the assets (at most the cap, sorted) or only their count past it. */
export interface Evaluation {
  dataset: string;
  assets: string[];
  /** Every match, the cap's worth or more. */
  total: number;
}

/** The assets `where` matches now: up to the cap (one more to learn it is passed) and the count. */
export async function evaluateCollection(
  db: D1Database,
  resource: CenqlResource,
  where: CompiledWhere,
): Promise<Evaluation> {
  const [dataset, page, total] = await Promise.all([
    heldDataset(db),
    matchPage(db, resource, where, null, V3_COLLECTION_ASSETS_MAX + 1),
    matchCount(db, resource, where),
  ]);
  const assets = page.map((asset) => asset.id);
  return { dataset, assets: assets.length > V3_COLLECTION_ASSETS_MAX ? [] : assets.sort(), total };
}

/** The fingerprint of the dataset held now ("" for none). */
export async function heldDataset(db: D1Database): Promise<string> {
  const row = await db
    .prepare("SELECT value FROM dataset_meta WHERE key = 'dataset'")
    .first<{ value: string }>();
  return row?.value ?? "";
}

interface EventRow {
  kind: "added" | "removed" | "status";
  assetId: string | null;
  newStatus: string | null;
  oldStatus: string | null;
  reason: string;
  at: number;
}

function eventStatements(db: D1Database, collectionId: string, events: readonly EventRow[]) {
  return events.map((e) =>
    db
      .prepare(
        `INSERT INTO v3_collection_events (collection_id, kind, asset_id, new_status, old_status, reason, event_time)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(collectionId, e.kind, e.assetId, e.newStatus, e.oldStatus, e.reason, e.at),
  );
}

/**
 * The statements that move a collection to `evaluation`: its assets replaced, an event for each
 * asset that entered or left and for a status change, its row updated.
 */
async function applyEvaluation(
  db: D1Database,
  collection: CollectionRecord,
  evaluation: Evaluation,
  change: { reason: string; statusReason: string; at: number; wasPopulating: boolean },
): Promise<CollectionRecord> {
  const { results } = await db
    .prepare("SELECT asset_id FROM v3_collection_assets WHERE collection_id = ?")
    .bind(collection.id)
    .all<{ asset_id: string }>();
  const before = new Set(results.map((row) => row.asset_id));
  const tooMany = evaluation.total > V3_COLLECTION_ASSETS_MAX;
  const after = new Set(evaluation.assets);
  const status = tooMany ? "paused" : "active";
  const statusReason = tooMany ? "too_many_assets" : change.statusReason;
  const events: EventRow[] = [];
  const statusEvent = (newStatus: string, oldStatus: string | null, reason: string): EventRow => ({
    kind: "status",
    assetId: null,
    newStatus,
    oldStatus,
    reason,
    at: change.at,
  });
  if (change.wasPopulating) events.push(statusEvent("populating", collection.status, change.statusReason));
  for (const id of [...before].filter((id) => !after.has(id)).sort())
    events.push({
      kind: "removed",
      assetId: id,
      newStatus: null,
      oldStatus: null,
      reason: `${id} ${change.reason}`,
      at: change.at,
    });
  for (const id of [...after].filter((id) => !before.has(id)))
    events.push({
      kind: "added",
      assetId: id,
      newStatus: null,
      oldStatus: null,
      reason: `${id} ${change.reason}`,
      at: change.at,
    });
  const previous = change.wasPopulating ? "populating" : collection.status;
  if (status !== previous) {
    const why = tooMany
      ? `the query matches ${evaluation.total} assets, more than the ${V3_COLLECTION_ASSETS_MAX} a collection holds`
      : change.statusReason;
    events.push(statusEvent(status, previous, why));
  }
  const inserts = [];
  const ids = [...after];
  for (let i = 0; i < ids.length; i += ROWS_PER_INSERT) {
    const chunk = ids.slice(i, i + ROWS_PER_INSERT);
    inserts.push(
      db
        .prepare(
          `INSERT INTO v3_collection_assets (collection_id, asset_id) VALUES ${chunk.map(() => "(?, ?)").join(", ")}`,
        )
        .bind(...chunk.flatMap((id) => [collection.id, id])),
    );
  }
  await db.batch([
    db.prepare("DELETE FROM v3_collection_assets WHERE collection_id = ?").bind(collection.id),
    ...inserts,
    ...eventStatements(db, collection.id, events),
    db
      .prepare(
        `DELETE FROM v3_collection_events WHERE collection_id = ? AND seq <=
         (SELECT seq FROM v3_collection_events WHERE collection_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
      )
      .bind(collection.id, collection.id, EVENTS_KEPT),
    db
      .prepare(
        "UPDATE v3_collections SET status = ?, status_reason = ?, dataset = ?, total_assets = ? WHERE id = ?",
      )
      .bind(status, statusReason, evaluation.dataset, evaluation.total, collection.id),
  ]);
  return { ...collection, status, statusReason, dataset: evaluation.dataset, totalAssets: evaluation.total };
}

export type CollectionWrite =
  | { ok: true; collection: CollectionRecord }
  | { ok: false; reason: "duplicate_name" | "too_many" | "not_found" };

/** Makes a collection (unless the organization has V3_COLLECTIONS_MAX, or the name is taken). */
export async function createCollection(
  db: D1Database,
  input: { organizationId: string; createdBy: string; name: string; description: string; query: string },
  evaluation: Evaluation,
  now: number,
): Promise<CollectionWrite> {
  const collection: CollectionRecord = {
    id: newRecordId("col"),
    ...input,
    status: "populating",
    statusReason: "initial",
    createdAt: now,
    dataset: evaluation.dataset,
    totalAssets: 0,
  };
  const inserted = await db
    .prepare(
      `INSERT INTO v3_collections (id, organization_id, name, name_key, description, query, status, status_reason, created_by, created_at, dataset, total_assets)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0
       WHERE (SELECT count(*) FROM v3_collections WHERE organization_id = ?) < ?
       ON CONFLICT DO NOTHING`,
    )
    .bind(
      collection.id,
      collection.organizationId,
      collection.name,
      v3NameKey(collection.name),
      collection.description,
      collection.query,
      collection.status,
      collection.statusReason,
      collection.createdBy,
      now,
      collection.dataset,
      collection.organizationId,
      V3_COLLECTIONS_MAX,
    )
    .run();
  if ((inserted.meta.changes ?? 0) === 0) return { ok: false, reason: await whyRefused(db, input) };
  const applied = await applyEvaluation(db, collection, evaluation, {
    reason: "matched the collection's query",
    statusReason: "initial",
    at: now,
    wasPopulating: true,
  });
  return { ok: true, collection: applied };
}

async function whyRefused(
  db: D1Database,
  input: { organizationId: string; name: string },
  except?: string,
): Promise<"duplicate_name" | "too_many"> {
  const taken = await db
    .prepare("SELECT 1 AS taken FROM v3_collections WHERE organization_id = ? AND name_key = ? AND id <> ?")
    .bind(input.organizationId, v3NameKey(input.name), except ?? "")
    .first();
  return taken ? "duplicate_name" : "too_many";
}

export async function readCollection(
  db: D1Database,
  organizationId: string,
  id: string,
): Promise<CollectionRecord | null> {
  const row = await db
    .prepare("SELECT * FROM v3_collections WHERE id = ? AND organization_id = ?")
    .bind(id, organizationId)
    .first<CollectionRow>();
  return row ? recordOf(row) : null;
}

/** Re-evaluates a collection whose assets were evaluated against another dataset. */
export async function refreshCollection(
  db: D1Database,
  collection: CollectionRecord,
  evaluation: Evaluation,
  now: number,
): Promise<CollectionRecord> {
  return applyEvaluation(db, collection, evaluation, {
    reason: "changed in the dataset",
    statusReason: collection.statusReason ?? "unspecified",
    at: now,
    wasPopulating: false,
  });
}

/**
 * Replaces a collection's name, description and query. `evaluation` is the assets its query
 * matches now, when they changed (a new query: `query_changed`; a reseed since the last
 * evaluation); null keeps its assets. Refused, changing nothing, when another collection has
 * the name.
 */
export async function updateCollection(
  db: D1Database,
  collection: CollectionRecord,
  input: { name: string; description: string; query: string },
  evaluation: Evaluation | null,
  now: number,
): Promise<CollectionWrite> {
  const updated = await db
    .prepare(
      `UPDATE v3_collections SET name = ?, name_key = ?, description = ?, query = ? WHERE id = ? AND organization_id = ?
       AND NOT EXISTS (SELECT 1 FROM v3_collections WHERE organization_id = ? AND name_key = ? AND id <> ?)`,
    )
    .bind(
      input.name,
      v3NameKey(input.name),
      input.description,
      input.query,
      collection.id,
      collection.organizationId,
      collection.organizationId,
      v3NameKey(input.name),
      collection.id,
    )
    .run();
  if ((updated.meta.changes ?? 0) === 0) {
    const still = await readCollection(db, collection.organizationId, collection.id);
    return { ok: false, reason: still ? "duplicate_name" : "not_found" };
  }
  const renamed = { ...collection, ...input };
  if (evaluation === null) return { ok: true, collection: renamed };
  const newQuery = input.query !== collection.query;
  const applied = await applyEvaluation(db, renamed, evaluation, {
    reason: newQuery ? "matched the collection's new query" : "changed in the dataset",
    statusReason: newQuery ? "query_changed" : (collection.statusReason ?? "unspecified"),
    at: now,
    wasPopulating: newQuery,
  });
  return { ok: true, collection: applied };
}

export async function deleteCollection(db: D1Database, organizationId: string, id: string): Promise<boolean> {
  const [deleted] = await db.batch([
    db.prepare("DELETE FROM v3_collections WHERE id = ? AND organization_id = ?").bind(id, organizationId),
    db.prepare("DELETE FROM v3_collection_assets WHERE collection_id = ? AND changes() > 0").bind(id),
  ]);
  if ((deleted?.meta.changes ?? 0) === 0) return false;
  await db.prepare("DELETE FROM v3_collection_events WHERE collection_id = ?").bind(id).run();
  return true;
}

/** A page of the organization's collections (oldest first) and how many match. */
export async function listCollections(
  db: D1Database,
  organizationId: string,
  statuses: readonly string[] | undefined,
  offset: number,
  limit: number,
): Promise<{ collections: CollectionRecord[]; total: number }> {
  const filter =
    statuses && statuses.length > 0 ? ` AND status IN (${statuses.map(() => "?").join(", ")})` : "";
  const params = [organizationId, ...(statuses ?? [])];
  const [page, count] = await db.batch<CollectionRow & { n?: number }>([
    db
      .prepare(
        `SELECT * FROM v3_collections WHERE organization_id = ?${filter} ORDER BY created_at, rowid LIMIT ? OFFSET ?`,
      )
      .bind(...params, limit, offset),
    db.prepare(`SELECT count(*) AS n FROM v3_collections WHERE organization_id = ?${filter}`).bind(...params),
  ]);
  return {
    collections: (page?.results ?? []).map(recordOf),
    total: Number(count?.results[0]?.n ?? 0),
  };
}

/** The collection as the SDK's `Collection`. */
export function collectionOf(
  record: CollectionRecord,
  recent: { added: number; removed: number },
): V3Collection {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    query: record.query,
    status: record.status,
    status_reason: record.statusReason,
    create_time: rfc3339(record.createdAt),
    created_by: record.createdBy,
    total_assets: record.totalAssets,
    added_assets_24_hours: recent.added,
    removed_assets_24_hours: recent.removed,
  };
}
