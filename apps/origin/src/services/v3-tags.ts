import {
  v3NameKey,
  V3_ASSET_TAGS_MAX,
  V3_TAG_ASSETS_MAX,
  V3_TAGS_MAX,
  type V3Tag,
  type V3TagAssignment,
  type V3TagPrivacy,
} from "@scangate/core";
import { newRecordId, platformRef, rfc3339 } from "./v3-records";

/**
 * Tags and tag assignments of an organization. Names are unique per organization as names
 * compare (NFC, any case). A private tag is seen only by its creator and the organization's
 * admins; a shared one by every member. Bounds: V3_TAGS_MAX tags per organization,
 * V3_TAG_ASSETS_MAX assets per tag, V3_ASSET_TAGS_MAX tags per asset.
 */

export interface TagRecord {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  privacy: V3TagPrivacy;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

interface TagRow {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  privacy: V3TagPrivacy;
  created_by: string;
  created_at: number;
  updated_at: number;
}

const tagOf = (row: TagRow): TagRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  description: row.description,
  privacy: row.privacy,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * SQL: an assignment row (bound `?` the clock's now) still holds: no bulk delete has removed it
 * by now. One a bulk create made holds before its page is done (it counts toward the caps) but
 * shows only from its `created_at` on (VISIBLE).
 */
export const LIVE = "(removed_at IS NULL OR removed_at > ?)";
/** SQL: an assignment row shows now (binds now twice). */
const VISIBLE = `created_at <= ? AND ${LIVE}`;

/** Who is asking: private tags of others are invisible to members who are not admins. */
export interface Viewer {
  organizationId: string;
  userId: string;
  admin: boolean;
}

/** The SQL condition (and its values) of the tags `viewer` sees. */
function visible(viewer: Viewer, alias = ""): { sql: string; params: (string | number)[] } {
  const at = alias ? `${alias}.` : "";
  if (viewer.admin) return { sql: `${at}organization_id = ?`, params: [viewer.organizationId] };
  return {
    sql: `${at}organization_id = ? AND (${at}privacy = 'shared' OR ${at}created_by = ?)`,
    params: [viewer.organizationId, viewer.userId],
  };
}

export type TagWrite = { ok: true; tag: TagRecord } | { ok: false; reason: "duplicate_name" | "too_many" };

export async function createTag(
  db: D1Database,
  viewer: Viewer,
  input: { name: string; description?: string; privacy: V3TagPrivacy },
  now: number,
): Promise<TagWrite> {
  const tag: TagRecord = {
    id: newRecordId("tag"),
    organizationId: viewer.organizationId,
    name: input.name,
    description: input.description ?? null,
    privacy: input.privacy,
    createdBy: viewer.userId,
    createdAt: now,
    updatedAt: now,
  };
  const inserted = await db
    .prepare(
      `INSERT INTO v3_tags (id, organization_id, name, name_key, description, privacy, created_by, created_at, updated_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM v3_tags WHERE organization_id = ?) < ?
       ON CONFLICT DO NOTHING`,
    )
    .bind(
      tag.id,
      tag.organizationId,
      tag.name,
      v3NameKey(tag.name),
      tag.description,
      tag.privacy,
      tag.createdBy,
      now,
      now,
      tag.organizationId,
      V3_TAGS_MAX,
    )
    .run();
  if ((inserted.meta.changes ?? 0) > 0) return { ok: true, tag };
  return {
    ok: false,
    reason: (await nameTaken(db, tag.organizationId, tag.name, "")) ? "duplicate_name" : "too_many",
  };
}

async function nameTaken(
  db: D1Database,
  organizationId: string,
  name: string,
  except: string,
): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS taken FROM v3_tags WHERE organization_id = ? AND name_key = ? AND id <> ?")
    .bind(organizationId, v3NameKey(name), except)
    .first();
  return row !== null;
}

/** The tag `idOrName` names (its id, or its name as names compare) if `viewer` sees it. */
export async function readTag(db: D1Database, viewer: Viewer, idOrName: string): Promise<TagRecord | null> {
  const scope = visible(viewer);
  const row = await db
    .prepare(
      `SELECT * FROM v3_tags WHERE ${scope.sql} AND (id = ? OR name_key = ?) ORDER BY id = ? DESC LIMIT 1`,
    )
    .bind(...scope.params, idOrName, v3NameKey(idOrName), idOrName)
    .first<TagRow>();
  return row ? tagOf(row) : null;
}

const ORDERS: Record<string, string> = {
  name_asc: "name_key ASC, rowid",
  name_desc: "name_key DESC, rowid",
  created_at_asc: "created_at ASC, rowid",
  created_at_desc: "created_at DESC, rowid DESC",
  updated_at_asc: "updated_at ASC, rowid",
  updated_at_desc: "updated_at DESC, rowid DESC",
};

export interface TagFilter {
  name?: string;
  createdBy?: string;
  privacy?: V3TagPrivacy;
  orderBy?: string;
}

/** A page of the tags `viewer` sees, and how many the filter keeps. */
export async function listTags(
  db: D1Database,
  viewer: Viewer,
  filter: TagFilter,
  offset: number,
  limit: number,
): Promise<{ tags: TagRecord[]; total: number }> {
  const scope = visible(viewer);
  const conditions = [scope.sql];
  const params = [...scope.params];
  if (filter.name !== undefined) {
    conditions.push("name_key = ?");
    params.push(v3NameKey(filter.name));
  }
  if (filter.createdBy !== undefined) {
    conditions.push("created_by = ?");
    params.push(filter.createdBy);
  }
  if (filter.privacy !== undefined) {
    conditions.push("privacy = ?");
    params.push(filter.privacy);
  }
  const where = conditions.join(" AND ");
  const order = ORDERS[filter.orderBy ?? "created_at_asc"] ?? ORDERS.created_at_asc;
  const [page, count] = await db.batch<TagRow & { n?: number }>([
    db
      .prepare(`SELECT * FROM v3_tags WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .bind(...params, limit, offset),
    db.prepare(`SELECT count(*) AS n FROM v3_tags WHERE ${where}`).bind(...params),
  ]);
  return { tags: (page?.results ?? []).map(tagOf), total: Number(count?.results[0]?.n ?? 0) };
}

/** May `viewer` change or delete the tag (and its assignments)? A private one: its creator or an admin. */
export function mayManage(viewer: Viewer, tag: TagRecord): boolean {
  return tag.privacy === "shared" || viewer.admin || tag.createdBy === viewer.userId;
}

/** Changes the fields given; refused when another tag has the new name. */
export async function updateTag(
  db: D1Database,
  tag: TagRecord,
  change: { name?: string; description?: string; privacy?: V3TagPrivacy },
  now: number,
): Promise<TagWrite> {
  const next: TagRecord = {
    ...tag,
    name: change.name ?? tag.name,
    description: change.description ?? tag.description,
    privacy: change.privacy ?? tag.privacy,
    updatedAt: now,
  };
  const updated = await db
    .prepare(
      `UPDATE v3_tags SET name = ?, name_key = ?, description = ?, privacy = ?, updated_at = ?
       WHERE id = ? AND NOT EXISTS (SELECT 1 FROM v3_tags WHERE organization_id = ? AND name_key = ? AND id <> ?)`,
    )
    .bind(
      next.name,
      v3NameKey(next.name),
      next.description,
      next.privacy,
      now,
      tag.id,
      tag.organizationId,
      v3NameKey(next.name),
      tag.id,
    )
    .run();
  return (updated.meta.changes ?? 0) > 0 ? { ok: true, tag: next } : { ok: false, reason: "duplicate_name" };
}

/** Deletes the tag, its assignments and its bulk operations. */
export async function deleteTag(db: D1Database, tag: TagRecord): Promise<void> {
  await db.batch([
    db.prepare("DELETE FROM v3_tags WHERE id = ?").bind(tag.id),
    db.prepare("DELETE FROM v3_tag_assignments WHERE tag_id = ?").bind(tag.id),
    db.prepare("DELETE FROM v3_tag_operations WHERE tag_id = ?").bind(tag.id),
  ]);
}

export function tagOfRecord(tag: TagRecord): V3Tag {
  return {
    id: tag.id,
    name: tag.name,
    ...(tag.description === null ? {} : { description: tag.description }),
    privacy: tag.privacy,
    created_by: tag.createdBy,
    created_at: rfc3339(tag.createdAt),
    updated_at: rfc3339(tag.updatedAt),
  };
}

// ---- assignments ------------------------------------------------------------------------------

export interface AssignmentRecord {
  id: string;
  tagId: string;
  assetId: string;
  assetType: "host" | "certificate" | "web_property";
  createdBy: string;
  createdAt: number;
}

interface AssignmentRow {
  id: string;
  tag_id: string;
  asset_id: string;
  asset_type: AssignmentRecord["assetType"];
  created_by: string;
  created_at: number;
}

const assignmentOf = (row: AssignmentRow): AssignmentRecord => ({
  id: row.id,
  tagId: row.tag_id,
  assetId: row.asset_id,
  assetType: row.asset_type,
  createdBy: row.created_by,
  createdAt: row.created_at,
});

export type AssignmentWrite =
  | { ok: true; assignment: AssignmentRecord }
  | { ok: false; reason: "assigned" | "tag_full" | "asset_full" };

/**
 * Assigns `tag` to one asset, unless the tag has it already (a removed assignment is made anew),
 * the tag holds V3_TAG_ASSETS_MAX assets or the asset carries V3_ASSET_TAGS_MAX tags (then it
 * changes nothing). One conditional statement, so the caps hold under concurrency.
 */
export async function assign(
  db: D1Database,
  tag: TagRecord,
  asset: { id: string; type: AssignmentRecord["assetType"] },
  createdBy: string,
  now: number,
): Promise<AssignmentWrite> {
  const id = newRecordId("tas");
  const inserted = await db
    .prepare(
      `INSERT INTO v3_tag_assignments (id, organization_id, tag_id, asset_id, asset_type, created_by, created_at)
       SELECT ?, ?, ?, ?, ?, ?, ?
       WHERE (SELECT count(*) FROM v3_tag_assignments WHERE tag_id = ? AND ${LIVE}) < ?
         AND (SELECT count(*) FROM v3_tag_assignments WHERE organization_id = ? AND asset_id = ? AND ${LIVE}) < ?
       ON CONFLICT (tag_id, asset_id) DO UPDATE SET id = excluded.id, created_by = excluded.created_by,
         created_at = excluded.created_at, removed_at = NULL, operation_id = NULL, removal_operation_id = NULL
       WHERE v3_tag_assignments.removed_at IS NOT NULL AND v3_tag_assignments.removed_at <= ?`,
    )
    .bind(
      id,
      tag.organizationId,
      tag.id,
      asset.id,
      asset.type,
      createdBy,
      now,
      tag.id,
      now,
      V3_TAG_ASSETS_MAX,
      tag.organizationId,
      asset.id,
      now,
      V3_ASSET_TAGS_MAX,
      now,
    )
    .run();
  if ((inserted.meta.changes ?? 0) > 0)
    return {
      ok: true,
      assignment: { id, tagId: tag.id, assetId: asset.id, assetType: asset.type, createdBy, createdAt: now },
    };
  const [existing, tagCount] = await db.batch<{ n: number }>([
    db
      .prepare(`SELECT count(*) AS n FROM v3_tag_assignments WHERE tag_id = ? AND asset_id = ? AND ${LIVE}`)
      .bind(tag.id, asset.id, now),
    db.prepare(`SELECT count(*) AS n FROM v3_tag_assignments WHERE tag_id = ? AND ${LIVE}`).bind(tag.id, now),
  ]);
  if (Number(existing?.results[0]?.n ?? 0) > 0) return { ok: false, reason: "assigned" };
  if (Number(tagCount?.results[0]?.n ?? 0) >= V3_TAG_ASSETS_MAX) return { ok: false, reason: "tag_full" };
  return { ok: false, reason: "asset_full" };
}

export interface AssignmentFilter {
  assetId?: string;
  assetType?: string;
  createdBy?: string;
  createdBefore?: number;
  createdAfter?: number;
  order?: "create_time_asc" | "create_time_desc";
}

/** A page of the tag's assignments that show at `now`, and how many the filter keeps. */
export async function listAssignments(
  db: D1Database,
  tagId: string,
  filter: AssignmentFilter,
  now: number,
  offset: number,
  limit: number,
): Promise<{ assignments: AssignmentRecord[]; total: number }> {
  const conditions = ["tag_id = ?", VISIBLE];
  const params: (string | number)[] = [tagId, now, now];
  const add = (sql: string, value: string | number | undefined) => {
    if (value === undefined) return;
    conditions.push(sql);
    params.push(value);
  };
  add("asset_id = ?", filter.assetId);
  add("asset_type = ?", filter.assetType);
  add("created_by = ?", filter.createdBy);
  add("created_at < ?", filter.createdBefore);
  add("created_at > ?", filter.createdAfter);
  const where = conditions.join(" AND ");
  const order =
    filter.order === "create_time_desc" ? "created_at DESC, rowid DESC" : "created_at ASC, rowid ASC";
  const [page, count] = await db.batch<AssignmentRow & { n?: number }>([
    db
      .prepare(`SELECT * FROM v3_tag_assignments WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .bind(...params, limit, offset),
    db.prepare(`SELECT count(*) AS n FROM v3_tag_assignments WHERE ${where}`).bind(...params),
  ]);
  return { assignments: (page?.results ?? []).map(assignmentOf), total: Number(count?.results[0]?.n ?? 0) };
}

/** Removes one assignment of the tag that shows now; false when the tag has no such assignment. */
export async function unassign(
  db: D1Database,
  tagId: string,
  assignmentId: string,
  now: number,
): Promise<boolean> {
  const deleted = await db
    .prepare(`DELETE FROM v3_tag_assignments WHERE id = ? AND tag_id = ? AND ${VISIBLE}`)
    .bind(assignmentId, tagId, now, now)
    .run();
  return (deleted.meta.changes ?? 0) > 0;
}

export function assignmentOfRecord(record: AssignmentRecord): V3TagAssignment {
  return {
    id: record.id,
    tag_id: record.tagId,
    asset_id: record.assetId,
    asset_type: record.assetType,
    platform_ref: platformRef(record.assetType, record.assetId),
    created_by: record.createdBy,
    created_at: rfc3339(record.createdAt),
  };
}
