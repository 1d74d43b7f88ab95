import type { HostVersionDocument } from "./host-events";
import { presentedCertificates } from "./host-names";

/**
 * The histories of several hosts in a few batched reads: every version of each host's document
 * and when the host was last observed (its current `last_updated_at`), plus the names of every
 * certificate any version presents, for the routes that read presence over time.
 */
export interface HostHistory {
  ip: string;
  versions: HostVersionDocument[];
  /** Epoch ms of the host's latest observation: where its current version ends. */
  lastSeen: number;
}

/** D1 binds at most 100 values a statement. */
const CHUNK = 100;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** The histories of `ips` the dataset holds, in the order asked (unknown hosts left out). */
export async function readHostHistories(db: D1Database, ips: readonly string[]): Promise<HostHistory[]> {
  if (ips.length === 0) return [];
  const statements = chunks(ips).flatMap((chunk) => {
    const marks = chunk.map(() => "?").join(", ");
    return [
      db
        .prepare(
          `SELECT ip, valid_from, doc FROM host_history WHERE ip IN (${marks}) ORDER BY ip, valid_from`,
        )
        .bind(...chunk),
      db.prepare(`SELECT ip, last_updated_at FROM hosts WHERE ip IN (${marks})`).bind(...chunk),
    ];
  });
  const results = await db.batch<{ ip: string; valid_from?: number; doc?: string; last_updated_at?: number }>(
    statements,
  );
  const versions = new Map<string, HostVersionDocument[]>();
  const lastSeen = new Map<string, number>();
  for (const row of results.flatMap((r) => r.results)) {
    if (row.doc !== undefined && row.valid_from !== undefined) {
      const list = versions.get(row.ip) ?? [];
      list.push({ validFrom: row.valid_from, doc: JSON.parse(row.doc) as HostVersionDocument["doc"] });
      versions.set(row.ip, list);
    } else if (row.last_updated_at !== undefined) {
      lastSeen.set(row.ip, row.last_updated_at);
    }
  }
  return ips.flatMap((ip) => {
    const list = versions.get(ip);
    if (!list || list.length === 0) return [];
    const latest = list[list.length - 1]?.validFrom ?? 0;
    return [{ ip, versions: list, lastSeen: lastSeen.get(ip) ?? latest }];
  });
}

/** The fingerprints (lowercase) any version of any of the histories presents. */
export function historiesCertificates(histories: readonly HostHistory[]): string[] {
  const fingerprints = new Set<string>();
  for (const history of histories)
    for (const version of history.versions)
      for (const fp of presentedCertificates(version.doc)) fingerprints.add(fp);
  return [...fingerprints];
}

/** Certificate names by fingerprint, read 100 fingerprints a statement (D1's bound). */
export async function certificateNamesOf(
  read: (fingerprints: readonly string[]) => Promise<Map<string, string[]>>,
  fingerprints: readonly string[],
): Promise<Map<string, string[]>> {
  const maps = await Promise.all(chunks(fingerprints).map((chunk) => read(chunk)));
  return new Map(maps.flatMap((map) => [...map]));
}
