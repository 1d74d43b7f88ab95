import {
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
import { newRecordId, rfc3339 } from "./v3-records";
import type { MatchedAsset } from "./v3-matches";
import { assignStatement, type TagRecord } from "./v3-tags";

/**
 * Bulk tag operations: assign a tag to every asset a CenQL query matches, or remove it from the
 * assets it was assigned to (within a creation-time window), a page of V3_TAG_OPERATION_PAGE
 * assets at a time. Time is the clock's, with no background worker: an operation waits
 * V3_TAG_OPERATION_START_MS (`pending`), then processes one page every
 * V3_TAG_OPERATION_STEP_MS (`running`); whenever the organization's tags are read, each of its
 * operations is brought to where it would be by now. Cancelling stops it after the page in
 * progress at the moment of cancelling; what it did stays. A bulk create that meets the tag's
 * asset limit ends `limit_reached`.
 */

export interface OperationRecord {
  id: string;
  organizationId: string;
  tagId: string;
  tagName: string;
  type: V3TagOperationType;
  status: V3TagOperationStatus;
  query: string | null;
  maxAssets: number | null;
  createdAfter: number | null;
  createdBefore: number | null;
  totalCount: number;
  processedCount: number;
  successfulCount: number;
  cursor: string | null;
  steps: number;
  createdBy: string;
  createdAt: number;
  cancelledAt: number | null;
  endedAt: number | null;
  statusMessage: string | null;
  errorMessage: string | null;
}

interface OperationRow {
  id: string;
  organization_id: string;
  tag_id: string;
  tag_name: string;
  type: V3TagOperationType;
  status: V3TagOperationStatus;
  query: string | null;
  max_assets: number | null;
  created_after: number | null;
  created_before: number | null;
  total_count: number;
  processed_count: number;
  successful_count: number;
  cursor: string | null;
  steps: number;
  created_by: string;
  created_at: number;
  cancelled_at: number | null;
  ended_at: number | null;
  status_message: string | null;
  error_message: string | null;
}

const recordOf = (row: OperationRow): OperationRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  tagId: row.tag_id,
  tagName: row.tag_name,
  type: row.type,
  status: row.status,
  query: row.query,
  maxAssets: row.max_assets,
  createdAfter: row.created_after,
  createdBefore: row.created_before,
  totalCount: row.total_count,
  processedCount: row.processed_count,
  successfulCount: row.successful_count,
  cursor: row.cursor,
  steps: row.steps,
  createdBy: row.created_by,
  createdAt: row.created_at,
  cancelledAt: row.cancelled_at,
  endedAt: row.ended_at,
  statusMessage: row.status_message,
  errorMessage: row.error_message,
});

const FINISHED: ReadonlySet<string> = new Set(["succeeded", "limit_reached", "failed", "cancelled"]);
export const isFinished = (op: OperationRecord): boolean => FINISHED.has(op.status);

/** When step `k` (0-based) of an operation runs. */
const stepTime = (op: OperationRecord, k: number) =>
  op.createdAt + V3_TAG_OPERATION_START_MS + k * V3_TAG_OPERATION_STEP_MS;

/** Where a bulk create reads the assets its query matches: the next page after a key. */
export interface MatchSource {
  next(after: number | null, limit: number): Promise<MatchedAsset[]>;
}

export type OperationStart = { ok: true; operation: OperationRecord } | { ok: false; reason: "too_many_running" };

/**
 * Starts an operation unless the organization runs V3_RUNNING_TAG_OPERATIONS_MAX already (it
 * keeps its latest V3_TAG_OPERATIONS_KEPT operations).
 */
export async function startOperation(
  db: D1Database,
  operation: Pick<
    OperationRecord,
    "organizationId" | "tagId" | "tagName" | "type" | "query" | "maxAssets" | "createdAfter" | "createdBefore" | "totalCount" | "createdBy" | "createdAt"
  >,
): Promise<OperationStart> {
  const record: OperationRecord = {
    ...operation,
    id: newRecordId("top"),
    status: "pending",
    processedCount: 0,
    successfulCount: 0,
    cursor: null,
    steps: 0,
    cancelledAt: null,
    endedAt: null,
    statusMessage: null,
    errorMessage: null,
  };
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO v3_tag_operations (id, organization_id, tag_id, tag_name, type, status, query, max_assets, created_after, created_before,
           total_count, processed_count, successful_count, cursor, steps, created_by, created_at)
         SELECT ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, 0, 0, NULL, 0, ?, ?
         WHERE (SELECT count(*) FROM v3_tag_operations WHERE organization_id = ? AND status IN ('pending', 'running')) < ?`,
      )
      .bind(
        record.id,
        record.organizationId,
        record.tagId,
        record.tagName,
        record.type,
        record.query,
        record.maxAssets,
        record.createdAfter,
        record.createdBefore,
        record.totalCount,
        record.createdBy,
        record.createdAt,
        record.organizationId,
        V3_RUNNING_TAG_OPERATIONS_MAX,
      ),
    db
      .prepare(
        `DELETE FROM v3_tag_operations WHERE organization_id = ? AND status NOT IN ('pending', 'running') AND id NOT IN
         (SELECT id FROM v3_tag_operations WHERE organization_id = ? ORDER BY created_at DESC, id LIMIT ?)`,
      )
      .bind(record.organizationId, record.organizationId, V3_TAG_OPERATIONS_KEPT),
  ]);
  return (inserted?.meta.changes ?? 0) > 0 ? { ok: true, operation: record } : { ok: false, reason: "too_many_running" };
}

export async function readOperation(db: D1Database, organizationId: string, id: string): Promise<OperationRecord | null> {
  const row = await db
    .prepare("SELECT * FROM v3_tag_operations WHERE id = ? AND organization_id = ?")
    .bind(id, organizationId)
    .first<OperationRow>();
  return row ? recordOf(row) : null;
}

/** The organization's unfinished operations (to bring them up to now). */
export async function unfinishedOperations(db: D1Database, organizationId: string): Promise<OperationRecord[]> {
  const { results } = await db
    .prepare("SELECT * FROM v3_tag_operations WHERE organization_id = ? AND status IN ('pending', 'running') ORDER BY created_at")
    .bind(organizationId)
    .all<OperationRow>();
  return results.map(recordOf);
}

export interface OperationFilter {
  tagId?: string;
  type?: V3TagOperationType;
  status?: V3TagOperationStatus;
  order?: "create_time_asc" | "create_time_desc";
}

export async function listOperations(
  db: D1Database,
  organizationId: string,
  tagIds: readonly string[] | null,
  filter: OperationFilter,
  offset: number,
  limit: number,
): Promise<{ operations: OperationRecord[]; total: number }> {
  const conditions = ["organization_id = ?"];
  const params: (string | number)[] = [organizationId];
  if (tagIds !== null) {
    conditions.push(tagIds.length === 0 ? "0" : `tag_id IN (${tagIds.map(() => "?").join(", ")})`);
    params.push(...tagIds);
  }
  if (filter.type) {
    conditions.push("type = ?");
    params.push(filter.type);
  }
  if (filter.status) {
    conditions.push("status = ?");
    params.push(filter.status);
  }
  const where = conditions.join(" AND ");
  const order = filter.order === "create_time_asc" ? "created_at ASC, id ASC" : "created_at DESC, id DESC";
  const [page, count] = await db.batch<OperationRow & { n?: number }>([
    db.prepare(`SELECT * FROM v3_tag_operations WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`).bind(...params, limit, offset),
    db.prepare(`SELECT count(*) AS n FROM v3_tag_operations WHERE ${where}`).bind(...params),
  ]);
  return { operations: (page?.results ?? []).map(recordOf), total: Number(count?.results[0]?.n ?? 0) };
}

interface StepResult {
  processed: number;
  successful: number;
  cursor: string | null;
  /** The walk is over: `succeeded`, or `limit_reached` when the tag's limit stopped it. */
  done: V3TagOperationStatus | null;
}

async function createStep(db: D1Database, op: OperationRecord, tag: TagRecord, source: MatchSource, at: number): Promise<StepResult> {
  const allowed = op.maxAssets === null ? V3_TAG_OPERATION_PAGE : Math.min(V3_TAG_OPERATION_PAGE, op.maxAssets - op.processedCount);
  const page = allowed > 0 ? await source.next(op.cursor === null ? null : Number(op.cursor), allowed) : [];
  const results =
    page.length === 0
      ? []
      : await db.batch(page.map((asset) => assignStatement(db, tag, { id: asset.id, type: asset.type }, op.createdBy, at)));
  const successful = results.reduce((n, r) => n + (r.meta.changes ?? 0), 0);
  const count = await db.prepare("SELECT count(*) AS n FROM v3_tag_assignments WHERE tag_id = ?").bind(tag.id).first<{ n: number }>();
  const full = Number(count?.n ?? 0) >= V3_TAG_ASSETS_MAX;
  const processed = op.processedCount + page.length;
  const end =
    full && (page.length === allowed || successful < page.length)
      ? "limit_reached"
      : page.length < allowed || (op.maxAssets !== null && processed >= op.maxAssets)
        ? "succeeded"
        : null;
  const last = page[page.length - 1];
  return { processed: page.length, successful, cursor: last ? String(last.key) : op.cursor, done: end };
}

async function deleteStep(db: D1Database, op: OperationRecord): Promise<StepResult> {
  const deleted = await db
    .prepare(
      `DELETE FROM v3_tag_assignments WHERE rowid IN (SELECT rowid FROM v3_tag_assignments WHERE tag_id = ? AND created_at <= ?
         AND (? IS NULL OR created_at > ?) AND (? IS NULL OR created_at < ?) LIMIT ?)`,
    )
    .bind(
      op.tagId,
      op.createdAt,
      op.createdAfter,
      op.createdAfter,
      op.createdBefore,
      op.createdBefore,
      V3_TAG_OPERATION_PAGE,
    )
    .run();
  const n = deleted.meta.changes ?? 0;
  return { processed: n, successful: n, cursor: null, done: n < V3_TAG_OPERATION_PAGE ? "succeeded" : null };
}

function finishedMessage(op: OperationRecord, status: V3TagOperationStatus): string {
  if (status === "cancelled")
    return `cancelled after processing ${op.processedCount} assets (${op.successfulCount} ${op.type === "bulk_create" ? "assigned" : "removed"})`;
  if (status === "limit_reached")
    return `the tag's asset limit (${V3_TAG_ASSETS_MAX}) was reached after assigning ${op.successfulCount} assets`;
  return op.type === "bulk_create"
    ? `assigned the tag to ${op.successfulCount} of ${op.processedCount} matching assets (the others had it already or carry the most tags an asset may)`
    : `removed the tag from ${op.successfulCount} assets`;
}

/**
 * Brings an operation to where it is at `now`: every page whose time has come (and came before
 * a cancellation) processed, its status and counts updated. Each step is claimed with a
 * conditional update first, so concurrent readers never process one page twice.
 */
export async function advanceOperation(
  db: D1Database,
  start: OperationRecord,
  tag: TagRecord | null,
  source: MatchSource | null,
  now: number,
): Promise<OperationRecord> {
  let op = start;
  const finish = async (status: V3TagOperationStatus, endedAt: number, failure: string | null) => {
    const ended = { ...op, status, endedAt };
    const message = failure ?? finishedMessage(ended, status);
    await db
      .prepare(
        "UPDATE v3_tag_operations SET status = ?, ended_at = ?, status_message = ?, error_message = ? WHERE id = ? AND status IN ('pending', 'running')",
      )
      .bind(status, endedAt, message, failure, op.id)
      .run();
    return { ...ended, statusMessage: message, errorMessage: failure };
  };
  while (!isFinished(op)) {
    const at = stepTime(op, op.steps);
    if (op.cancelledAt !== null && at > op.cancelledAt) return finish("cancelled", op.cancelledAt, null);
    if (at > now) break;
    if (tag === null) return finish("failed", now, "the tag was deleted");
    if (op.type === "bulk_create" && source === null)
      return finish("failed", now, "the operation's query no longer compiles against the dataset");
    const claimed = await db
      .prepare("UPDATE v3_tag_operations SET steps = steps + 1, status = 'running' WHERE id = ? AND steps = ? AND status IN ('pending', 'running')")
      .bind(op.id, op.steps)
      .run();
    if ((claimed.meta.changes ?? 0) === 0) {
      const fresh = await readOperation(db, op.organizationId, op.id);
      if (!fresh) return op;
      op = fresh;
      continue;
    }
    const step =
      op.type === "bulk_create" && tag !== null && source !== null
        ? await createStep(db, op, tag, source, at)
        : await deleteStep(db, op);
    const next: OperationRecord = {
      ...op,
      steps: op.steps + 1,
      status: step.done ?? "running",
      processedCount: op.processedCount + step.processed,
      successfulCount: op.successfulCount + step.successful,
      cursor: step.cursor,
      endedAt: step.done ? at : null,
      totalCount: step.done && op.type === "bulk_delete" ? op.processedCount + step.processed : op.totalCount,
    };
    const message = step.done ? finishedMessage(next, step.done) : null;
    await db
      .prepare(
        `UPDATE v3_tag_operations SET status = ?, processed_count = ?, successful_count = ?, cursor = ?, ended_at = ?,
           total_count = ?, status_message = ? WHERE id = ?`,
      )
      .bind(next.status, next.processedCount, next.successfulCount, next.cursor, next.endedAt, next.totalCount, message, op.id)
      .run();
    op = { ...next, statusMessage: message };
  }
  return op;
}

/** Records a cancellation at `now`; false when the operation had finished. */
export async function cancelOperation(db: D1Database, op: OperationRecord, now: number): Promise<boolean> {
  const updated = await db
    .prepare(
      "UPDATE v3_tag_operations SET cancelled_at = ? WHERE id = ? AND status IN ('pending', 'running') AND cancelled_at IS NULL",
    )
    .bind(now, op.id)
    .run();
  return (updated.meta.changes ?? 0) > 0;
}

/** The operation as the SDK's `TagOperation`. */
export function operationOf(op: OperationRecord): V3TagOperation {
  return {
    id: op.id,
    tag_id: op.tagId,
    tag_name: op.tagName,
    type: op.type,
    status: op.status,
    ...(op.query === null ? {} : { query: op.query }),
    total_count: op.totalCount,
    processed_count: op.processedCount,
    successful_count: op.successfulCount,
    created_at: rfc3339(op.createdAt),
    ...(op.endedAt === null ? {} : { ended_at: rfc3339(op.endedAt) }),
    ...(op.statusMessage === null ? {} : { status_message: op.statusMessage }),
    ...(op.errorMessage === null ? {} : { error_message: op.errorMessage }),
  };
}
