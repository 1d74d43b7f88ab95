// The snapshot step of the seed: builds the daily snapshot tables (`ipv4.YYYYMMDD`, ...) from
// the seeded main database into the local SNAPSHOTS D1, the database query and export jobs run
// on (src/snapshots/). Opened the way local-d1.ts opens DB: the same Miniflare persistence folder,
// keyed by the SNAPSHOTS binding's database id from wrangler.jsonc.
import path from "node:path";
import { Miniflare } from "miniflare";
import { historyDays, snapshotStatements } from "../src/snapshots/build";
import { executeStatements, readSnapshotSources } from "../src/snapshots/publish";
import { d1DatabaseId } from "./local-d1";

type D1Database = Awaited<ReturnType<Miniflare["getD1Database"]>>;

/** Passes statements through, saying on stderr which day's tables are being built. */
function* withProgress(statements: Iterable<string>, days: number): Generator<string> {
  let day = 0;
  for (const statement of statements) {
    // Each day starts with its ipv4 table.
    if (statement.startsWith('CREATE TABLE "ipv4.')) {
      day += 1;
      console.error(`  snapshot tables: day ${day}/${days}`);
    }
    yield statement;
  }
}

const SNAPSHOT_TABLE = /^(ipv4|certificates|websites)\.\d{8}$/;

/**
 * (Re)builds the snapshot tables from `mainDb`. Skipped when tables exist and `rebuild` is false
 * (the dataset was already seeded); with `rebuild`, tables of days the dataset no longer has are
 * dropped too, so SNAPSHOTS holds exactly the current dataset's days.
 */
export async function seedSnapshots(
  appDir: string,
  persistTo: string | undefined,
  mainDb: D1Database,
  rebuild: boolean,
): Promise<void> {
  const root = persistTo ?? path.join(appDir, ".wrangler", "state");
  const mf = new Miniflare({
    modules: true,
    script: "export default {}",
    d1Persist: path.join(root, "v3", "d1"),
    d1Databases: { SNAPSHOTS: d1DatabaseId(appDir, "SNAPSHOTS") },
  });
  try {
    const db = await mf.getD1Database("SNAPSHOTS");
    const { results } = await db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all<{ name: string }>();
    const existing = results.map((r) => r.name).filter((name) => SNAPSHOT_TABLE.test(name));
    if (existing.length > 0 && !rebuild) {
      console.error(`snapshot tables already built (${existing.length})`);
      return;
    }
    const started = Date.now();
    await executeStatements(
      db,
      existing.map((name) => `DROP TABLE "${name}"`),
    );
    console.error("building the daily snapshot tables (SQL query and export jobs)");
    const sources = await readSnapshotSources(mainDb);
    const days = historyDays(sources.hostHistory);
    const count = await executeStatements(db, withProgress(snapshotStatements(sources, days), days.length));
    const { results: built } = await db
      .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'")
      .all<{ n: number }>();
    console.error(
      `built ${built[0]?.n ?? 0} snapshot tables (${count} statements) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await mf.dispose();
  }
}
