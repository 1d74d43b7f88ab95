// The origin's dataset for a run: seeded by src/seed-origin.ts (the origin's own generator) into
// a state folder per size and seed, kept between runs, then probed for the keys the scenarios ask
// for.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { v3BulkBody } from "./admin-client";
import type { D1Database, ReferenceDocuments, StoredAnswer } from "./cluster";
import { BENCH_DIR, STATE_DIR } from "./paths";
import { run, RunFailed } from "./processes";

/** What a finished seed writes beside the state, so the scaling mode can predict larger sizes. */
export interface SeedTiming {
  readonly hosts: number;
  readonly certs: number;
  readonly seed: string;
  readonly seconds: number;
  readonly finishedAt: string;
  /** Bytes the folder held right after the load (the origin's D1, before any later step). */
  readonly bytes?: number;
  /** Seconds the breakdowns over every document took to count (the origin's seed step after the load). */
  readonly breakdownSeconds?: number;
  /** Seconds the snapshot tables (SQL query and export jobs) took to build, when the bench built them. */
  readonly snapshotSeconds?: number;
  readonly snapshotsFinishedAt?: string;
}

export const SEED_TIMING_FILE = "seed-timing.json";

export interface DatasetSize {
  readonly hosts: number;
  readonly certs: number;
  readonly seed: string;
}

/**
 * Seeds `stateDir` with the generated dataset of that size, showing the seed's progress, and
 * with `snapshots` also builds the origin's snapshot tables (SQL query and export jobs) from it.
 * Returns at once when the folder already holds them. `timeoutMs` stops the seed (RunTimeout).
 */
export async function seedOrigin(
  stateDir: string,
  size: DatasetSize,
  timeoutMs?: number,
  snapshots = false,
): Promise<void> {
  await run(process.execPath, seedArgs(stateDir, size, snapshots ? ["--snapshots"] : []), BENCH_DIR, {
    echo: true,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
}

function seedArgs(stateDir: string, size: DatasetSize, extra: readonly string[] = []): string[] {
  const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
  const script = path.join(BENCH_DIR, "src", "seed-origin.ts");
  return [
    tsxCli,
    script,
    "--hosts",
    String(size.hosts),
    "--certs",
    String(size.certs),
    "--seed",
    size.seed,
    "--persist-to",
    stateDir,
    ...extra,
  ];
}

/**
 * What `stateDir` holds of that dataset (asks the seed script, which seeds nothing then):
 * `complete`, `loaded` (the load is done, a later step such as the breakdowns is not), or `absent`.
 */
export async function seededState(
  stateDir: string,
  size: DatasetSize,
): Promise<"complete" | "loaded" | "absent"> {
  if (!existsSync(stateDir)) return "absent";
  try {
    await run(process.execPath, seedArgs(stateDir, size, ["--check"]), BENCH_DIR);
    return "complete";
  } catch (error) {
    if (error instanceof RunFailed && error.exitCode === 3) return "absent";
    if (error instanceof RunFailed && error.exitCode === 4) return "loaded";
    throw error;
  }
}

export function readSeedTiming(stateDir: string): SeedTiming | null {
  const file = path.join(stateDir, SEED_TIMING_FILE);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, "utf8")) as SeedTiming;
}

/** Every seed this machine has timed (one per state folder that the bench seeded itself). */
export function knownSeedTimings(): SeedTiming[] {
  if (!existsSync(STATE_DIR)) return [];
  return readdirSync(STATE_DIR)
    .map((name) => readSeedTiming(path.join(STATE_DIR, name)))
    .filter((t): t is SeedTiming => t !== null);
}

/** Bytes of every file under `dir`. */
export function folderBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return bytes;
}

/**
 * Bytes of disk a seed of `hosts` hosts should take, scaled linearly from the largest seed whose
 * size was recorded here (the load alone; the breakdowns add about 1%). Null when none was.
 */
export function estimateSeedBytes(hosts: number, timings: readonly SeedTiming[]): number | null {
  const largest = [...timings].filter((t) => t.bytes !== undefined).sort((a, b) => b.hosts - a.hosts)[0];
  if (largest?.bytes === undefined) return null;
  return Math.round((largest.bytes * hosts) / largest.hosts);
}

/**
 * Seconds a seed of `hosts` hosts (load and breakdowns) should take, scaled linearly from the largest seed timed here
 * (a lower bound: index upkeep grows a little faster than linearly). Null when nothing was timed.
 */
export function estimateSeedSeconds(hosts: number, timings: readonly SeedTiming[]): number | null {
  const largest = [...timings].sort((a, b) => b.hosts - a.hosts)[0];
  if (!largest) return null;
  return Math.round(((largest.seconds + (largest.breakdownSeconds ?? 0)) * hosts) / largest.hosts);
}

export interface DatasetProbe {
  readonly hosts: number;
  /** Every certificate fingerprint, in a stable order. */
  readonly fingerprints: readonly string[];
  /** The certificate of median document size: the one single-document scenarios use. */
  readonly viewFingerprint: string;
  readonly viewBytes: number;
  /** The most common country code: the indexed-field search with the most matches to count. */
  readonly countryCode: string;
}

/** The median element of `rows` by `bytes` (the lower one of an even count). */
export function medianBySize<T extends { bytes: number }>(rows: readonly T[]): T | undefined {
  const sorted = [...rows].sort((a, b) => a.bytes - b.bytes);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

export async function probeDataset(originDb: D1Database): Promise<DatasetProbe> {
  const hostCount = await originDb.prepare("SELECT count(*) AS n FROM hosts").first<{ n: number }>();
  const certs = await originDb
    .prepare("SELECT sha256, length(doc) AS bytes FROM certificates ORDER BY sha256")
    .all<{ sha256: string; bytes: number }>();
  const country = await originDb
    .prepare(
      "SELECT country_code AS code, count(*) AS n FROM hosts WHERE country_code IS NOT NULL GROUP BY country_code ORDER BY n DESC LIMIT 1",
    )
    .first<{ code: string }>();
  const rows = certs.results;
  const median = medianBySize(rows);
  if (!median) throw new Error("the origin has no certificates: was the dataset seeded?");
  return {
    hosts: hostCount?.n ?? 0,
    fingerprints: rows.map((r) => r.sha256),
    viewFingerprint: median.sha256,
    viewBytes: median.bytes,
    countryCode: country?.code ?? "US",
  };
}

/** Empties the edge's certificate cache (all of it, or the given fingerprints), so lookups miss again. */
export async function purgeCertificateCache(
  edgeDb: D1Database,
  fingerprints?: readonly string[],
): Promise<void> {
  if (!fingerprints) {
    await edgeDb.prepare(`DELETE FROM documents WHERE "index" = 'certificates'`).run();
    return;
  }
  // 90 bound parameters per statement (D1 allows 100).
  const statements = [];
  for (let i = 0; i < fingerprints.length; i += 90) {
    const chunk = fingerprints.slice(i, i + 90);
    statements.push(
      edgeDb
        .prepare(
          `DELETE FROM documents WHERE "index" = 'certificates' AND id IN (${chunk.map(() => "?").join(",")})`,
        )
        .bind(...chunk),
    );
  }
  if (statements.length > 0) await edgeDb.batch(statements);
}

/** An origin answer's body and media type; anything but a 200 throws. */
async function storedAnswer(response: Response, what: string): Promise<StoredAnswer> {
  const body = await response.text();
  if (response.status !== 200)
    throw new Error(`the origin answered ${response.status} for ${what}: ${body.slice(0, 200)}`);
  return { body, contentType: response.headers.get("content-type") ?? "application/json" };
}

/**
 * The documents the bare worker answers, as the origin serves them: the view certificate, each
 * entry of a bulk answer for `bulkIds` (as the edge keeps them: one entry's JSON text), and the
 * /v3 answers for the view certificate and for a bulk of `bulkIds` (with the account's Platform
 * token, `platformAuthorization`).
 */
export async function referenceDocuments(
  originUrl: string,
  authorization: string,
  platformAuthorization: string,
  viewId: string,
  bulkIds: readonly string[],
): Promise<ReferenceDocuments> {
  const json = { "content-type": "application/json" };
  const view = await storedAnswer(
    await fetch(`${originUrl}/api/v1/view/certificates/${viewId}`, { headers: { authorization } }),
    "the view certificate",
  );
  const bulk = await storedAnswer(
    await fetch(`${originUrl}/api/v1/bulk/certificates`, {
      method: "POST",
      headers: { authorization, ...json },
      body: JSON.stringify({ fingerprints: bulkIds }),
    }),
    "a bulk lookup",
  );
  const v3Asset = await storedAnswer(
    await fetch(`${originUrl}/v3/global/asset/certificate/${viewId}`, {
      headers: { authorization: platformAuthorization },
    }),
    "the view certificate on /v3",
  );
  const v3Bulk = await storedAnswer(
    await fetch(`${originUrl}/v3/global/asset/certificate`, {
      method: "POST",
      headers: { authorization: platformAuthorization, ...json },
      body: v3BulkBody(bulkIds),
    }),
    "a /v3 bulk lookup",
  );
  const entries = JSON.parse(bulk.body) as Record<string, unknown>;
  return {
    view: { id: viewId, body: view.body },
    bulk: bulkIds.map((id) => ({ id, body: JSON.stringify(entries[id] ?? null) })),
    v3Asset,
    v3Bulk,
  };
}
