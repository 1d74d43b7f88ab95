// The snapshot step of the seed: builds the snapshot tables query and export jobs read
// (`ipv4_rows`, `certificates_rows`, `websites_rows`, `snapshot_days`; src/snapshots/layout.ts)
// from the seeded main database into the local SNAPSHOTS D1. Opened the way local-d1.ts opens DB:
// the same Miniflare persistence folder, keyed by the SNAPSHOTS binding's database id from
// wrangler.jsonc.
import path from "node:path";
import { Miniflare } from "miniflare";
import { parseSnapshotTableName } from "../src/snapshots/definitions";
import { SNAPSHOT_LAYOUT } from "../src/snapshots/layout";
import { publishSnapshots, readDatasetFingerprint, readSnapshotState } from "../src/snapshots/publish";
import { d1DatabaseId } from "./local-d1";

type D1Database = Awaited<ReturnType<Miniflare["getD1Database"]>>;

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/**
 * (Re)builds the snapshot tables from `mainDb`. Skipped when SNAPSHOTS already holds this
 * layout built from this dataset and `rebuild` is false; otherwise everything in SNAPSHOTS is
 * dropped first, so the tables of an older layout (the per-day `ipv4.YYYYMMDD` tables) and of
 * older datasets go away on the next seed.
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
    const dataset = await readDatasetFingerprint(mainDb);
    const state = await readSnapshotState(db);
    if (!rebuild && state.layout === SNAPSHOT_LAYOUT && state.dataset === dataset) {
      console.error(`snapshot tables already built (${state.days.length} days, layout ${SNAPSHOT_LAYOUT})`);
      return;
    }
    if (state.objects.length > 0 && state.layout !== SNAPSHOT_LAYOUT) {
      const perDay = state.objects.some(([, name]) => parseSnapshotTableName(name) !== null);
      const found = state.layout ?? (perDay ? "per-day tables" : "an unfinished build");
      console.error(`snapshot tables are of another layout (${found}); rebuilding`);
    }
    const started = Date.now();
    console.error("building the snapshot tables (SQL query and export jobs)");
    const count = await publishSnapshots(mainDb, db, { onProgress: (line) => console.error(`  ${line}`) });
    const built = await readSnapshotState(db);
    const rows = await db
      .prepare(
        `SELECT (SELECT count(*) FROM ipv4_rows) AS ipv4, (SELECT count(*) FROM certificates_rows) AS certificates,
                (SELECT count(*) FROM websites_rows) AS websites`,
      )
      .first<{ ipv4: number; certificates: number; websites: number }>();
    console.error(
      `built the snapshot tables for ${built.days.length} days (${rows?.ipv4 ?? 0} host versions, ` +
        `${rows?.certificates ?? 0} certificates, ${rows?.websites ?? 0} websites; ${count} statements) in ${seconds(started)}`,
    );
  } finally {
    await mf.dispose();
  }
}
