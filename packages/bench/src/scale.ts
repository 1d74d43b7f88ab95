// The scaling mode: origin search and aggregate latency as the dataset grows, and cache-hit
// latency as the edge's cache grows. Preparing a size (seeding hosts, filling the cache) is timed
// against a budget; a size that would not fit is reported as not measured, with the estimate.
import { basicAuth, createTenant } from "./admin-client";
import { fillEdgeCache } from "./cache-fill";
import { type BenchSecrets, startCluster } from "./cluster";
import { statfsSync } from "node:fs";
import {
  estimateSeedBytes,
  estimateSeedSeconds,
  knownSeedTimings,
  probeDataset,
  seededState,
  seedOrigin,
} from "./dataset";
import { formatCount, formatMs } from "./format";
import { runLoad } from "./load";
import { measure, type Measurement } from "./measurement";
import type { BenchOptions } from "./options";
import { BENCH_DIR, datasetStateDir } from "./paths";
import { RunTimeout } from "./processes";
import type { ScaleRow } from "./report";
import { preflight, SkipScenario, tenantHeaders, viewPath } from "./scenario";
import { AGGREGATE_PATH, originQueryLoad, readable, searchPath } from "./scenarios/queries";

/** A size of the scaling mode: what was measured on it, or why nothing was. */
export type ScaleLevel = ScaleRow;

const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

const GB = 1024 ** 3;

/**
 * Why seeding `hosts` hosts would not fit on the disk (its size estimated linearly from the
 * largest seed recorded here, a lower bound), or null when it would or nothing was recorded.
 */
function diskShortfall(hosts: number): string | null {
  const needed = estimateSeedBytes(hosts, knownSeedTimings());
  if (needed === null) return null;
  const { bavail, bsize } = statfsSync(BENCH_DIR);
  const free = bavail * bsize;
  if (needed <= free) return null;
  return `seeding ${formatCount(hosts)} hosts needs at least ${(needed / GB).toFixed(1)} GB of disk here (linear from the largest seed recorded on this machine), and ${(free / GB).toFixed(1)} GB is free; free some (packages/bench/.state holds the seeded datasets) to measure it`;
}

/** Origin search and aggregate on each dataset size of --scale-hosts. */
export async function scaleHosts(options: BenchOptions, secrets: BenchSecrets): Promise<ScaleLevel[]> {
  const levels: ScaleLevel[] = [];
  for (const hosts of options.scaleHosts) {
    const size = { hosts, certs: options.certs, seed: options.seed };
    const stateDir = datasetStateDir(hosts, options.certs, options.seed);
    let prepareSeconds = 0;
    const state = await seededState(stateDir, size);
    if (state !== "complete") {
      // A load the folder already holds leaves only the later steps (the breakdowns) to do.
      const estimate = state === "absent" ? estimateSeedSeconds(hosts, knownSeedTimings()) : null;
      if (estimate !== null && estimate > options.scaleBudget) {
        const skipped = `seeding ${formatCount(hosts)} hosts would take at least ${formatCount(estimate)} s here (linear from the largest seed timed on this machine; index upkeep makes it longer), over --scale-budget ${options.scaleBudget} s; run with --scale-budget ${estimate * 2} to measure it`;
        log(`scale: ${skipped}`);
        levels.push({ kind: "hosts", size: hosts, prepareSeconds, measurements: [], skipped });
        continue;
      }
      const noRoom = state === "absent" ? diskShortfall(hosts) : null;
      if (noRoom !== null) {
        log(`scale: ${noRoom}`);
        levels.push({ kind: "hosts", size: hosts, prepareSeconds, measurements: [], skipped: noRoom });
        continue;
      }
      log(
        `scale: ${state === "loaded" ? "counting the breakdowns of" : "seeding"} ${formatCount(hosts)} hosts (budget ${options.scaleBudget} s${estimate !== null ? `, estimate ${estimate} s` : ""})`,
      );
      const started = performance.now();
      try {
        await seedOrigin(stateDir, size, options.scaleBudget * 1000);
      } catch (error) {
        if (!(error instanceof RunTimeout)) throw error;
        const skipped = `seeding ${formatCount(hosts)} hosts did not finish within --scale-budget ${options.scaleBudget} s`;
        log(`scale: ${skipped}`);
        levels.push({
          kind: "hosts",
          size: hosts,
          prepareSeconds: options.scaleBudget,
          measurements: [],
          skipped,
        });
        continue;
      }
      prepareSeconds = Math.round((performance.now() - started) / 1000);
    }
    const cluster = await startCluster(stateDir, secrets);
    try {
      const probe = await probeDataset(cluster.originDb);
      const ctx = { cluster, originAuth: basicAuth(secrets.originApiId, secrets.originApiSecret), options };
      const measurements: Measurement[] = [];
      for (const [id, path] of [
        ["origin-search", searchPath(probe.countryCode)],
        ["origin-aggregate", AGGREGATE_PATH],
      ] as const) {
        log(`scale: ${id} on ${formatCount(probe.hosts)} hosts`);
        // The first request of a fresh worker: what nothing kept in its isolate has answered yet
        // (a search's total is counted then, and kept for the next requests of this dataset).
        const firstStarted = performance.now();
        await preflight(`${cluster.originUrl}${path}`, { headers: { authorization: ctx.originAuth } });
        const firstMs = performance.now() - firstStarted;
        const sample = await originQueryLoad(ctx, path);
        measurements.push(
          measure({
            id,
            title: `${id} on ${formatCount(probe.hosts)} hosts`,
            target: `GET ${readable(path)}`,
            connections: options.queryConnections,
            sample,
            notes: [`first request ${formatMs(firstMs)} ms`],
          }),
        );
      }
      levels.push({ kind: "hosts", size: hosts, prepareSeconds, measurements });
    } finally {
      await cluster.dispose();
    }
  }
  return levels;
}

/**
 * How a cache hit is served in a scaling run: from the isolate's memory tier (the default), or
 * with the memory tier off, so every hit reads the document from D1 by primary key.
 */
const CACHE_TIERS = [
  { id: "edge-view-hit", memoryHoldMs: undefined, title: "memory tier" },
  { id: "edge-view-hit-d1", memoryHoldMs: 0, title: "memory tier off, D1 read per hit" },
] as const;

/**
 * Cache-hit latency of one certificate view with each --scale-cached number of documents in the
 * edge's cache, on the main dataset's origin (`stateDir`): once as deployed (memory tier in front
 * of D1) and once with every hit read from D1, the part that grows with the table.
 */
export async function scaleCached(
  options: BenchOptions,
  secrets: BenchSecrets,
  stateDir: string,
): Promise<ScaleLevel[]> {
  const levels: ScaleLevel[] = [];
  for (const cached of options.scaleCached) {
    const measurements: Measurement[] = [];
    let prepareSeconds = 0;
    let skipped: string | undefined;
    for (const tier of CACHE_TIERS) {
      const cluster = await startCluster(stateDir, secrets, {
        edgeDatabaseId: `bench-edge-cache-${cached}`,
        // The hourly cleanup would cut the cache back to CACHE_MAX_ROWS (200,000 by default).
        cacheMaxRows: Math.max(200_000, cached + 10_000),
        ...(tier.memoryHoldMs !== undefined ? { memoryHoldMs: tier.memoryHoldMs } : {}),
      });
      try {
        log(`scale: edge cache of ${formatCount(cached)} documents, ${tier.title}`);
        // Rows are kept: the second tier finds the cache already filled.
        const fill = await fillEdgeCache(cluster.edgeDb, cluster.originDb, cached, options.scaleBudget, (m) =>
          log(`scale: ${m}`),
        );
        prepareSeconds += fill.seconds;
        if (fill.kind === "over-budget") {
          skipped = `filling the cache to ${formatCount(cached)} documents would take about ${formatCount(fill.estimatedSeconds)} s here (${formatCount(fill.rowsPerSecond)} rows/s), over --scale-budget ${options.scaleBudget} s; ${formatCount(fill.rows)} rows are kept and the next run continues from there`;
          log(`scale: ${skipped}`);
          break;
        }
        const probe = await probeDataset(cluster.originDb);
        const tenant = await createTenant(
          cluster.edgeUrl,
          secrets.adminToken,
          `bench scale cache ${cached} ${tier.id}`,
        );
        const headers = tenantHeaders(tenant);
        const path = viewPath(probe.viewFingerprint);
        await preflight(`${cluster.edgeUrl}${path}`, { headers });
        const { response } = await preflight(`${cluster.edgeUrl}${path}`, { headers });
        if (!/;\s*hit/.test(response.headers.get("cache-status") ?? "")) {
          throw new SkipScenario(
            `the repeated view was not a cache hit (Cache-Status: ${response.headers.get("cache-status")})`,
          );
        }
        const sample = await runLoad({
          baseUrl: cluster.edgeUrl,
          headers,
          requests: [{ method: "GET", path }],
          connections: options.queryConnections,
          durationSeconds: options.duration,
        });
        measurements.push(
          measure({
            id: tier.id,
            title: `edge view, cache hit (${tier.title}), ${formatCount(fill.rows)} documents cached`,
            target: `GET ${path}`,
            connections: options.queryConnections,
            sample,
          }),
        );
      } finally {
        await cluster.dispose();
      }
    }
    levels.push({
      kind: "cached",
      size: cached,
      prepareSeconds: Math.round(prepareSeconds),
      measurements,
      ...(skipped !== undefined ? { skipped } : {}),
    });
  }
  return levels;
}
