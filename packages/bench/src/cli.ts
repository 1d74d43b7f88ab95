// pnpm bench: the workers on workerd's own sockets, autocannon on the same machine, one scenario
// at a time; a table and the targets on stdout, progress on stderr, everything in a JSON file.
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { basicAuth, type BenchTenant, createTenant } from "./admin-client";
import {
  type BareWorker,
  type BenchSecrets,
  buildBareWorker,
  type Cluster,
  migrateEdge,
  missingBundles,
  startBare,
  startCluster,
} from "./cluster";
import { probeDataset, referenceDocuments, seedOrigin } from "./dataset";
import { formatCount, formatMs, formatRate } from "./format";
import { measure, type Measurement, type Skipped } from "./measurement";
import { type BenchOptions, defaultResultsFile, parseOptions, usage, UsageError } from "./options";
import { datasetStateDir, REPO_ROOT } from "./paths";
import { stopRunning } from "./processes";
import { countLines, noteLines, pairTable, scenarioTable, scaleTable, targetLines } from "./report";
import { type ScaleLevel, scaleCached, scaleHosts } from "./scale";
import { type BenchContext, bulkFingerprints, SkipScenario, sleep } from "./scenario";
import { SCENARIO_IDS, SCENARIOS } from "./scenarios";
import { evaluateTargets, type ScaledQueries } from "./targets";

const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

interface Phase {
  readonly name: string;
  readonly seconds: number;
}

/** Workers running now, stopped on the way out (also on Ctrl-C). */
const running = new Set<Cluster | BareWorker>();

async function stopWorkers(): Promise<void> {
  const all = [...running];
  running.clear();
  await Promise.allSettled(all.map((w) => w.dispose()));
}

function onSignal(signal: NodeJS.Signals): void {
  log(`${signal}: stopping`);
  stopRunning();
  void stopWorkers().finally(() => process.exit(130));
}

/** Runs `work`, logging `label` (default: the phase name) and keeping the time it took. */
async function timed<T>(phases: Phase[], name: string, work: () => Promise<T>, label = name): Promise<T> {
  const started = performance.now();
  log(`${label}...`);
  try {
    return await work();
  } finally {
    phases.push({ name, seconds: Math.round((performance.now() - started) / 100) / 10 });
  }
}

/** The dataset a run measured, as the results file records it. */
interface DatasetFacts {
  readonly hosts: number;
  readonly certificates: number;
  readonly view_certificate: string;
  readonly view_document_bytes: number;
  readonly search_country_code: string;
}

interface MainRun {
  readonly measurements: Measurement[];
  readonly rows: Array<Measurement | Skipped>;
  readonly failed: number;
  readonly dataset: DatasetFacts;
}

async function runScenarios(
  options: BenchOptions,
  phases: Phase[],
  stateDir: string,
  secrets: BenchSecrets,
): Promise<MainRun> {
  // The inspector is open for the Zipf scenario's heap readings; nothing attaches before it.
  const cluster = await timed(phases, "start workers", () =>
    startCluster(stateDir, secrets, { inspect: true }),
  );
  running.add(cluster);
  const probe = await probeDataset(cluster.originDb);
  const originAuth = basicAuth(secrets.originApiId, secrets.originApiSecret);
  const documents = await referenceDocuments(
    cluster.originUrl,
    originAuth,
    `Bearer ${secrets.originPlatformToken}`,
    probe.viewFingerprint,
    bulkFingerprints(probe),
  );
  const bare = await timed(phases, "start bare", () => startBare(stateDir, documents));
  running.add(bare);

  const runId = new Date().toISOString();
  const tenants: BenchTenant[] = [];
  const ctx: BenchContext = {
    options,
    bareUrl: bare.url,
    cluster,
    probe,
    adminToken: secrets.adminToken,
    originAuth,
    newTenant: async (label) => {
      const tenant = await createTenant(cluster.edgeUrl, secrets.adminToken, `bench ${runId} ${label}`);
      tenants.push(tenant);
      return tenant;
    },
  };
  const measurements: Measurement[] = [];
  const rows: Array<Measurement | Skipped> = [];
  let failed = 0;
  try {
    const selected = SCENARIOS.filter(
      (s) => options.scenarios.length === 0 || options.scenarios.includes(s.id),
    );
    for (const [i, scenario] of selected.entries()) {
      // Work an earlier scenario left behind (batched writes, queued jobs, collections) settles
      // before the next one starts its clock.
      if (i > 0) await sleep(SETTLE_MS);
      try {
        const outcome = await timed(
          phases,
          scenario.id,
          () => scenario.run(ctx),
          `${scenario.id}: ${scenario.title}`,
        );
        if (outcome.kind === "skipped") {
          rows.push({ id: scenario.id, title: scenario.title, reason: outcome.reason });
          continue;
        }
        const m = measure({ id: scenario.id, title: scenario.title, ...outcome });
        measurements.push(m);
        rows.push(m);
        log(
          `  ${formatRate(m.requestsPerSecond)} req/s, p50 ${formatMs(m.p50Ms)} ms, p99 ${formatMs(m.p99Ms)} ms, ${m.errors} errors`,
        );
        for (const row of outcome.extra ?? []) {
          const e = measure(row);
          measurements.push(e);
          rows.push(e);
          log(`  ${e.id}: p50 ${formatMs(e.p50Ms)} ms, p99 ${formatMs(e.p99Ms)} ms, ${e.errors} errors`);
        }
      } catch (error) {
        const reason = errorLine(error);
        if (!(error instanceof SkipScenario)) failed += 1;
        log(`  ${error instanceof SkipScenario ? "skipped" : "failed"}: ${reason}`);
        rows.push({
          id: scenario.id,
          title: scenario.title,
          reason: error instanceof SkipScenario ? reason : `failed: ${reason}`,
        });
      }
    }
    // The run's tenants go; their figures are in the results already.
    await Promise.allSettled(
      tenants.map((t) =>
        fetch(`${cluster.edgeUrl}/admin/tenants/${t.id}`, {
          method: "DELETE",
          headers: { authorization: `Bearer ${secrets.adminToken}` },
        }),
      ),
    );
  } finally {
    await stopWorkers();
  }
  return {
    measurements,
    rows,
    failed,
    dataset: {
      hosts: probe.hosts,
      certificates: probe.fingerprints.length,
      view_certificate: probe.viewFingerprint,
      view_document_bytes: probe.viewBytes,
      search_country_code: probe.countryCode,
    },
  };
}

/** An error's first line, with its cause's (fetch says only "fetch failed", its cause what failed). */
function errorLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const line = error.message.split("\n")[0] ?? "";
  return error.cause instanceof Error ? `${line} (${errorLine(error.cause)})` : line;
}

/** The pause between scenarios. */
const SETTLE_MS = 3000;

function scaledQueries(levels: readonly ScaleLevel[]): ScaledQueries[] {
  return levels
    .filter((l) => l.kind === "hosts" && l.skipped === undefined)
    .map((l) => ({
      hosts: l.size,
      search: l.measurements.find((m) => m.id === "origin-search"),
      aggregate: l.measurements.find((m) => m.id === "origin-aggregate"),
    }));
}

async function main(argv: readonly string[]): Promise<number> {
  let options: BenchOptions;
  try {
    const parsed = parseOptions(argv, SCENARIO_IDS);
    if (parsed === "help") {
      process.stdout.write(usage(SCENARIO_IDS));
      return 0;
    }
    options = parsed;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`bench: ${error.message}\n\n${usage(SCENARIO_IDS)}`);
    return 2;
  }
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const startedAt = new Date();
  const phases: Phase[] = [];
  const missing = missingBundles();
  if (missing.length > 0) {
    log(
      `not built: ${missing.join(", ")}; run \`pnpm bench\` from the repository root (it builds them first)`,
    );
    return 1;
  }
  if (options.build) await timed(phases, "build bare", buildBareWorker);
  const size = { hosts: options.hosts, certs: options.certs, seed: options.seed };
  const stateDir = datasetStateDir(size.hosts, size.certs, size.seed);
  await timed(
    phases,
    "origin dataset",
    () => seedOrigin(stateDir, size, undefined, true),
    `origin dataset: ${formatCount(size.hosts)} hosts, ${formatCount(size.certs)} certificates, seed ${size.seed} (${path.relative(REPO_ROOT, stateDir)})`,
  );
  await timed(phases, "edge migrations", () => migrateEdge(stateDir));
  const secrets: BenchSecrets = {
    originApiId: "bench-origin",
    originApiSecret: randomBytes(16).toString("hex"),
    originPlatformToken: `censys_bench_${randomBytes(16).toString("hex")}`,
    adminToken: randomBytes(24).toString("hex"),
  };
  const run = await runScenarios(options, phases, stateDir, secrets);
  const scale: ScaleLevel[] = [];
  if (options.scale) {
    scale.push(...(await timed(phases, "scale hosts", () => scaleHosts(options, secrets))));
    scale.push(...(await timed(phases, "scale cache", () => scaleCached(options, secrets, stateDir))));
  }
  const targets = evaluateTargets({
    scenarios: new Map(run.measurements.map((m) => [m.id, m])),
    datasetHosts: run.dataset.hosts,
    scaled: scaledQueries(scale),
  });
  const finishedAt = new Date();

  const cpus = os.cpus();
  // Other work on the machine shares the cores with workerd and autocannon: say how much there was.
  const load = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
  const out: string[] = [
    "",
    `scangate bench, ${startedAt.toISOString()}: ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? "unknown"}), Node ${process.version}, load average ${load} at the end; workerd direct sockets, autocannon in-process`,
    `dataset: ${formatCount(run.dataset.hosts)} hosts, ${formatCount(run.dataset.certificates)} certificates (seed ${options.seed}); ` +
      `view certificate ${run.dataset.view_certificate.slice(0, 16)}... (${formatCount(run.dataset.view_document_bytes)} bytes); ${options.duration} s per scenario`,
    "",
    scenarioTable(run.rows),
  ];
  const pairs = pairTable(run.measurements);
  if (pairs !== "")
    out.push(
      "",
      `paired slices (each pair: a slice of the scenario and one of its reference, ${options.slice} s each at first and doubled after a pair with a slice of fewer than two answers per connection, one right after the other, the side that goes first alternating; ratio = scenario req/s / reference req/s of the pair; the ratio targets judge the median):`,
      pairs,
    );
  const counts = countLines(run.measurements);
  if (counts.length > 0)
    out.push(
      "",
      "counts (edge usage rollups of each scenario's own tenant; origin_calls: the origin's own count):",
      ...counts.map((l) => `  ${l}`),
    );
  const countNotes = noteLines(run.measurements, "edge-request-counts");
  if (countNotes.length > 0)
    out.push(
      "",
      "per request, one at a time (X-D1-Statements and X-Ledger-Calls of the edge's answers):",
      ...countNotes.map((l) => `  ${l}`),
    );
  const sqlNotes = noteLines(run.measurements, "sql-");
  if (sqlNotes.length > 0)
    out.push("", "SQL jobs (figures from this run):", ...sqlNotes.map((l) => `  ${l}`));
  const platformJobNotes = noteLines(run.measurements, "platform-");
  if (platformJobNotes.length > 0)
    out.push(
      "",
      "SQL and export jobs through a Platform-only edge (figures from this run):",
      ...platformJobNotes.map((l) => `  ${l}`),
    );
  out.push("", "targets (figures from this run):", ...targetLines(targets));
  if (scale.length > 0)
    out.push(
      "",
      `scaling (${options.queryConnections} connection(s), ${options.duration} s each):`,
      scaleTable(scale),
    );
  const total = Math.round((finishedAt.getTime() - startedAt.getTime()) / 1000);
  out.push("", `time (s): ${phases.map((p) => `${p.name} ${p.seconds}`).join(", ")}; total ${total}`);

  const file = options.out ?? defaultResultsFile(startedAt);
  mkdirSync(path.dirname(file), { recursive: true });
  const results = {
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    machine: {
      cpus: cpus.length,
      cpu_model: cpus[0]?.model.trim() ?? null,
      memory_bytes: os.totalmem(),
      node: process.version,
      platform: process.platform,
      load_average_at_end: os.loadavg(),
    },
    options,
    dataset: { ...run.dataset, seed: options.seed, state_dir: path.relative(REPO_ROOT, stateDir) },
    scenarios: run.rows,
    targets,
    scale,
    phases,
  };
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  out.push(`results: ${path.relative(process.cwd(), file)}`, "");
  process.stdout.write(out.join("\n"));
  return run.failed > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    stopRunning();
    await stopWorkers();
    process.exit(1);
  },
);
