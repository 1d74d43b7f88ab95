// Seeds a bench state folder with the origin's dataset, run as a child process by dataset.ts:
//   tsx src/seed-origin.ts --hosts N --certs M --seed S --persist-to DIR [--snapshots] [--check]
// (--check: exit 0 when DIR already holds that dataset with every step below done, 3 when it
// does not hold it, 4 when it does but a later step is missing; and seed nothing.)
// The origin's own generator (apps/origin/src/dataset) and loader (apps/origin/scripts/local-d1.ts),
// then its breakdown step (apps/origin/scripts/count-breakdowns.ts), the way the origin's seed
// script uses them; with --snapshots also its last step, the snapshot tables SQL query and export
// jobs read (apps/origin/scripts/seed-snapshots.ts, into the SNAPSHOTS D1 of the same folder).
// The scaling runs seed without them (no scaling measurement reads them).
// Idempotent through `dataset_meta` and `snapshot_meta`, like the seed script. Progress goes to
// stderr; the time each step took goes to seed-timing.json.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import tls from "node:tls";
import { parseArgs } from "node:util";
import { Miniflare } from "miniflare";
import {
  datasetFingerprint,
  datasetIdentity,
  type DatasetOptions,
} from "../../../apps/origin/src/dataset/generate";
import { SNAPSHOT_LAYOUT } from "../../../apps/origin/src/snapshots/layout";
import { readSnapshotState } from "../../../apps/origin/src/snapshots/publish";
import { breakdownsCounted } from "../../../apps/origin/src/services/aggregate";
import { countBreakdowns } from "../../../apps/origin/scripts/count-breakdowns";
import { d1DatabaseId, loadDataset, openLocalD1 } from "../../../apps/origin/scripts/local-d1";
import { seedSnapshots } from "../../../apps/origin/scripts/seed-snapshots";
import { folderBytes, SEED_TIMING_FILE, type SeedTiming } from "./dataset";
import { ORIGIN_DIR, WRANGLER_BIN } from "./paths";
import { run } from "./processes";

/** Exit codes of --check: the folder does not hold the dataset; it does, but a later step is missing. */
const NOT_SEEDED = 3;
const STEPS_MISSING = 4;

/** The dataset a state folder holds (dataset_meta), or null, and whether its breakdowns are counted. */
async function seededWith(persistTo: string): Promise<{ dataset: string | null; breakdowns: boolean }> {
  const local = await openLocalD1(ORIGIN_DIR, persistTo);
  try {
    const row = await local.db
      .prepare("SELECT value FROM dataset_meta WHERE key = 'dataset'")
      .first<{ value: string }>();
    return { dataset: row?.value ?? null, breakdowns: row !== null && (await breakdownsCounted(local.db)) };
  } catch {
    // No dataset_meta table: nothing was ever seeded here.
    return { dataset: null, breakdowns: false };
  } finally {
    await local.dispose();
  }
}

/**
 * Whether the folder's SNAPSHOTS D1 holds the current layout built from `dataset` (the test
 * seedSnapshots itself makes before skipping a build).
 */
async function snapshotsBuiltFor(persistTo: string, dataset: string): Promise<boolean> {
  const mf = new Miniflare({
    modules: true,
    script: "export default {}",
    d1Persist: path.join(persistTo, "v3", "d1"),
    d1Databases: { SNAPSHOTS: d1DatabaseId(ORIGIN_DIR, "SNAPSHOTS") },
  });
  try {
    const state = await readSnapshotState(await mf.getD1Database("SNAPSHOTS"));
    return state.layout === SNAPSHOT_LAYOUT && state.dataset === dataset;
  } finally {
    await mf.dispose();
  }
}

/**
 * Adds `figures` to the folder's seed-timing.json (started afresh when it is missing or of
 * another dataset; `seconds` 0 then says the main seed was not timed here).
 */
function recordTiming(
  persistTo: string,
  size: Pick<SeedTiming, "hosts" | "certs" | "seed">,
  figures: Partial<SeedTiming>,
): void {
  const file = path.join(persistTo, SEED_TIMING_FILE);
  const before = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Partial<SeedTiming>) : {};
  const same = before.hosts === size.hosts && before.certs === size.certs && before.seed === size.seed;
  const base = same ? before : { seconds: 0, finishedAt: new Date().toISOString() };
  writeFileSync(file, `${JSON.stringify({ ...base, ...size, ...figures }, null, 2)}\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      hosts: { type: "string" },
      certs: { type: "string" },
      seed: { type: "string" },
      "persist-to": { type: "string" },
      check: { type: "boolean", default: false },
      snapshots: { type: "boolean", default: false },
    },
  });
  const hosts = Number(values.hosts);
  const certs = Number(values.certs);
  const seed = values.seed ?? "";
  const persistTo = values["persist-to"];
  if (!Number.isInteger(hosts) || !Number.isInteger(certs) || seed === "" || !persistTo) {
    throw new Error("usage: seed-origin --hosts N --certs M --seed S --persist-to DIR");
  }
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  let hostsStarted = 0;
  const options: DatasetOptions = {
    seed,
    // Seeded for today; a folder seeded on an earlier day is measured as it is (a reseed takes long).
    day: new Date().toISOString().slice(0, 10),
    hosts,
    certs,
    rootPems: tls.rootCertificates,
    onProgress: (message) => {
      // Hosts come after the certificates: their rate, from when the certificates were done.
      if (/^certificates issued: (\d+)\/\1 /.test(message)) hostsStarted = elapsed();
      const done = Number(/^hosts: (\d+)\//.exec(message)?.[1] ?? 0);
      const left =
        done > 0 ? ` (about ${Math.round(((elapsed() - hostsStarted) / done) * (hosts - done))} s left)` : "";
      console.error(`${message}${left}`);
    },
  };
  // The dataset the folder holds, when it is this one of any day; else today's.
  const heldNow = (await seededWith(persistTo)).dataset;
  const wanted = heldNow?.startsWith(`${datasetIdentity(options)}:`) ? heldNow : datasetFingerprint(options);
  if (values.check) {
    const held = await seededWith(persistTo);
    const complete = held.breakdowns && (!values.snapshots || (await snapshotsBuiltFor(persistTo, wanted)));
    process.exitCode = held.dataset !== wanted ? NOT_SEEDED : complete ? 0 : STEPS_MISSING;
    return;
  }
  await run(
    WRANGLER_BIN,
    ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo],
    ORIGIN_DIR,
  );
  if ((await seededWith(persistTo)).dataset === wanted) {
    console.error(`origin dataset ${wanted} already seeded`);
  } else {
    const local = await openLocalD1(ORIGIN_DIR, persistTo);
    try {
      console.error(`seeding origin dataset ${wanted} into ${persistTo}`);
      const summary = await loadDataset(local, options);
      const seconds = Math.round(elapsed());
      // A new main dataset: the timing of the folder's earlier one (later steps included) goes.
      rmSync(path.join(persistTo, SEED_TIMING_FILE), { force: true });
      recordTiming(
        persistTo,
        { hosts, certs, seed },
        { seconds, finishedAt: new Date().toISOString(), bytes: folderBytes(persistTo) },
      );
      console.error(`seeded ${summary.hosts} hosts, ${summary.certificates} certificates in ${seconds} s`);
    } finally {
      await local.dispose();
    }
  }
  const breakdownsStarted = performance.now();
  const local = await openLocalD1(ORIGIN_DIR, persistTo);
  try {
    if (await countBreakdowns(local.db, (message) => console.error(message))) {
      const breakdownSeconds = Math.round((performance.now() - breakdownsStarted) / 1000);
      recordTiming(persistTo, { hosts, certs, seed }, { breakdownSeconds });
    }
  } finally {
    await local.dispose();
  }
  if (!values.snapshots) return;
  if (await snapshotsBuiltFor(persistTo, wanted)) {
    console.error(`snapshot tables already built for ${wanted}`);
    return;
  }
  const snapshotStarted = performance.now();
  const main = await openLocalD1(ORIGIN_DIR, persistTo);
  try {
    console.error(`building the snapshot tables of ${wanted} (SQL query and export jobs)`);
    await seedSnapshots(ORIGIN_DIR, persistTo, main.db, false);
  } finally {
    await main.dispose();
  }
  const snapshotSeconds = Math.round((performance.now() - snapshotStarted) / 1000);
  recordTiming(
    persistTo,
    { hosts, certs, seed },
    { snapshotSeconds, snapshotsFinishedAt: new Date().toISOString() },
  );
  console.error(`snapshot tables built in ${snapshotSeconds} s`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
