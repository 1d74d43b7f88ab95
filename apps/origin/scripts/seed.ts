// Seeds the origin's local D1 with the generated dataset:
//   pnpm --filter @scangate/origin run seed -- [--hosts N] [--certs M] [--seed S] [--day YYYY-MM-DD] [--persist-to DIR] [--force]
//   pnpm --filter @scangate/origin run seed -- --sql-out DIR   (SQL files for `wrangler d1 execute --file`, e.g. --remote)
// Idempotent: `dataset_meta` records the generator version, seed, sizes and seed day, and a
// database that already holds that dataset (of any day) is not loaded again, only given the
// steps after the load it lacks (breakdowns, snapshot tables). Its latest snapshot is the day it
// was seeded: on a later day it says how old the data is and how to refresh it (--force reseeds
// for today, --day for another day). The seed day is also written to DIR/dataset-day for the
// start script. Progress goes to stderr. The SQL files leave
// the breakdowns to the worker: each is counted by the first request that needs it.
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import tls from "node:tls";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { datasetClock, utcDay } from "../src/dataset/clock";
import {
  datasetFingerprint,
  datasetIdentity,
  generateDataset,
  type DatasetOptions,
} from "../src/dataset/generate";
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
    day: { type: "string" },
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
    "usage: seed [--hosts 5000] [--certs 2000] [--seed scangate] [--day YYYY-MM-DD (today)] [--persist-to DIR] [--force] [--sql-out DIR]",
  );
  process.exit(0);
}
const hosts = Number(args.hosts);
const certs = Number(args.certs);
if (!Number.isInteger(hosts) || hosts < 1) fail("--hosts must be a positive integer");
if (!Number.isInteger(certs) || certs < 1) fail("--certs must be a positive integer");
const persistTo = args["persist-to"] ? path.resolve(args["persist-to"]) : undefined;
const today = utcDay(Date.now());
const day = args.day ?? today;
if (datasetClock(day) === null) fail(`--day must be a date like ${today}, not ${JSON.stringify(day)}`);

const options: DatasetOptions = {
  seed: args.seed,
  day,
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

/** Where the start script reads the seed day of the dataset it serves. */
function recordDay(seeded: string): void {
  const dir = persistTo ?? path.join(appDir, ".wrangler", "state");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "dataset-day"), `${seeded}\n`);
}

/** How old a dataset seeded on `seeded` is today, and how to refresh it, when more than a day. */
function staleness(seeded: string): string | null {
  const age = Math.floor((Date.parse(today) - Date.parse(seeded)) / 86_400_000);
  if (age <= 1) return null;
  const again = [
    "--force",
    ...(persistTo ? ["--persist-to", persistTo] : []),
    ...(args.hosts !== "5000" ? ["--hosts", args.hosts] : []),
    ...(args.certs !== "2000" ? ["--certs", args.certs] : []),
    ...(args.seed !== "scangate" ? ["--seed", args.seed] : []),
  ];
  return (
    `the origin dataset was seeded on ${seeded}, ${age} days ago: every host looks ${age} days stale ` +
    `(its latest snapshot table is ipv4.${seeded.replace(/-/g, "")}). To refresh it for today (a few ` +
    `minutes): pnpm --filter @scangate/origin run seed -- ${again.join(" ")}`
  );
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
    // The same dataset on another day is kept unless a day is asked for: a reseed takes minutes.
    const held = row?.value ?? "";
    const sameData =
      held === wanted || (args.day === undefined && held.startsWith(`${datasetIdentity(options)}:`));
    if (sameData && !args.force) {
      const seeded = held.slice(datasetIdentity(options).length + 1);
      console.error(`origin dataset already seeded (${held}); --force reseeds`);
      const stale = staleness(seeded);
      if (stale) console.error(stale);
      recordDay(seeded);
      await countBreakdowns(local.db, log);
      await seedSnapshots(appDir, persistTo, local.db, false);
      return;
    }
    const started = Date.now();
    console.error(`seeding origin dataset ${wanted}`);
    const summary = await loadDataset(local, options);
    recordDay(summary.day);
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
