// Seeds the origin's local D1 with the generated dataset:
//   pnpm --filter @scangate/origin run seed -- [--hosts N] [--certs M] [--seed S] [--persist-to DIR] [--force]
//   pnpm --filter @scangate/origin run seed -- --sql-out DIR   (SQL files for `wrangler d1 execute --file`, e.g. --remote)
// Idempotent: `dataset_meta` records the generator version, seed and sizes, and a database that
// already holds that dataset is not loaded again, only given the steps after the load it lacks
// (breakdowns, snapshot tables; --force reseeds). Progress goes to stderr. The SQL files leave
// the breakdowns to the worker: each is counted by the first request that needs it.
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import tls from "node:tls";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { datasetFingerprint, generateDataset, type DatasetOptions } from "../src/dataset/generate";
import { InsertBatcher, clearDatasetStatements } from "../src/dataset/sql";
import { countBreakdowns } from "./count-breakdowns";
import { loadDataset, openLocalD1 } from "./local-d1";
import { seedSnapshots } from "./seed-snapshots";

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Each SQL file stays below this, so `wrangler d1 execute --file` never holds a huge file. */
const FILE_BYTES = 48 * 1024 * 1024;

const { values: args } = parseArgs({
  options: {
    seed: { type: "string", default: "scangate" },
    hosts: { type: "string", default: "5000" },
    certs: { type: "string", default: "2000" },
    "persist-to": { type: "string" },
    "sql-out": { type: "string" },
    force: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

if (args.help) {
  console.log(
    "usage: seed [--hosts 5000] [--certs 2000] [--seed scangate] [--persist-to DIR] [--force] [--sql-out DIR]",
  );
  process.exit(0);
}
const hosts = Number(args.hosts);
const certs = Number(args.certs);
if (!Number.isInteger(hosts) || hosts < 1) fail("--hosts must be a positive integer");
if (!Number.isInteger(certs) || certs < 1) fail("--certs must be a positive integer");
const persistTo = args["persist-to"] ? path.resolve(args["persist-to"]) : undefined;

const options: DatasetOptions = {
  seed: args.seed,
  hosts,
  certs,
  rootPems: tls.rootCertificates,
  onProgress: (message) => console.error(`  ${message}`),
};
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

function applyMigrations(): void {
  const result = spawnSync(
    path.join(appDir, "node_modules", ".bin", "wrangler"),
    ["d1", "migrations", "apply", "DB", "--local", ...(persistTo ? ["--persist-to", persistTo] : [])],
    { cwd: appDir, encoding: "utf8", env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false" } },
  );
  if (result.status !== 0) throw new Error(`applying migrations failed:\n${result.stdout}${result.stderr}`);
}

async function seedLocal(): Promise<void> {
  const wanted = datasetFingerprint(options);
  applyMigrations();
  const local = await openLocalD1(appDir, persistTo);
  try {
    const row = await local.db
      .prepare("SELECT value FROM dataset_meta WHERE key = 'dataset'")
      .first<{ value: string }>();
    const log = (message: string) => console.error(`  ${message}`);
    if (row?.value === wanted && !args.force) {
      console.error(`origin dataset already seeded (${wanted}); --force reseeds`);
      await countBreakdowns(local.db, log);
      await seedSnapshots(appDir, persistTo, local.db, false);
      return;
    }
    const started = Date.now();
    console.error(`seeding origin dataset ${wanted}`);
    const summary = await loadDataset(local, options);
    await countBreakdowns(local.db, log);
    await seedSnapshots(appDir, persistTo, local.db, true);
    console.error(
      `seeded ${summary.hosts} hosts, ${summary.certificates} certificates, ${summary.websites} websites in ${seconds(started)}`,
    );
  } finally {
    await local.dispose();
  }
}

async function writeSqlFiles(dir: string): Promise<void> {
  const started = Date.now();
  mkdirSync(dir, { recursive: true });
  let fd = -1;
  let written = 0;
  let files = 0;
  const write = (statement: string) => {
    if (fd < 0 || written + statement.length > FILE_BYTES) {
      if (fd >= 0) closeSync(fd);
      fd = openSync(path.join(dir, `part-${String(files++).padStart(3, "0")}.sql`), "w");
      written = 0;
    }
    writeSync(fd, `${statement}\n`);
    written += statement.length + 1;
  };
  clearDatasetStatements().forEach(write);
  const batcher = new InsertBatcher(write);
  await generateDataset(options, { add: (t, r) => batcher.add(t, r), drain: () => Promise.resolve() });
  batcher.flush();
  closeSync(fd);
  console.error(
    `wrote ${files} SQL file(s) to ${dir} in ${seconds(started)}; load them in order with wrangler d1 execute DB --file`,
  );
}

const outDir = args["sql-out"];
(outDir ? writeSqlFiles(path.resolve(outDir)) : seedLocal()).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
