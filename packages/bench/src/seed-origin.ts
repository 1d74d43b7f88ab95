// Seeds a bench state folder with the origin's dataset, run as a child process by dataset.ts:
//   tsx src/seed-origin.ts --hosts N --certs M --seed S --persist-to DIR [--check]
// (--check: exit 0 when DIR already holds that dataset, 3 when not, and seed nothing.)
// The origin's own generator (apps/origin/src/dataset) and loader (apps/origin/scripts/local-d1.ts),
// the way the origin's seed script uses them, minus its last step: the daily snapshot tables of
// SQL query jobs, which no bench scenario reads (and which the origin's seed cannot build at
// 100,000 hosts: reading host_history back in one query passes V8's string limit).
// Idempotent through `dataset_meta`, like the seed script. Progress goes to stderr.
import { writeFileSync } from "node:fs";
import path from "node:path";
import tls from "node:tls";
import { parseArgs } from "node:util";
import { datasetFingerprint, type DatasetOptions } from "../../../apps/origin/src/dataset/generate";
import { loadDataset, openLocalD1 } from "../../../apps/origin/scripts/local-d1";
import { SEED_TIMING_FILE, type SeedTiming } from "./dataset";
import { ORIGIN_DIR, WRANGLER_BIN } from "./paths";
import { run } from "./processes";

/** Statements per D1 batch (as the origin's seed script sends them). */
const BATCH = 40;

/** Exit code of --check when the folder does not hold the dataset. */
const NOT_SEEDED = 3;

/** The dataset a state folder holds (dataset_meta), or null. */
async function seededWith(persistTo: string): Promise<string | null> {
  const local = await openLocalD1(ORIGIN_DIR, persistTo);
  try {
    const row = await local.db
      .prepare("SELECT value FROM dataset_meta WHERE key = 'dataset'")
      .first<{ value: string }>();
    return row?.value ?? null;
  } catch {
    // No dataset_meta table: nothing was ever seeded here.
    return null;
  } finally {
    await local.dispose();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      hosts: { type: "string" },
      certs: { type: "string" },
      seed: { type: "string" },
      "persist-to": { type: "string" },
      check: { type: "boolean", default: false },
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
  const wanted = datasetFingerprint(options);
  if (values.check) {
    process.exitCode = (await seededWith(persistTo)) === wanted ? 0 : NOT_SEEDED;
    return;
  }
  await run(
    WRANGLER_BIN,
    ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo],
    ORIGIN_DIR,
  );
  if ((await seededWith(persistTo)) === wanted) {
    console.error(`origin dataset ${wanted} already seeded`);
    return;
  }
  const local = await openLocalD1(ORIGIN_DIR, persistTo);
  try {
    console.error(`seeding origin dataset ${wanted} into ${persistTo}`);
    const summary = await loadDataset(local.db, options, BATCH);
    const timing: SeedTiming = {
      hosts,
      certs,
      seed,
      seconds: Math.round(elapsed()),
      finishedAt: new Date().toISOString(),
    };
    writeFileSync(path.join(persistTo, SEED_TIMING_FILE), `${JSON.stringify(timing, null, 2)}\n`);
    console.error(
      `seeded ${summary.hosts} hosts, ${summary.certificates} certificates in ${timing.seconds} s`,
    );
  } finally {
    await local.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
