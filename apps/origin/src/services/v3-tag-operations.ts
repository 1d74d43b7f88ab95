import {
  V3_ASSET_TAGS_MAX,
  V3_RUNNING_TAG_OPERATIONS_MAX,
  V3_TAG_ASSETS_MAX,
  V3_TAG_OPERATION_PAGE,
  V3_TAG_OPERATION_START_MS,
  V3_TAG_OPERATION_STEP_MS,
  V3_TAG_OPERATIONS_KEPT,
  type V3TagOperation,
  type V3TagOperationStatus,
  type V3TagOperationType,
} from "@scangate/core";
import type { CenqlResource } from "@scangate/search";
import type { CompiledWhere } from "./search-engine";
import { matchSql } from "./v3-matches";
import { newRecordId, rfc3339 } from "./v3-records";
import { LIVE, type TagRecord, type Viewer } from "./v3-tags";

/**
 * Bulk tag operations: assign a tag to every asset a CenQL query matches, or remove it from the
 * assets it was assigned to (within a creation-time window), a page of V3_TAG_OPERATION_PAGE
 * assets at a time.
 *
 * What an operation does is decided when it starts, in that request: a bulk create writes its
 * assignments, each dated when its page comes; a bulk delete marks the assignments it removes
 * with their page's time. Its progress is then the clock's: it waits V3_TAG_OPERATION_START_MS
 * (`pending`), then page `k` is done V3_TAG_OPERATION_STEP_MS × k later (`running`), and an
 * assignment shows (or goes) when its page is done. Reading an operation never writes, so a
 * refused request changes nothing. Cancelling undoes the pages not done yet: the page in
 * progress at that moment is done; what was done stays. A bulk create that meets the tag's
 * asset limit (V3_TAG_ASSETS_MAX) ends `limit_reached`.
 */

export interface OperationRecord {
  id: string;
  organizationId: string;
  tagId: string;
  tagName: string;
  type: V3TagOperationType;
  query: string | null;
  totalCount: number;
  /** [processed, successful] per page. */
  pages: [number, number][];
  outcome: "succeeded" | "limit_reached";
  createdBy: string;
  createdAt: number;
  cancelledAt: number | null;
}

interface OperationRow {
  id: string;
  organization_id: string;
  tag_id: string;
  tag_name: string;
  type: V3TagOperationType;
  query: string | null;
  total_count: number;
  pages: string;
  outcome: "succeeded" | "limit_reached";
  created_by: string;
  created_at: number;
  cancelled_at: number | null;
}

const recordOf = (row: OperationRow): OperationRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  tagId: row.tag_id,
  tagName: row.tag_name,
  type: row.type,
  query: row.query,
  totalCount: row.total_count,
  pages: JSON.parse(row.pages) as [number, number][],
  outcome: row.outcome,
  createdBy: row.created_by,
  createdAt: row.created_at,
  cancelledAt: row.cancelled_at,
});

/** When page `k` of an operation started at `createdAt` is done. */
export const pageTime = (createdAt: number, k: number): number =>
  createdAt + V3_TAG_OPERATION_START_MS + k * V3_TAG_OPERATION_STEP_MS;

/** An operation as it is at `now`. */
export interface OperationState {
  status: V3TagOperationStatus;
  processed: number;
  successful: number;
  endedAt: number | null;
}

export function operationState(op: OperationRecord, now: number): OperationState {
  const until = op.cancelledAt === null ? now : Math.min(now, op.cancelledAt);
  let done = 0;
  while (done < op.pages.length && pageTime(op.createdAt, done) <= until) done++;
  const totals = op.pages.slice(0, done).reduce(([p, s], [pp, ss]) => [p + pp, s + ss], [0, 0]);
  const finished = done === op.pages.length;
  const status: V3TagOperationStatus = finished
    ? op.outcome
    : op.cancelledAt !== null && op.cancelledAt <= now
      ? "cancelled"
      : done === 0
        ? "pending"
        : "running";
  const endedAt = finished
    ? pageTime(op.createdAt, op.pages.length - 1)
    : status === "cancelled"
      ? op.cancelledAt
      : null;
  return { status, processed: totals[0] ?? 0, successful: totals[1] ?? 0, endedAt };
}

/** SQL: the operation (alias `o`) is unfinished at `?` (its last page not done, not cancelled). */
const UNFINISHED = `o.cancelled_at IS NULL AND o.created_at + ${V3_TAG_OPERATION_START_MS} + (o.steps - 1) * ${V3_TAG_OPERATION_STEP_MS} > ?`;

export type OperationStart =
  | { ok: true; operation: OperationRecord }
  | { ok: false; reason: "too_many_running" };

/** How many of `n` items each page holds (one empty page for none). */
function pageSizes(n: number): number[] {
  if (n === 0) return [0];
  return Array.from({ length: Math.ceil(n / V3_TAG_OPERATION_PAGE) }, (_, k) =>
    Math.min(V3_TAG_OPERATION_PAGE, n - k * V3_TAG_OPERATION_PAGE),
  );
}

const pageOf = (index: number) => Math.floor(index / V3_TAG_OPERATION_PAGE);

/**
 * Records the operation's row first, unless the organization runs V3_RUNNING_TAG_OPERATIONS_MAX
 * already (then nothing is written); the organization keeps its latest V3_TAG_OPERATIONS_KEPT.
 */
async function insertOperation(db: D1Database, op: OperationRecord, now: number): Promise<boolean> {
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO v3_tag_operations (id, organization_id, tag_id, tag_name, type, query, total_count, pages, steps, outcome, created_by, created_at)
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
         WHERE (SELECT count(*) FROM v3_tag_operations o WHERE o.organization_id = ? AND ${UNFINISHED}) < ?`,
      )
      .bind(
        op.id,
        op.organizationId,
        op.tagId,
        op.tagName,
        op.type,
        op.query,
        op.totalCount,
        JSON.stringify(op.pages),
        op.pages.length,
        op.outcome,
        op.createdBy,
        op.createdAt,
        op.organizationId,
        now,
        V3_RUNNING_TAG_OPERATIONS_MAX,
      ),
    db
      .prepare(
        `DELETE FROM v3_tag_operations WHERE organization_id = ? AND id NOT IN
         (SELECT id FROM v3_tag_operations WHERE organization_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?)`,
      )
      .bind(op.organizationId, op.organizationId, V3_TAG_OPERATIONS_KEPT),
  ]);
  return (inserted?.meta.changes ?? 0) > 0;
}

async function savePages(db: D1Database, op: OperationRecord): Promise<void> {
  await db
    .prepare("UPDATE v3_tag_operations SET pages = ?, steps = ?, outcome = ? WHERE id = ?")
    .bind(JSON.stringify(op.pages), op.pages.length, op.outcome, op.id)
    .run();
}

/** Assignments written per statement (their ids and pages as one JSON text). */
const ROWS_PER_STATEMENT = 2000;

/**
 * Starts a bulk create: the query's matches walked in key order, each asset that does not have
 * the tag (and carries fewer than V3_ASSET_TAGS_MAX tags) assigned on its page, until the
 * caller's `maxAssets` or the tag's limit. `matches` is how many the query matches now.
 */
export async function startBulkCreate(
  db: D1Database,
  tag: TagRecord,
  request: {
    query: string;
    resource: CenqlResource;
    where: CompiledWhere;
    maxAssets: number | null;
    matches: number;
  },
  createdBy: string,
  now: number,
): Promise<OperationStart> {
  const live = await db
    .prepare(`SELECT count(*) AS n FROM v3_tag_assignments WHERE tag_id = ? AND ${LIVE}`)
    .bind(tag.id, now)
    .first<{ n: number }>();
  const room = Math.max(0, V3_TAG_ASSETS_MAX - Number(live?.n ?? 0));
  const cap = Math.min(room, request.maxAssets ?? Number.POSITIVE_INFINITY);
  const op: OperationRecord = {
    id: newRecordId("top"),
    organizationId: tag.organizationId,
    tagId: tag.id,
    tagName: tag.name,
    type: "bulk_create",
    query: request.query,
    totalCount: Math.min(request.matches, cap),
    pages: [[0, 0]],
    outcome: "succeeded",
    createdBy,
    createdAt: now,
    cancelledAt: null,
  };
  if (!(await insertOperation(db, op, now))) return { ok: false, reason: "too_many_running" };
  // The walk: the first matches, enough to find the assets to tag among those that have it.
  const walk = matchSql(request.resource, request.where, room + V3_TAG_ASSETS_MAX + V3_TAG_OPERATION_PAGE);
  const [eligible, walked] = await db.batch<{ id: string; type: string; rn: number; n?: number }>([
    db
      .prepare(
        `SELECT m.id AS id, m.type AS type, m.rn AS rn FROM
           (SELECT w.id AS id, w.type AS type, row_number() OVER (ORDER BY w.k) AS rn FROM (${walk.sql}) w) m
         WHERE NOT EXISTS (SELECT 1 FROM v3_tag_assignments a WHERE a.tag_id = ? AND a.asset_id = m.id
                             AND (a.removed_at IS NULL OR a.removed_at > ?))
           AND (SELECT count(*) FROM v3_tag_assignments b WHERE b.organization_id = ? AND b.asset_id = m.id
                  AND (b.removed_at IS NULL OR b.removed_at > ?)) < ?
         ORDER BY m.rn LIMIT ?`,
      )
      .bind(...walk.params, tag.id, now, tag.organizationId, now, V3_ASSET_TAGS_MAX, Math.min(cap, room) + 1),
    db.prepare(`SELECT count(*) AS n FROM (${walk.sql})`).bind(...walk.params),
  ]);
  const rows = eligible?.results ?? [];
  const limited = rows.length > cap;
  const chosen = rows.slice(0, cap);
  // Processed: every match walked, up to the one that filled the cap when one did.
  const processed = limited ? (chosen[chosen.length - 1]?.rn ?? 0) : Number(walked?.results[0]?.n ?? 0);
  const tagged = new Map<number, number>();
  for (const row of chosen) tagged.set(pageOf(row.rn - 1), (tagged.get(pageOf(row.rn - 1)) ?? 0) + 1);
  op.pages = pageSizes(processed).map((size, k) => [size, tagged.get(k) ?? 0]);
  op.outcome = limited && cap === room ? "limit_reached" : "succeeded";
  const statements = [];
  for (let i = 0; i < chosen.length; i += ROWS_PER_STATEMENT) {
    const part = chosen.slice(i, i + ROWS_PER_STATEMENT).map((row) => [row.id, row.type, pageOf(row.rn - 1)]);
    statements.push(
      db
        .prepare(
          `INSERT INTO v3_tag_assignments (id, organization_id, tag_id, asset_id, asset_type, created_by, created_at, operation_id)
           SELECT 'tas_' || lower(hex(randomblob(16))), ?, ?, j.value ->> '$[0]', j.value ->> '$[1]', ?,
                  ? + (j.value ->> '$[2]') * ${V3_TAG_OPERATION_STEP_MS}, ?
           FROM json_each(?) j WHERE true
           ON CONFLICT (tag_id, asset_id) DO UPDATE SET id = excluded.id, created_by = excluded.created_by,
             created_at = excluded.created_at, removed_at = NULL, operation_id = excluded.operation_id, removal_operation_id = NULL
           WHERE v3_tag_assignments.removed_at IS NOT NULL AND v3_tag_assignments.removed_at <= ?`,
        )
        .bind(tag.organizationId, tag.id, createdBy, pageTime(now, 0), op.id, JSON.stringify(part), now),
    );
  }
  if (statements.length > 0) await db.batch(statements);
  await savePages(db, op);
  return { ok: true, operation: op };
}

/**
 * Starts a bulk delete: the tag's assignments made before now (within the window), oldest
 * first, each marked to go on its page.
 */
export async function startBulkDelete(
  db: D1Database,
  tag: TagRecord,
  window: { after: number | null; before: number | null },
  createdBy: string,
  now: number,
): Promise<OperationStart> {
  const op: OperationRecord = {
    id: newRecordId("top"),
    organizationId: tag.organizationId,
    tagId: tag.id,
    tagName: tag.name,
    type: "bulk_delete",
    query: null,
    totalCount: 0,
    pages: [[0, 0]],
    outcome: "succeeded",
    createdBy,
    createdAt: now,
    cancelledAt: null,
  };
  if (!(await insertOperation(db, op, now))) return { ok: false, reason: "too_many_running" };
  const marked = await db
    .prepare(
      `UPDATE v3_tag_assignments SET removed_at = ? + ((w.rn - 1) / ${V3_TAG_OPERATION_PAGE}) * ${V3_TAG_OPERATION_STEP_MS},
         removal_operation_id = ?
       FROM (SELECT id AS aid, row_number() OVER (ORDER BY created_at, rowid) AS rn FROM v3_tag_assignments
             WHERE tag_id = ? AND created_at <= ? AND removed_at IS NULL
               AND (? IS NULL OR created_at > ?) AND (? IS NULL OR created_at < ?)) w
       WHERE v3_tag_assignments.id = w.aid`,
    )
    .bind(pageTime(now, 0), op.id, tag.id, now, window.after, window.after, window.before, window.before)
    .run();
  const removed = marked.meta.changes ?? 0;
  op.pages = pageSizes(removed).map((size) => [size, size]);
  await savePages(db, op);
  return { ok: true, operation: op };
}

/**
 * Cancels an unfinished operation at `now`: the pages not done yet are undone (a bulk create's
 * assignments on them deleted, a bulk delete's removals withdrawn). False when it had finished.
 */
export async function cancelOperation(db: D1Database, op: OperationRecord, now: number): Promise<boolean> {
  const updated = await db
    .prepare(`UPDATE v3_tag_operations AS o SET cancelled_at = ? WHERE o.id = ? AND ${UNFINISHED}`)
    .bind(now, op.id, now)
    .run();
  if ((updated.meta.changes ?? 0) === 0) return false;
  await (
    op.type === "bulk_create"
      ? db
          .prepare("DELETE FROM v3_tag_assignments WHERE operation_id = ? AND created_at > ?")
          .bind(op.id, now)
      : db
          .prepare(
            "UPDATE v3_tag_assignments SET removed_at = NULL, removal_operation_id = NULL WHERE removal_operation_id = ? AND removed_at > ?",
          )
          .bind(op.id, now)
  ).run();
  return true;
}

export interface OperationFilter {
  type?: V3TagOperationType;
  status?: V3TagOperationStatus;
  order?: "create_time_asc" | "create_time_desc";
}

/**
 * The operations of the tag, or of every tag `viewer` sees when `tagId` is null, that the
 * filter keeps, as they are at `now`, in the order asked. An organization keeps
 * V3_TAG_OPERATIONS_KEPT, so the status filter (of a state the clock decides) reads them all.
 */
export async function listOperations(
  db: D1Database,
  viewer: Viewer,
  tagId: string | null,
  filter: OperationFilter,
  now: number,
): Promise<OperationRecord[]> {
  const conditions = ["organization_id = ?"];
  const params: (string | number)[] = [viewer.organizationId];
  if (tagId !== null) {
    conditions.push("tag_id = ?");
    params.push(tagId);
  } else if (!viewer.admin) {
    conditions.push(
      "tag_id IN (SELECT id FROM v3_tags WHERE organization_id = ? AND (privacy = 'shared' OR created_by = ?))",
    );
    params.push(viewer.organizationId, viewer.userId);
  }
  if (filter.type) {
    conditions.push("type = ?");
    params.push(filter.type);
  }
  const order =
    filter.order === "create_time_asc" ? "created_at ASC, rowid ASC" : "created_at DESC, rowid DESC";
  const { results } = await db
    .prepare(`SELECT * FROM v3_tag_operations WHERE ${conditions.join(" AND ")} ORDER BY ${order}`)
    .bind(...params)
    .all<OperationRow>();
  return results
    .map(recordOf)
    .filter((op) => filter.status === undefined || operationState(op, now).status === filter.status);
}

/** The organization's operation, or null. */
export async function readOperation(
  db: D1Database,
  organizationId: string,
  id: string,
): Promise<OperationRecord | null> {
  const row = await db
    .prepare("SELECT * FROM v3_tag_operations WHERE id = ? AND organization_id = ?")
    .bind(id, organizationId)
    .first<OperationRow>();
  return row ? recordOf(row) : null;
}

export function operationOf(op: OperationRecord, now: number): V3TagOperation {
  const state = operationState(op, now);
  const finished = state.endedAt !== null;
  const total = op.type === "bulk_delete" ? (finished ? state.processed : 0) : op.totalCount;
  return {
    id: op.id,
    tag_id: op.tagId,
    tag_name: op.tagName,
    type: op.type,
    status: state.status,
    ...(op.query === null ? {} : { query: op.query }),
    total_count: total,
    processed_count: state.processed,
    successful_count: state.successful,
    created_at: rfc3339(op.createdAt),
    ...(state.endedAt === null ? {} : { ended_at: rfc3339(state.endedAt) }),
    ...(finished ? { status_message: finishedMessage(op.type, state) } : {}),
  };
}

function finishedMessage(type: V3TagOperationType, state: OperationState): string {
  if (state.status === "cancelled")
    return `cancelled after processing ${state.processed} assets (${state.successful} ${type === "bulk_create" ? "assigned" : "removed"})`;
  if (state.status === "limit_reached")
    return `the tag's asset limit (${V3_TAG_ASSETS_MAX}) was reached after assigning ${state.successful} assets`;
  return type === "bulk_create"
    ? `assigned the tag to ${state.successful} of ${state.processed} matching assets (the others had it already or carry the most tags an asset may)`
    : `removed the tag from ${state.successful} assets`;
}
