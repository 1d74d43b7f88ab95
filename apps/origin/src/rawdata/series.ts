import { summaryDay } from "../dataset/clock";
import { dayOf, endOfDay } from "../snapshots/build";

/**
 * The raw-data series (GET /api/v1/data): one primary series, the daily full snapshot of host
 * documents, and one raw series per well-known port, the services seen there each day. Every
 * series has one result per day of the dataset's host history through its seed day, taken at
 * the end of that day (the same instant as that day's snapshot tables).
 */

export interface RawSeriesDefinition {
  id: string;
  kind: "primary" | "raw";
  name: string;
  description: string;
  /** The application protocol scanned; `all` for the primary series. */
  protocol: string;
  /** What the scan did (`banner`, `get`, ...); `snapshot` for the primary series. */
  subprotocol: string;
  /** The address set scanned: every series covers the whole IPv4 space. */
  destination: string;
  /** The port scanned; 0 for the primary series, which holds the services of every port. */
  port: number;
}

// The spec lists protocol, subprotocol, destination and port in every series' details but shows
// no primary series' values; the primary series says what it holds instead of leaving them empty.
const primary: RawSeriesDefinition = {
  id: "ipv4",
  kind: "primary",
  name: "IPv4 Snapshots",
  description: "Daily snapshot of every host: one v2 host document per line (JSON lines).",
  protocol: "all",
  subprotocol: "snapshot",
  destination: "full_ipv4",
  port: 0,
};

function raw(port: number, protocol: string, subprotocol: string, what: string): RawSeriesDefinition {
  return {
    id: `${port}-${protocol}-${subprotocol}-full_ipv4`,
    kind: "raw",
    name: `${port}/${protocol.toUpperCase()} ${subprotocol} scan`,
    description: `Daily ${what} results on port ${port}: a CSV summary and the full service records (JSON lines).`,
    protocol,
    subprotocol,
    destination: "full_ipv4",
    port,
  };
}

export const RAW_DATA_SERIES: readonly RawSeriesDefinition[] = [
  primary,
  raw(21, "ftp", "banner", "FTP banner grab"),
  raw(22, "ssh", "banner", "SSH banner grab"),
  raw(25, "smtp", "starttls", "SMTP STARTTLS"),
  raw(53, "dns", "lookup", "DNS lookup"),
  raw(80, "http", "get", "HTTP GET"),
  raw(443, "https", "tls", "HTTPS TLS handshake"),
  raw(8080, "http", "get", "HTTP GET"),
];

export function findRawSeries(id: string): RawSeriesDefinition | undefined {
  return RAW_DATA_SERIES.find((series) => series.id === id);
}

/** A scan result: id `YYYYMMDDThhmm`, timestamp `YYYYMMDDThhmmss`, and its instant. */
export interface ScanResult {
  id: string;
  timestamp: string;
  at: number;
}

export function scanResultOf(day: string): ScanResult {
  const at = endOfDay(day);
  const time = new Date(at).toISOString().slice(11, 19).replaceAll(":", "");
  return { id: `${day}T${time.slice(0, 4)}`, timestamp: `${day}T${time}`, at };
}

/**
 * One result per day from the first host version's day through the seed day (the dataset's
 * latest snapshot, as the snapshot tables have it), oldest first.
 */
export async function scanResults(db: D1Database): Promise<ScanResult[]> {
  const range = await db
    .prepare(
      `SELECT min(valid_from) AS first, max(valid_from) AS last,
              (SELECT value FROM dataset_meta WHERE key = 'summary') AS summary
         FROM host_history`,
    )
    .first<{ first: number | null; last: number | null; summary: string | null }>();
  if (range?.first === null || range?.first === undefined || range.last === null) return [];
  const seedDay = summaryDay(range.summary);
  const last = Math.max(range.last, seedDay === null ? -Infinity : Date.parse(seedDay));
  const results: ScanResult[] = [];
  const dayMs = 86_400_000;
  for (let t = Math.floor(range.first / dayMs) * dayMs; t <= last; t += dayMs)
    results.push(scanResultOf(dayOf(t)));
  return results;
}
