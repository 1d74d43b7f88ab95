import {
  compileAggregate,
  type AggregateOptions,
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
  options: Pick<AggregateOptions, "countBy" | "scopeFilter"> = {},
): Promise<AggregateSummary> {
  const compiled = compileAggregate(registry, field, where, { buckets, ...options });
  if (!compiled.ok) throw invalidQuery(compiled.error, dialect);
  const { buckets: bucketSql, totals: totalsSql, documents: documentsSql } = compiled.value;
  const [bucketResult, totalsResult, documentsResult] = await db.batch([
    db.prepare(bucketSql.sql).bind(...bucketSql.params),
    db.prepare(totalsSql.sql).bind(...totalsSql.params),
    ...(documentsSql ? [db.prepare(documentsSql.sql).bind(...documentsSql.params)] : []),
  ]);
  const row = totalsResult?.results[0] as Partial<TotalsRow> | undefined;
  // A scoped field counted by host or over filtered services counts its documents apart.
  const documents = documentsResult?.results[0] as { documents: number } | undefined;
  const totals: TotalsRow = {
    documents: documents?.documents ?? row?.documents ?? 0,
    nonnull_documents: row?.nonnull_documents ?? 0,
    value_count: row?.value_count ?? 0,
  };
  return summarizeAggregate((bucketResult?.results ?? []) as BucketRow[], totals);
}
