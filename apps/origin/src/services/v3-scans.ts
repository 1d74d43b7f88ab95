import { V3_SCANS_KEPT, type V3TrackedScan } from "@scangate/core";
import { newRecordId, rfc3339 } from "./v3-records";

/**
 * Tracked scans (Live Rescan and Live Discovery), with no network: a scan's outcome is decided
 * from the dataset when it is created (the service is there, nothing answers, or the target
 * cannot be scanned) and it completes SCAN_DURATION later, by the clock. A completed scan that
 * found its service refreshes it: host and web property lookups show the service scanned at
 * the scan's completion (`latestScans`).
 */

export type ScanKind = "rescan" | "discovery";
export type ScanOutcome = "completed" | "timed_out" | "rejected";

export interface ScanRecord {
  id: string;
  organizationId: string;
  kind: ScanKind;
  /** The request's `target`, as sent. */
  target: Record<string, unknown>;
  ip: string | null;
  port: number;
  transport: string | null;
  outcome: ScanOutcome;
  createdAt: number;
  completesAt: number;
}

interface ScanRow {
  id: string;
  organization_id: string;
  kind: ScanKind;
  target: string;
  ip: string | null;
  port: number;
  transport: string | null;
  outcome: ScanOutcome;
  created_at: number;
  completes_at: number;
}

const recordOf = (row: ScanRow): ScanRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  kind: row.kind,
  target: JSON.parse(row.target) as Record<string, unknown>,
  ip: row.ip,
  port: row.port,
  transport: row.transport,
  outcome: row.outcome,
  createdAt: row.created_at,
  completesAt: row.completes_at,
});

/** Records a scan (the organization keeps its latest V3_SCANS_KEPT). */
export async function createScan(db: D1Database, scan: Omit<ScanRecord, "id">): Promise<ScanRecord> {
  const record: ScanRecord = { ...scan, id: newRecordId("scn") };
  await db.batch([
    db
      .prepare(
        `INSERT INTO v3_scans (id, organization_id, kind, target, ip, port, transport, outcome, created_at, completes_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        record.id,
        record.organizationId,
        record.kind,
        JSON.stringify(record.target),
        record.ip,
        record.port,
        record.transport,
        record.outcome,
        record.createdAt,
        record.completesAt,
      ),
    db
      .prepare(
        `DELETE FROM v3_scans WHERE organization_id = ? AND id NOT IN
         (SELECT id FROM v3_scans WHERE organization_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?)`,
      )
      .bind(record.organizationId, record.organizationId, V3_SCANS_KEPT),
  ]);
  return record;
}

/** The organization's scan, or null (another organization's is not found). */
export async function readScan(
  db: D1Database,
  organizationId: string,
  id: string,
): Promise<ScanRecord | null> {
  const row = await db
    .prepare("SELECT * FROM v3_scans WHERE id = ? AND organization_id = ?")
    .bind(id, organizationId)
    .first<ScanRow>();
  return row ? recordOf(row) : null;
}

/**
 * When each service of a host was last scanned by a completed scan that found it, as of `now`:
 * `port/transport` (lowercase) → epoch ms.
 */
export async function latestScans(db: D1Database, ip: string, now: number): Promise<Map<string, number>> {
  const { results } = await db
    .prepare(
      `SELECT port, transport, max(completes_at) AS at FROM v3_scans
       WHERE ip = ? AND outcome = 'completed' AND completes_at <= ? GROUP BY port, transport`,
    )
    .bind(ip, now)
    .all<{ port: number; transport: string | null; at: number }>();
  return new Map(results.map((row) => [`${row.port}/${(row.transport ?? "tcp").toLowerCase()}`, row.at]));
}

const TASKS: Record<ScanOutcome, string> = {
  completed: "the service answered and was scanned",
  timed_out: "nothing answered on the port",
  rejected: "the target cannot be scanned: its host name resolves to no address",
};

/** The scan as the SDK's `TrackedScan` reads it at `now`. */
export function trackedScan(scan: ScanRecord, now: number): V3TrackedScan {
  const done = now >= scan.completesAt;
  return {
    tracked_scan_id: scan.id,
    create_time: rfc3339(scan.createdAt),
    completed: done,
    target: scan.target,
    tasks: [
      {
        description: done ? TASKS[scan.outcome] : `scanning port ${scan.port}`,
        status: done ? scan.outcome : "scanning",
        update_time: rfc3339(done ? scan.completesAt : scan.createdAt),
      },
    ],
  };
}

/**
 * The host as a completed scan left it: each service a later scan found shows that scan's
 * completion as its `scan_time` (and its endpoints'). `scans` is `latestScans` of the host.
 */
export function rescanned<
  H extends {
    services?: {
      port?: number;
      transport_protocol?: string;
      scan_time?: string;
      endpoints?: { scan_time?: string }[];
    }[];
  },
>(host: H, scans: ReadonlyMap<string, number>): H {
  if (scans.size === 0 || !host.services) return host;
  const services = host.services.map((service) => {
    const at = scans.get(`${service.port ?? ""}/${(service.transport_protocol ?? "tcp").toLowerCase()}`);
    const seen = service.scan_time === undefined ? Number.NaN : Date.parse(service.scan_time);
    if (at === undefined || at <= seen) return service;
    const scanTime = rfc3339(at);
    return {
      ...service,
      scan_time: scanTime,
      ...(service.endpoints
        ? { endpoints: service.endpoints.map((e) => ({ ...e, scan_time: scanTime })) }
        : {}),
    };
  });
  return { ...host, services };
}

/** `latestScans` of several hosts in one statement per 100 of them: ip → its scans. */
export async function latestScansOf(
  db: D1Database,
  ips: readonly string[],
  now: number,
): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  for (let i = 0; i < ips.length; i += 99) {
    const chunk = ips.slice(i, i + 99);
    if (chunk.length === 0) continue;
    const { results } = await db
      .prepare(
        `SELECT ip, port, transport, max(completes_at) AS at FROM v3_scans
         WHERE ip IN (${chunk.map(() => "?").join(", ")}) AND outcome = 'completed' AND completes_at <= ?
         GROUP BY ip, port, transport`,
      )
      .bind(...chunk, now)
      .all<{ ip: string; port: number; transport: string | null; at: number }>();
    for (const row of results) {
      const scans = out.get(row.ip) ?? new Map<string, number>();
      scans.set(`${row.port}/${(row.transport ?? "tcp").toLowerCase()}`, row.at);
      out.set(row.ip, scans);
    }
  }
  return out;
}
