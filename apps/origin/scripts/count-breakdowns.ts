// The breakdown step of the seed: counts, for every field of every index, the breakdown over
// every document that an aggregate or report with no query answers (src/services/aggregate.ts),
// and keeps it in `aggregate_memo`, so no request after a seed counts one. Run on the seeded
// main database, after the load; skipped when `dataset_meta` says it ran for this dataset.
import type { Miniflare } from "miniflare";
import { CATALOG_INDEXES } from "../src/dataset/field-catalog";
import { breakdownsCounted, countEveryBreakdown, markBreakdownsCounted } from "../src/services/aggregate";
import { fieldRegistry } from "../src/services/field-catalog";

type D1Database = Awaited<ReturnType<Miniflare["getD1Database"]>>;

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/**
 * Counts what is not yet kept (all of it after a load); `log` hears one line per index. False
 * when the step had already run for this dataset.
 */
export async function countBreakdowns(db: D1Database, log: (message: string) => void): Promise<boolean> {
  if (await breakdownsCounted(db)) {
    log("breakdowns over every document already counted");
    return false;
  }
  const started = performance.now();
  for (const index of CATALOG_INDEXES) {
    const indexStarted = performance.now();
    const fields = await countEveryBreakdown(db, await fieldRegistry(db, index));
    log(`breakdowns over every document: ${index}, ${fields} fields in ${seconds(indexStarted)}`);
  }
  await markBreakdownsCounted(db);
  log(`breakdowns over every document counted in ${seconds(started)}`);
  return true;
}
