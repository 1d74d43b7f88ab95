// pnpm --filter @scangate/bench local-system: the SQL job measurements of `pnpm bench`
// (sql-group-by-country, sql-ip-lookup, sql-contention) against the local system newcomers run:
// the repository's own start script (`node scripts/start.mjs`: wrangler dev for the origin and the
// edge, the origin's dataset and snapshot tables seeded on first start) in a state folder of its
// own, then stopped. Progress on stderr, the table and targets on stdout, everything in a JSON file.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createTenant, purgeCertificate } from "./admin-client";
import { formatCount } from "./format";
import { type LocalSystem, startLocalSystem } from "./local-start";
import { measure, type Measurement, type Skipped } from "./measurement";
import { REPO_ROOT, RESULTS_DIR, STATE_DIR } from "./paths";
import { noteLines, scenarioTable, targetLines } from "./report";
import type { ScenarioOutcome } from "./scenario";
import { COLLAPSED_ROUND, COUNTED_ROUNDS, collapsedRounds } from "./scenarios/edge-collapsed";
import {
  contention,
  countriesChecked,
  groupByCountryQuery,
  ipLookupQuery,
  lookupChecked,
  queryLatency,
  sqlDataset,
  type SqlSettings,
} from "./scenarios/sql";
import type { SqlEndpoint } from "./sql-jobs";
import { evaluateTargets } from "./targets";

const log = (message: string) => process.stderr.write(`local-system: ${message}\n`);

const USAGE = `usage: pnpm --filter @scangate/bench local-system [-- options]

  --hosts N          hosts the local system seeds (default 5000, start.mjs's own default)
  --state-dir DIR    its state folder (default packages/bench/.state/local-system-h<hosts>; kept between runs)
  --sql-runs N       measured jobs of each SQL latency measurement (default 7)
  --sql-poll-ms N    pause between a job's status answer and the next poll (default 25)
  --idle-seconds S   seconds the contention probes run idle (default 10)
  --start-timeout S  seconds the start (seed included) may take (default 3600)
  --collapsed-rounds N  timed rounds of edge-miss-collapsed (default 4: each is 50 misses and 50 hits, and 3 counted
                     rounds of 51 follow; the high tier's 600 requests a minute hold 4)
  --out FILE         results JSON (default packages/bench/bench-results/local-system-<time>.json)
`;

/** The certificates the origin holds, by SHA-256 (its v1 search), for the collapsed rounds. */
async function certificateFingerprints(endpoint: SqlEndpoint, count: number): Promise<string[]> {
  const response = await fetch(`${endpoint.originUrl}/api/v1/search/certificates`, {
    method: "POST",
    headers: { authorization: endpoint.authorization, "content-type": "application/json" },
    body: JSON.stringify({ query: "*", fields: ["parsed.fingerprint_sha256"], per_page: count }),
  });
  if (!response.ok) throw new Error(`certificate search answered ${response.status}`);
  const body = (await response.json()) as { results: Array<Record<string, unknown>> };
  return body.results.map((r) => String(r["parsed.fingerprint_sha256"]));
}

/**
 * edge-miss-collapsed on the local system: a new tenant on the high tier (the local system's
 * burst limits are real), each certificate purged through the admin API before its round.
 */
async function collapsedOnSystem(system: LocalSystem, rounds: number): Promise<ScenarioOutcome> {
  const admin = { authorization: `Bearer ${system.adminToken}` };
  const tenant = await createTenant(
    system.edgeUrl,
    system.adminToken,
    `local-system collapsed ${Date.now()}`,
    "high",
  );
  try {
    const fingerprints = await certificateFingerprints(system.endpoint, rounds + COUNTED_ROUNDS);
    const headers = { authorization: tenant.authorization };
    // The route is there before the clock starts (wrangler dev builds on first request).
    await (await fetch(`${system.edgeUrl}/api/v1/account`, { headers })).arrayBuffer();
    return await collapsedRounds({
      edgeUrl: system.edgeUrl,
      originUrl: system.endpoint.originUrl,
      headers,
      originHeaders: { authorization: system.endpoint.authorization },
      fingerprints,
      purge: (fingerprint) => purgeCertificate(system.edgeUrl, system.adminToken, fingerprint),
      deadline: Number.POSITIVE_INFINITY,
      maxRounds: rounds,
    });
  } finally {
    await fetch(`${system.edgeUrl}/admin/tenants/${tenant.id}`, { method: "DELETE", headers: admin });
  }
}

function positiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer (got "${value}")`);
  return n;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((a) => a !== "--"),
    options: {
      hosts: { type: "string", default: "5000" },
      "state-dir": { type: "string" },
      "sql-runs": { type: "string", default: "7" },
      "sql-poll-ms": { type: "string", default: "25" },
      "idle-seconds": { type: "string", default: "10" },
      "start-timeout": { type: "string", default: "3600" },
      "collapsed-rounds": { type: "string", default: "4" },
      out: { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const hosts = positiveInt("hosts", values.hosts);
  const settings: SqlSettings = {
    runs: positiveInt("sql-runs", values["sql-runs"]),
    pollMs: positiveInt("sql-poll-ms", values["sql-poll-ms"]),
    idleSeconds: positiveInt("idle-seconds", values["idle-seconds"]),
  };
  const stateDir = path.resolve(values["state-dir"] ?? path.join(STATE_DIR, `local-system-h${hosts}`));
  const startedAt = new Date();
  const system = await startLocalSystem(
    stateDir,
    hosts,
    positiveInt("start-timeout", values["start-timeout"]) * 1000,
    log,
  );
  const stopOnSignal = () => void system.stop().finally(() => process.exit(130));
  process.on("SIGINT", stopOnSignal);
  process.on("SIGTERM", stopOnSignal);
  const rows: Array<Measurement | Skipped> = [];
  const measurements: Measurement[] = [];
  let failed = 0;
  let table = "";
  try {
    const dataset = await sqlDataset(system.endpoint);
    log(`latest table ${dataset.table}, most common country ${dataset.countryCode}, lookup ip ${dataset.ip}`);
    const runs: Array<[string, string, () => Promise<ScenarioOutcome>]> = [
      [
        "sql-group-by-country",
        "SQL job: GROUP BY location.country, start to success",
        () => queryLatency(system.endpoint, groupByCountryQuery(dataset.table), settings, countriesChecked),
      ],
      [
        "sql-ip-lookup",
        "SQL job: WHERE ip = one host, start to success",
        () =>
          queryLatency(system.endpoint, ipLookupQuery(dataset.table, dataset.ip), settings, lookupChecked),
      ],
      [
        "sql-contention",
        "origin search and account probes, idle and while the worst SQL jobs run",
        () => contention(system.endpoint, dataset, settings),
      ],
      [
        "edge-miss-collapsed",
        `edge view, ${COLLAPSED_ROUND} concurrent misses of one certificate`,
        () => collapsedOnSystem(system, positiveInt("collapsed-rounds", values["collapsed-rounds"])),
      ],
    ];
    for (const [id, title, work] of runs) {
      log(`${id}: ${title}...`);
      try {
        const outcome = await work();
        if (outcome.kind === "skipped") {
          rows.push({ id, title, reason: outcome.reason });
          continue;
        }
        for (const row of [{ id, title, ...outcome }, ...(outcome.extra ?? [])]) {
          const m = measure(row);
          measurements.push(m);
          rows.push(m);
        }
      } catch (error) {
        failed += 1;
        const reason = error instanceof Error ? error.message : String(error);
        log(`  failed: ${reason}`);
        rows.push({ id, title, reason: `failed: ${reason}` });
      }
    }
    table = scenarioTable(rows);
  } finally {
    log("stopping the local system");
    await system.stop();
  }
  const targets = evaluateTargets({
    scenarios: new Map(measurements.map((m) => [m.id, m])),
    datasetHosts: hosts,
  }).filter((t) => t.id.startsWith("sql-") || t.id === "edge-miss-collapsed");
  const load = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
  const out = [
    "",
    `scangate local-system SQL bench, ${startedAt.toISOString()}: ${os.cpus().length} CPUs, Node ${process.version}, load average ${load} at the end`,
    `the local system (node scripts/start.mjs: wrangler dev) with ${formatCount(hosts)} hosts (state ${path.relative(REPO_ROOT, stateDir)}); ` +
      `${settings.runs} jobs per latency query, polled every ${settings.pollMs} ms; contention probes ${settings.idleSeconds} s idle`,
    "",
    table,
    "",
    "SQL jobs (figures from this run):",
    ...noteLines(measurements, "sql-").map((l) => `  ${l}`),
    "",
    "concurrent misses (figures from this run):",
    ...noteLines(measurements, "edge-miss-collapsed").map((l) => `  ${l}`),
    "",
    "targets (figures from this run; the targets are on 100,000 hosts):",
    ...targetLines(targets),
  ];
  const file = path.resolve(
    values.out ??
      path.join(RESULTS_DIR, `local-system-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`),
  );
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify({ started_at: startedAt.toISOString(), system: "local (scripts/start.mjs)", hosts, settings, scenarios: rows, targets }, null, 2)}\n`,
  );
  out.push(`results: ${path.relative(process.cwd(), file)}`, "");
  process.stdout.write(out.join("\n"));
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
