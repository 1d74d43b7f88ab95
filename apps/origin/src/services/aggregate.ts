import { AGGREGATE_BUCKETS_MAX } from "@scangate/core";
import {
  compileAggregate,
  type AggregateOptions,
  type AggregateStatements,
  summarizeAggregate,
  type AggregateSummary,
  type BucketRow,
  type IndexRegistry,
  type TotalsRow,
} from "@scangate/search";
import type { SqlDatabase, SqlStatement } from "../db/sql-database";
import { invalidQuery, type CompiledWhere, type Dialect } from "./search-engine";

type Options = Pick<AggregateOptions, "countBy" | "scopeFilter">;

interface Counted {
  rows: BucketRow[];
  totals: TotalsRow;
}

/**
 * Breakdown of one field over the documents matching a query (v1 report, v2 aggregate, v3
 * aggregate): the search package writes the statements, this runs them in one D1 round trip.
 * Counts are exact, so error bounds are 0. An unknown field is refused like a bad query.
 *
 * A breakdown over every document (no query, no filtered scope) is the same until the dataset
 * is reseeded, and it is the costly one (it counts every value of the field: seconds at a
 * million hosts). It is counted once per dataset, for the most buckets any API takes, and kept
 * in `aggregate_memo`; a request takes its top `buckets` rows, which is what its own LIMIT would
 * give (the rows are ordered by count, then value). The seed counts every field's after a load
 * (`countEveryBreakdown`); a request counts one only where that did not run.
 */
export async function aggregateField(
  db: SqlDatabase,
  registry: IndexRegistry,
  field: string,
  where: CompiledWhere,
  buckets: number,
  dialect: Dialect,
  options: Options = {},
): Promise<AggregateSummary> {
  const everyDocument = where.sql.trim() === "1" && where.params.length === 0;
  const memoized = everyDocument && options.scopeFilter === undefined && buckets <= AGGREGATE_BUCKETS_MAX;
  const compiled = compileAggregate(registry, field, where, {
    buckets: memoized ? AGGREGATE_BUCKETS_MAX : buckets,
    ...options,
  });
  if (!compiled.ok) throw invalidQuery(compiled.error, dialect);
  const { rows, totals } = memoized
    ? await memoizedCount(db, registry.name, memoKey(compiled.value.field, options), compiled.value)
    : await count(db, compiled.value);
  return summarizeAggregate(rows.slice(0, buckets), totals);
}

function memoKey(field: string, options: Options): string {
  return options.countBy === undefined ? field : `${field} by ${options.countBy}`;
}

/** The statements of one count, in the order `countedFrom` reads their results. */
function countStatements(db: SqlDatabase, statements: AggregateStatements): SqlStatement[] {
  const { buckets, totals, documents } = statements;
  return [
    db.prepare(buckets.sql).bind(...buckets.params),
    db.prepare(totals.sql).bind(...totals.params),
    ...(documents ? [db.prepare(documents.sql).bind(...documents.params)] : []),
  ];
}

function countedFrom(results: ReadonlyArray<{ results: unknown[] }>): Counted {
  const [bucketResult, totalsResult, documentsResult] = results;
  const row = totalsResult?.results[0] as Partial<TotalsRow> | undefined;
  // A scoped field counted by host or over filtered services counts its documents apart.
  const counted = documentsResult?.results[0] as { documents: number } | undefined;
  return {
    rows: (bucketResult?.results ?? []) as BucketRow[],
    totals: {
      documents: counted?.documents ?? row?.documents ?? 0,
      nonnull_documents: row?.nonnull_documents ?? 0,
      value_count: row?.value_count ?? 0,
    },
  };
}

async function count(db: SqlDatabase, statements: AggregateStatements): Promise<Counted> {
  return countedFrom(await db.batch(countStatements(db, statements)));
}

const DATASET = "(SELECT value FROM dataset_meta WHERE key = 'dataset')";

/** Keeps a count under the dataset it was counted from; a reseed's fingerprint no row matches. */
function keepStatement(db: SqlDatabase, registry: string, field: string, counted: Counted): SqlStatement {
  return db
    .prepare(
      `INSERT OR REPLACE INTO aggregate_memo (dataset, registry, field, buckets, totals) SELECT value, ?, ?, ?, ? FROM dataset_meta WHERE key = 'dataset'`,
    )
    .bind(registry, field, JSON.stringify(counted.rows), JSON.stringify(counted.totals));
}

async function memoizedCount(
  db: SqlDatabase,
  registry: string,
  field: string,
  statements: AggregateStatements,
): Promise<Counted> {
  const stored = await db
    .prepare(
      `SELECT buckets, totals FROM aggregate_memo WHERE registry = ? AND field = ? AND dataset = ${DATASET}`,
    )
    .bind(registry, field)
    .first<{ buckets: string; totals: string }>();
  if (stored)
    return {
      rows: JSON.parse(stored.buckets) as BucketRow[],
      totals: JSON.parse(stored.totals) as TotalsRow,
    };
  // Concurrent first requests each count (once per dataset): a waiter sharing another request's
  // count would hang with it if that request were cancelled.
  const counted = await count(db, statements);
  await keepStatement(db, registry, field, counted).run();
  return counted;
}

/** The breakdown of every document: a query that matches everything. */
const EVERY_DOCUMENT: CompiledWhere = { sql: "1", params: [] };

/** Fields counted per D1 batch by `countEveryBreakdown`: few round trips, each still short. */
const FIELDS_PER_BATCH = 8;

/**
 * Counts and keeps the breakdown over every document of each field of `registry` that has none
 * kept for this dataset: what the first aggregate or report of that field with no query would
 * otherwise count while its client waits (28 s for `services.port` on a fresh 1,000,000-host
 * dataset). The seed runs it after a load, on Miniflare's D1 from Node, where each call is a
 * round trip: the counts of FIELDS_PER_BATCH fields go in one batch, their rows in the next. A
 * field whose breakdown does not compile is skipped. Returns the fields whose breakdown is kept.
 */
export async function countEveryBreakdown(db: SqlDatabase, registry: IndexRegistry): Promise<number> {
  const { results: keptRows } = await db
    .prepare(`SELECT field FROM aggregate_memo WHERE registry = ? AND dataset = ${DATASET}`)
    .bind(registry.name)
    .all<{ field: string }>();
  const kept = new Set(keptRows.map((row) => row.field));
  const toCount = new Map<string, AggregateStatements>();
  for (const name of Object.keys(registry.fields)) {
    const compiled = compileAggregate(registry, name, EVERY_DOCUMENT, { buckets: AGGREGATE_BUCKETS_MAX });
    if (!compiled.ok) continue;
    const field = memoKey(compiled.value.field, {});
    if (!kept.has(field)) toCount.set(field, compiled.value);
    kept.add(field);
  }
  const pending = [...toCount];
  for (let at = 0; at < pending.length; at += FIELDS_PER_BATCH) {
    const batch = pending.slice(at, at + FIELDS_PER_BATCH);
    const statements = batch.map(([, compiled]) => countStatements(db, compiled));
    const results = await db.batch(statements.flat());
    let offset = 0;
    const keep = batch.map(([field], i) => {
      const size = statements[i]?.length ?? 0;
      const counted = countedFrom(results.slice(offset, offset + size));
      offset += size;
      return keepStatement(db, registry.name, field, counted);
    });
    await db.batch(keep);
  }
  return kept.size;
}

const BREAKDOWNS_KEY = "breakdowns";

/** Whether every breakdown over every document was counted for the dataset the database holds. */
export async function breakdownsCounted(db: SqlDatabase): Promise<boolean> {
  const row = await db
    .prepare(`SELECT value FROM dataset_meta WHERE key = ? AND value = ${DATASET}`)
    .bind(BREAKDOWNS_KEY)
    .first<{ value: string }>();
  return row !== null;
}

/** Records that every breakdown of the held dataset is counted (a reseed clears `dataset_meta`). */
export async function markBreakdownsCounted(db: SqlDatabase): Promise<void> {
  await db
    .prepare(
      `INSERT OR REPLACE INTO dataset_meta (key, value) SELECT ?, value FROM dataset_meta WHERE key = 'dataset'`,
    )
    .bind(BREAKDOWNS_KEY)
    .run();
}
