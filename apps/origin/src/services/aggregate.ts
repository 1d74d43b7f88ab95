import {
  compileAggregate,
  summarizeAggregate,
  type AggregateSummary,
  type BucketRow,
  type IndexRegistry,
  type TotalsRow,
} from "@scangate/search";
import { invalidQuery, type CompiledWhere, type Dialect } from "./search-engine";

/**
 * Breakdown of one field over the documents matching a query (v1 report, v2 aggregate): the
 * search package writes the two statements, this runs them in one D1 round trip. Counts are
 * exact, so error bounds are 0. An unknown field is refused like a bad query.
 */
export async function aggregateField(
  db: D1Database,
  registry: IndexRegistry,
  field: string,
  where: CompiledWhere,
  buckets: number,
  dialect: Dialect,
): Promise<AggregateSummary> {
  const compiled = compileAggregate(registry, field, where, { buckets });
  if (!compiled.ok) throw invalidQuery(compiled.error, dialect);
  const { buckets: bucketSql, totals: totalsSql } = compiled.value;
  const [bucketResult, totalsResult] = await db.batch([
    db.prepare(bucketSql.sql).bind(...bucketSql.params),
    db.prepare(totalsSql.sql).bind(...totalsSql.params),
  ]);
  const totals = (totalsResult?.results[0] as TotalsRow | undefined) ?? {
    documents: 0,
    nonnull_documents: 0,
    value_count: 0,
  };
  return summarizeAggregate((bucketResult?.results ?? []) as BucketRow[], totals);
}
