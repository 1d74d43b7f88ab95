/**
 * A search page with its total. The total is an exact `count(*)` of every matching row, which
 * grows with the data (tens of ms for a common value at a million hosts) while the page itself
 * reads a page of rows. The dataset only changes by a reseed, and a reseed writes a new
 * fingerprint to `dataset_meta`; so a total, once counted, is kept in the isolate under that
 * fingerprint and the statement that counted it, and a later request for the same total reads
 * the fingerprint (a primary-key lookup, in the same round trip as its page) instead of counting.
 * A kept total under another fingerprint is counted again.
 */

/** A statement as the search compilers write it. */
export interface CountStatement {
  sql: string;
  params: readonly unknown[];
}

export interface CountedPage<Row> {
  total: number;
  rows: Row[];
}

interface Kept {
  dataset: string;
  total: number;
}

/** How many totals an isolate keeps (least recently used go first). */
export const KEPT_TOTALS = 512;
/** A statement longer than this (with its parameters) is counted every time, not kept. */
const KEY_MAX_CHARS = 4096;

const DATASET_SQL = "SELECT value AS dataset FROM dataset_meta WHERE key = 'dataset'";

/** Map order is insertion order: re-inserting on use keeps the least recently used first. */
const kept = new Map<string, Kept>();

function keyOf(count: CountStatement): string | null {
  const key = `${count.sql}\u0000${JSON.stringify(count.params)}`;
  return key.length > KEY_MAX_CHARS ? null : key;
}

function keep(key: string, value: Kept): void {
  kept.delete(key);
  kept.set(key, value);
  while (kept.size > KEPT_TOTALS) {
    const oldest = kept.keys().next();
    if (oldest.done) break;
    kept.delete(oldest.value);
  }
}

function firstNumber(result: D1Result | undefined): number {
  return (result?.results[0] as { n: number } | undefined)?.n ?? 0;
}

function datasetOf(result: D1Result | undefined): string | null {
  return (result?.results[0] as { dataset: string } | undefined)?.dataset ?? null;
}

/**
 * Runs `page` and learns the total of `count`: in one round trip, from the isolate's kept total
 * when the dataset is still the one it was counted on, else counting beside the page.
 */
export async function countedPage<Row>(
  db: D1Database,
  count: CountStatement,
  page: D1PreparedStatement,
): Promise<CountedPage<Row>> {
  const key = keyOf(count);
  const known = key === null ? undefined : kept.get(key);
  const counting = () => db.prepare(count.sql).bind(...count.params);
  if (known && key !== null) {
    const [datasetResult, pageResult] = await db.batch([db.prepare(DATASET_SQL), page]);
    const rows = (pageResult?.results ?? []) as Row[];
    if (datasetOf(datasetResult) === known.dataset) {
      keep(key, known);
      return { total: known.total, rows };
    }
    // Reseeded since: this total is stale.
    kept.delete(key);
    const [datasetNow, countResult] = await db.batch([db.prepare(DATASET_SQL), counting()]);
    const total = firstNumber(countResult);
    const dataset = datasetOf(datasetNow);
    if (dataset !== null) keep(key, { dataset, total });
    return { total, rows };
  }
  const [datasetResult, countResult, pageResult] = await db.batch([
    db.prepare(DATASET_SQL),
    counting(),
    page,
  ]);
  const total = firstNumber(countResult);
  const dataset = datasetOf(datasetResult);
  if (key !== null && dataset !== null) keep(key, { dataset, total });
  return { total, rows: (pageResult?.results ?? []) as Row[] };
}

/** Forgets every kept total (tests). */
export function forgetTotals(): void {
  kept.clear();
}
