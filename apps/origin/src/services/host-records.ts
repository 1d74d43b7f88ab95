import { parseRfc3339Nanos, type CertificateHost } from "@scangate/core";
import type { CursorPosition } from "./cursor";
import type { HostVersionDocument } from "./host-events";

/** Readers of a host's history and of the hosts behind a certificate (v2 names, events, diff). */

/** Every version of a host's document, oldest first; empty for a host the dataset lacks. */
export async function readHostHistory(db: D1Database, ip: string): Promise<HostVersionDocument[]> {
  const { results } = await db
    .prepare("select valid_from, doc from host_history where ip = ? order by valid_from")
    .bind(ip)
    .all<{ valid_from: number; doc: string }>();
  return results.map((row) => ({
    validFrom: row.valid_from,
    doc: JSON.parse(row.doc) as HostVersionDocument["doc"],
  }));
}

/** `parsed.names` of each certificate, by lowercase fingerprint (unknown ones are absent). */
export async function readCertificateNames(
  db: D1Database,
  fingerprints: readonly string[],
): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>();
  if (fingerprints.length === 0) return names;
  const { results } = await db
    .prepare(
      `select lower(sha256) as sha256, name from certificate_names
       where sha256 in (${fingerprints.map(() => "?").join(", ")}) order by name`,
    )
    .bind(...fingerprints)
    .all<{ sha256: string; name: string }>();
  for (const row of results) names.set(row.sha256, [...(names.get(row.sha256) ?? []), row.name]);
  return names;
}

export interface CertificateHostsPage {
  /** False when the certificate is not in the dataset. */
  known: boolean;
  hosts: CertificateHost[];
  prev: CursorPosition | null;
  next: CursorPosition | null;
}

interface ObservationRow {
  ip: string;
  observed_at: string;
}

const nanosOf = (time: string) => BigInt(parseRfc3339Nanos(time)?.nanos ?? "0");
const earlier = (a: string, b: string) => (nanosOf(a) <= nanosOf(b) ? a : b);
const later = (a: string, b: string) => (nanosOf(a) >= nanosOf(b) ? a : b);

/**
 * The hosts whose current services present the certificate, in address order, one keyset page
 * of them (ip_num, as the hosts search pages). `observed_at` is the latest observation of such a
 * service now; `first_observed_at` the earliest in the host's history.
 */
export async function readCertificateHosts(
  db: D1Database,
  fingerprint: string,
  perPage: number,
  cursor: CursorPosition | null,
): Promise<CertificateHostsPage> {
  const fp = fingerprint.toLowerCase();
  const backwards = cursor?.direction === "prev";
  const keyClause = cursor ? (backwards ? " and h.ip_num < ?" : " and h.ip_num > ?") : "";
  const [known, page] = await db.batch([
    db.prepare("select 1 as found from certificates where sha256 = ?").bind(fp),
    db
      .prepare(
        `select h.ip as ip, h.ip_num as ip_num from hosts h
         where h.ip in (select ip from host_services where certificate = ?)${keyClause}
         order by h.ip_num ${backwards ? "desc" : "asc"} limit ?`,
      )
      .bind(fp, ...(cursor ? [cursor.key] : []), perPage + 1),
  ]);
  const rows = (page?.results ?? []) as { ip: string; ip_num: number }[];
  const more = rows.length > perPage;
  const pageRows = rows.slice(0, perPage);
  if (backwards) pageRows.reverse();
  const ips = pageRows.map((row) => row.ip);

  const observations = async (table: "hosts" | "host_history"): Promise<ObservationRow[]> => {
    if (ips.length === 0) return [];
    const { results } = await db
      .prepare(
        `select t.ip as ip, s.value ->> '$.observed_at' as observed_at
         from ${table} t, json_each(t.doc, '$.services') s
         where t.ip in (${ips.map(() => "?").join(", ")}) and lower(s.value ->> '$.certificate') = ?`,
      )
      .bind(...ips, fp)
      .all<ObservationRow>();
    return results;
  };
  const latest = new Map<string, string>();
  for (const row of await observations("hosts")) {
    latest.set(row.ip, later(latest.get(row.ip) ?? row.observed_at, row.observed_at));
  }
  const first = new Map(latest);
  for (const row of await observations("host_history")) {
    first.set(row.ip, earlier(first.get(row.ip) ?? row.observed_at, row.observed_at));
  }

  const hosts = pageRows.flatMap((row) => {
    const observedAt = latest.get(row.ip);
    return observedAt
      ? [{ ip: row.ip, observed_at: observedAt, first_observed_at: first.get(row.ip) ?? observedAt }]
      : [];
  });
  // As in the hosts search: a cursor is issued only beside a row, so its side has rows.
  const behind = cursor !== null;
  const hasPrev = backwards ? more : behind;
  const hasNext = backwards ? behind : more;
  const firstRow = pageRows[0];
  const lastRow = pageRows[pageRows.length - 1];
  return {
    known: (known?.results ?? []).length > 0 || pageRows.length > 0,
    hosts,
    prev: hasPrev && firstRow ? { direction: "prev", key: firstRow.ip_num } : null,
    next: hasNext && lastRow ? { direction: "next", key: lastRow.ip_num } : null,
  };
}
