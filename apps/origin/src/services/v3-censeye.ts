import {
  V3_CENSEYE_JOBS_MAX,
  type V3CenseyeJob,
  type V3CenseyeResult,
  type V3CenseyeTargetKind,
  type V3FieldValuePair,
} from "@scangate/core";
import { newRecordId, rfc3339 } from "./v3-records";

/**
 * CensEye: the pivots of one asset (the field-value pairs it shows that other assets may share)
 * and how many assets share each, as a job that completes after a short while, kept
 * V3_CENSEYE_JOB_TTL; and value counts of field-value pairs (`and_count_conditions`). Pairs are
 * CenQL fields; a condition's pairs hold together, on one service when they are service fields.
 */

type Json = Record<string, unknown>;

const obj = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | null =>
  typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : null;

/** Pairs a job counts at most. */
const PIVOTS_MAX = 25;

/**
 * The default pivots of an asset (ours: the Platform's list is not published), from its
 * Platform document: what identifies the software and the operator behind it, not what
 * nearly every asset shares (a port, a country).
 */
export function defaultPivots(kind: V3CenseyeTargetKind, resource: unknown): V3FieldValuePair[] {
  const pairs: V3FieldValuePair[] = [];
  const add = (field: string, value: unknown) => {
    const v = text(value);
    if (v !== null && !pairs.some((p) => p.field === field && p.value === v)) pairs.push({ field, value: v });
  };
  const doc = obj(resource);
  if (kind === "host") {
    add("host.autonomous_system.asn", obj(doc.autonomous_system).asn);
    for (const service of list(doc.services).map(obj)) {
      add("host.services.cert.fingerprint_sha256", obj(service.cert).fingerprint_sha256);
      for (const software of list(service.software).map(obj))
        add("host.services.software.product", software.product);
      for (const endpoint of list(service.endpoints).map(obj)) {
        const http = obj(endpoint.http);
        add("host.services.endpoints.http.html_title", http.html_title);
        add("host.services.endpoints.http.headers.server", list(obj(obj(http.headers).Server).headers)[0]);
      }
    }
  } else if (kind === "webproperty") {
    add("web.cert.fingerprint_sha256", obj(doc.cert).fingerprint_sha256);
    for (const endpoint of list(doc.endpoints).map(obj)) {
      const http = obj(endpoint.http);
      add("web.endpoints.http.html_title", http.html_title);
      add("web.endpoints.http.body_hash_sha256", http.body_hash_sha256);
    }
    for (const software of list(doc.software).map(obj))
      add("host.services.software.product", software.product);
  } else {
    const parsed = obj(doc.parsed);
    add("cert.parsed.issuer_dn", parsed.issuer_dn);
    add("cert.parsed.subject_dn", parsed.subject_dn);
    for (const name of list(doc.names)) add("cert.names", name);
    add("host.services.cert.fingerprint_sha256", doc.fingerprint_sha256);
  }
  return pairs.slice(0, PIVOTS_MAX);
}

/** A CenQL string literal: backslash and quote escaped. */
export function cenqlString(value: string): string {
  return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

const SCOPES = ["host.services."];

/**
 * The CenQL of a count condition: its pairs ANDed, inside `host.services: (...)` when they are
 * service fields, so they hold on one service. Null when the pairs are of different resources
 * or nested objects (the SDK: "each array can only target fields within the same nested object").
 */
export function conditionQuery(pairs: readonly V3FieldValuePair[]): string | null {
  const scopes = new Set(
    pairs.map((p) => SCOPES.find((s) => p.field.startsWith(s)) ?? p.field.split(".")[0]),
  );
  if (scopes.size !== 1) return null;
  const [scope = ""] = scopes;
  if (scope.endsWith(".")) {
    const inner = pairs.map((p) => `${p.field.slice(scope.length)} = ${cenqlString(p.value)}`).join(" and ");
    return `${scope.slice(0, -1)}: (${inner})`;
  }
  return pairs.map((p) => `${p.field} = ${cenqlString(p.value)}`).join(" and ");
}

export interface CenseyeJobRecord {
  id: string;
  organizationId: string;
  targetKind: V3CenseyeTargetKind;
  targetId: string;
  results: V3CenseyeResult[];
  atTime: number;
  createdAt: number;
  completesAt: number;
  deleteAt: number;
}

interface JobRow {
  id: string;
  organization_id: string;
  target_kind: V3CenseyeTargetKind;
  target_id: string;
  results: string;
  at_time: number;
  created_at: number;
  completes_at: number;
  delete_at: number;
}

const recordOf = (row: JobRow): CenseyeJobRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  targetKind: row.target_kind,
  targetId: row.target_id,
  results: JSON.parse(row.results) as V3CenseyeResult[],
  atTime: row.at_time,
  createdAt: row.created_at,
  completesAt: row.completes_at,
  deleteAt: row.delete_at,
});

/** Records a job; jobs past their delete time, and the oldest past V3_CENSEYE_JOBS_MAX, go. */
export async function createJob(
  db: D1Database,
  job: Omit<CenseyeJobRecord, "id">,
): Promise<CenseyeJobRecord> {
  const record = { ...job, id: newRecordId("cej") };
  await db.batch([
    db
      .prepare(
        `INSERT INTO v3_censeye_jobs (id, organization_id, target_kind, target_id, results, result_count, at_time, created_at, completes_at, delete_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        record.id,
        record.organizationId,
        record.targetKind,
        record.targetId,
        JSON.stringify(record.results),
        record.results.length,
        record.atTime,
        record.createdAt,
        record.completesAt,
        record.deleteAt,
      ),
    db
      .prepare(
        `DELETE FROM v3_censeye_jobs WHERE organization_id = ? AND (delete_at <= ? OR id NOT IN
         (SELECT id FROM v3_censeye_jobs WHERE organization_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?))`,
      )
      .bind(record.organizationId, record.createdAt, record.organizationId, V3_CENSEYE_JOBS_MAX),
  ]);
  return record;
}

/** The organization's job, unless it was deleted or its delete time passed. */
export async function readJob(
  db: D1Database,
  organizationId: string,
  id: string,
  now: number,
): Promise<CenseyeJobRecord | null> {
  const row = await db
    .prepare("SELECT * FROM v3_censeye_jobs WHERE id = ? AND organization_id = ? AND delete_at > ?")
    .bind(id, organizationId, now)
    .first<JobRow>();
  return row ? recordOf(row) : null;
}

/** A page of the organization's live jobs, newest first, optionally of one target. */
export async function listJobs(
  db: D1Database,
  organizationId: string,
  target: { kind: V3CenseyeTargetKind; id: string } | null,
  now: number,
  offset: number,
  limit: number,
): Promise<{ jobs: CenseyeJobRecord[]; total: number }> {
  const filter = target ? " AND target_kind = ? AND target_id = ?" : "";
  const params = [organizationId, now, ...(target ? [target.kind, target.id] : [])];
  const [page, count] = await db.batch<JobRow & { n?: number }>([
    db
      .prepare(
        `SELECT * FROM v3_censeye_jobs WHERE organization_id = ? AND delete_at > ?${filter} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
      )
      .bind(...params, limit, offset),
    db
      .prepare(
        `SELECT count(*) AS n FROM v3_censeye_jobs WHERE organization_id = ? AND delete_at > ?${filter}`,
      )
      .bind(...params),
  ]);
  return { jobs: (page?.results ?? []).map(recordOf), total: Number(count?.results[0]?.n ?? 0) };
}

const TARGET_FIELD: Readonly<Record<V3CenseyeTargetKind, "host_id" | "webproperty_id" | "certificate_id">> = {
  host: "host_id",
  webproperty: "webproperty_id",
  certificate: "certificate_id",
};

/** The job as the SDK's `CenseyeJob` at `now`. */
export function jobOf(job: CenseyeJobRecord, now: number): V3CenseyeJob {
  const done = now >= job.completesAt;
  return {
    job_id: job.id,
    state: done ? "completed" : "started",
    target: { [TARGET_FIELD[job.targetKind]]: job.targetId },
    at_time: rfc3339(job.atTime),
    create_time: rfc3339(job.createdAt),
    update_time: rfc3339(done ? job.completesAt : job.createdAt),
    delete_time: rfc3339(job.deleteAt),
    ...(done ? { result_count: job.results.length } : {}),
  };
}
