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
 * give (the rows are ordered by count, then value).
 */
export async function aggregateField(
  db: D1Database,
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

async function count(db: D1Database, statements: AggregateStatements): Promise<Counted> {
  const { buckets, totals, documents } = statements;
  const [bucketResult, totalsResult, documentsResult] = await db.batch([
    db.prepare(buckets.sql).bind(...buckets.params),
    db.prepare(totals.sql).bind(...totals.params),
    ...(documents ? [db.prepare(documents.sql).bind(...documents.params)] : []),
  ]);
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

const DATASET = "(SELECT value FROM dataset_meta WHERE key = 'dataset')";

async function memoizedCount(
  db: D1Database,
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
  // Kept under the dataset it was counted from; a reseed's fingerprint no row matches.
  await db
    .prepare(
      `INSERT OR REPLACE INTO aggregate_memo (dataset, registry, field, buckets, totals) SELECT value, ?, ?, ?, ? FROM dataset_meta WHERE key = 'dataset'`,
    )
    .bind(registry, field, JSON.stringify(counted.rows), JSON.stringify(counted.totals))
    .run();
  return counted;
}
