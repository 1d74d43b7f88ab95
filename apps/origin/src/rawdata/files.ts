import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { rawDataFiles } from "../db/schema-jobs";
import { csvRecord } from "@scangate/sql/export";
import type { ResultStore } from "../storage/result-store";
import { scanResults, type RawSeriesDefinition, type ScanResult } from "./series";

/**
 * The files of a raw-data result, written to R2 the first time the result is asked for and
 * listed in `raw_data_files` with the size and SHA-256 of the stored bytes. They are generated
 * from the host history at the result's instant, deterministically, so a file written twice
 * (two first requests at once) has the same bytes both times.
 *
 * - primary series, label `hosts`: one v2 host document per line, as stored (JSON lines).
 * - raw series, label `services`: a CSV summary, one row per host service on the port.
 * - raw series, label `results`: the full service record per line, with its ip (JSON lines).
 */

export interface RawFile {
  label: string;
  fileType: "csv" | "json";
  schema: Record<string, { type: string }> | null;
  key: string;
  sha256: string;
  size: number;
}

const SERVICES_CSV_SCHEMA: Record<string, { type: string }> = {
  ip: { type: "string" },
  port: { type: "integer" },
  transport_protocol: { type: "string" },
  service_name: { type: "string" },
  extended_service_name: { type: "string" },
  certificate: { type: "string" },
  observed_at: { type: "timestamp" },
};

const HISTORY_PAGE = 500;

/** Host documents valid at `at`, in ip order, read in pages. */
async function* hostsAt(db: D1Database, at: number): AsyncGenerator<{ ip: string; doc: string }> {
  let after = "";
  for (;;) {
    const { results } = await db
      .prepare(
        `SELECT ip, doc FROM host_history
          WHERE valid_from <= ?1 AND (valid_to IS NULL OR valid_to > ?1) AND ip > ?2
          ORDER BY ip LIMIT ?3`,
      )
      .bind(at, after, HISTORY_PAGE)
      .all<{ ip: string; doc: string }>();
    yield* results;
    const last = results[results.length - 1];
    if (!last || results.length < HISTORY_PAGE) return;
    after = last.ip;
  }
}

interface FileText {
  label: string;
  fileType: "csv" | "json";
  schema: Record<string, { type: string }> | null;
  text: string;
}

async function generate(
  db: D1Database,
  series: RawSeriesDefinition,
  result: ScanResult,
): Promise<FileText[]> {
  if (series.kind === "primary") {
    const lines: string[] = [];
    for await (const host of hostsAt(db, result.at)) lines.push(`${host.doc}\n`);
    return [{ label: "hosts", fileType: "json", schema: null, text: lines.join("") }];
  }
  const columns = Object.keys(SERVICES_CSV_SCHEMA);
  const csv = [csvRecord(columns, ",")];
  const json: string[] = [];
  for await (const host of hostsAt(db, result.at)) {
    const doc = JSON.parse(host.doc) as { services?: Record<string, unknown>[] };
    for (const service of doc.services ?? []) {
      if (service.port !== series.port) continue;
      const cell = (key: string) => {
        const value = key === "ip" ? host.ip : service[key];
        return value === undefined || value === null
          ? null
          : typeof value === "string"
            ? value
            : JSON.stringify(value);
      };
      csv.push(csvRecord(columns.map(cell), ","));
      json.push(`${JSON.stringify({ ip: host.ip, ...service })}\n`);
    }
  }
  return [
    { label: "services", fileType: "csv", schema: SERVICES_CSV_SCHEMA, text: csv.join("") },
    { label: "results", fileType: "json", schema: null, text: json.join("") },
  ];
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function rawFileKey(seriesId: string, resultId: string, label: string, fileType: string): string {
  return `raw/${seriesId}/${resultId}/${label}.${fileType}`;
}

function fromRow(row: typeof rawDataFiles.$inferSelect): RawFile {
  return {
    label: row.label,
    fileType: row.fileType as RawFile["fileType"],
    schema: row.fileSchema ? (JSON.parse(row.fileSchema) as RawFile["schema"]) : null,
    key: row.r2Key,
    sha256: row.sha256,
    size: row.size,
  };
}

/** The files of a result, generating and storing them first if this is their first use. */
export async function ensureRawFiles(
  db: D1Database,
  results: ResultStore,
  series: RawSeriesDefinition,
  result: ScanResult,
): Promise<RawFile[]> {
  const orm = drizzle(db);
  const where = and(eq(rawDataFiles.series, series.id), eq(rawDataFiles.result, result.id));
  const stored = await orm.select().from(rawDataFiles).where(where).orderBy(rawDataFiles.label);
  if (stored.length > 0) return stored.map(fromRow);

  const files: RawFile[] = [];
  for (const file of await generate(db, series, result)) {
    const bytes = new TextEncoder().encode(file.text);
    const key = rawFileKey(series.id, result.id, file.label, file.fileType);
    const contentType =
      file.fileType === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8";
    await results.put(key, bytes, contentType);
    files.push({
      label: file.label,
      fileType: file.fileType,
      schema: file.schema,
      key,
      sha256: await sha256Hex(bytes),
      size: bytes.byteLength,
    });
  }
  // Catalog rows go in after the objects exist, so a listed file is always downloadable.
  await orm
    .insert(rawDataFiles)
    .values(
      files.map((f) => ({
        series: series.id,
        result: result.id,
        label: f.label,
        r2Key: f.key,
        fileType: f.fileType,
        sha256: f.sha256,
        size: f.size,
        fileSchema: f.schema ? JSON.stringify(f.schema) : null,
      })),
    )
    .onConflictDoNothing();
  return files.sort((a, b) => a.label.localeCompare(b.label));
}

/** The raw-data results and their files, as the routes read them. */
export interface RawData {
  /** One result per day of the host history, oldest first. */
  scanResults(): Promise<ScanResult[]>;
  /** The files of a result, written to the result store on first use. */
  files(series: RawSeriesDefinition, result: ScanResult): Promise<RawFile[]>;
}

/** Raw data read from the dataset's database, its files kept in `results`. */
export function d1RawData(db: D1Database, results: ResultStore): RawData {
  return {
    scanResults: () => scanResults(db),
    files: (series, result) => ensureRawFiles(db, results, series, result),
  };
}
