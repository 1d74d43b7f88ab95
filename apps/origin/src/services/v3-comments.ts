import { V3_ASSET_COMMENTS_MAX, V3_COMMENTS_MAX, type V3Comment } from "@scangate/core";
import { newRecordId, platformRef, rfc3339 } from "./v3-records";

/**
 * Comments on assets, per organization: every member sees them; only a comment's creator
 * changes it, and its creator or an admin deletes it. Bounds: V3_COMMENTS_MAX per organization,
 * V3_ASSET_COMMENTS_MAX per asset.
 */

export interface CommentRecord {
  id: string;
  organizationId: string;
  assetId: string;
  assetType: "host" | "certificate" | "web_property";
  body: string;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

interface CommentRow {
  id: string;
  organization_id: string;
  asset_id: string;
  asset_type: CommentRecord["assetType"];
  body: string;
  created_by: string;
  created_at: number;
  updated_at: number;
}

const recordOf = (row: CommentRow): CommentRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  assetId: row.asset_id,
  assetType: row.asset_type,
  body: row.body,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export type CommentWrite =
  | { ok: true; comment: CommentRecord }
  | { ok: false; reason: "organization_full" | "asset_full" };

export async function createComment(
  db: D1Database,
  input: Omit<CommentRecord, "id" | "updatedAt">,
): Promise<CommentWrite> {
  const comment: CommentRecord = { ...input, id: newRecordId("cmt"), updatedAt: input.createdAt };
  const inserted = await db
    .prepare(
      `INSERT INTO v3_comments (id, organization_id, asset_id, asset_type, body, created_by, created_at, updated_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?
       WHERE (SELECT count(*) FROM v3_comments WHERE organization_id = ?) < ?
         AND (SELECT count(*) FROM v3_comments WHERE organization_id = ? AND asset_id = ?) < ?`,
    )
    .bind(
      comment.id,
      comment.organizationId,
      comment.assetId,
      comment.assetType,
      comment.body,
      comment.createdBy,
      comment.createdAt,
      comment.updatedAt,
      comment.organizationId,
      V3_COMMENTS_MAX,
      comment.organizationId,
      comment.assetId,
      V3_ASSET_COMMENTS_MAX,
    )
    .run();
  if ((inserted.meta.changes ?? 0) > 0) return { ok: true, comment };
  const count = await db
    .prepare("SELECT count(*) AS n FROM v3_comments WHERE organization_id = ?")
    .bind(comment.organizationId)
    .first<{ n: number }>();
  return { ok: false, reason: Number(count?.n ?? 0) >= V3_COMMENTS_MAX ? "organization_full" : "asset_full" };
}

export async function readComment(
  db: D1Database,
  organizationId: string,
  id: string,
): Promise<CommentRecord | null> {
  const row = await db
    .prepare("SELECT * FROM v3_comments WHERE id = ? AND organization_id = ?")
    .bind(id, organizationId)
    .first<CommentRow>();
  return row ? recordOf(row) : null;
}

export async function updateComment(
  db: D1Database,
  comment: CommentRecord,
  body: string,
  now: number,
): Promise<CommentRecord> {
  await db
    .prepare("UPDATE v3_comments SET body = ?, updated_at = ? WHERE id = ?")
    .bind(body, now, comment.id)
    .run();
  return { ...comment, body, updatedAt: now };
}

export async function deleteComment(db: D1Database, comment: CommentRecord): Promise<void> {
  await db.prepare("DELETE FROM v3_comments WHERE id = ?").bind(comment.id).run();
}

export interface CommentFilter {
  assetId?: string;
  createdBy?: string;
  createdBefore?: number;
  createdAfter?: number;
  order?: "create_time_asc" | "create_time_desc";
}

export async function listComments(
  db: D1Database,
  organizationId: string,
  filter: CommentFilter,
  offset: number,
  limit: number,
): Promise<{ comments: CommentRecord[]; total: number }> {
  const conditions = ["organization_id = ?"];
  const params: (string | number)[] = [organizationId];
  const add = (sql: string, value: string | number | undefined) => {
    if (value === undefined) return;
    conditions.push(sql);
    params.push(value);
  };
  add("asset_id = ?", filter.assetId);
  add("created_by = ?", filter.createdBy);
  add("created_at < ?", filter.createdBefore);
  add("created_at > ?", filter.createdAfter);
  const where = conditions.join(" AND ");
  const order =
    filter.order === "create_time_asc" ? "created_at ASC, rowid ASC" : "created_at DESC, rowid DESC";
  const [page, count] = await db.batch<CommentRow & { n?: number }>([
    db
      .prepare(`SELECT * FROM v3_comments WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .bind(...params, limit, offset),
    db.prepare(`SELECT count(*) AS n FROM v3_comments WHERE ${where}`).bind(...params),
  ]);
  return { comments: (page?.results ?? []).map(recordOf), total: Number(count?.results[0]?.n ?? 0) };
}

export function commentOf(comment: CommentRecord): V3Comment {
  return {
    id: comment.id,
    asset_id: comment.assetId,
    asset_type: comment.assetType,
    body: comment.body,
    platform_ref: platformRef(comment.assetType, comment.assetId),
    created_by: comment.createdBy,
    created_at: rfc3339(comment.createdAt),
    updated_at: rfc3339(comment.updatedAt),
  };
}
