import { sqlIdentifier } from "./compile-context";
import { findField, unknownFieldMessage } from "./field-lookup";
import { QueryError, catchQueryError, quoteToken, type QueryResult } from "./query-error";
import { ownEntry, type FieldDef, type FieldType, type IndexRegistry } from "./registry";
import type { SqlFragment } from "./sql-expr";

/**
 * Statements for a breakdown of one field over the documents a compiled query matches
 * (v1 report, v2 aggregate). Run both with the same bindings style as any D1 statement:
 *
 * - `buckets` returns rows `(key TEXT, count INTEGER)`, most frequent first, ties by value,
 *   at most `options.buckets` rows. Keys are strings: ip fields as dotted quads, timestamps as
 *   RFC 3339 UTC, booleans as "true"/"false".
 * - `totals` returns one row `(documents, nonnull_documents, value_count)`: matching documents,
 *   those with a value for the field, and the number of values counted over all buckets (so
 *   `value_count - sum(bucket counts)` is what the omitted buckets hold). `summarizeAggregate`
 *   does that arithmetic.
 *
 * Counts are of documents for root and side fields (a document counts once per distinct
 * value) and of scope rows for scoped fields: aggregating `services.port` counts services of
 * matching hosts, not hosts.
 */
export interface AggregateStatements {
  field: string;
  type: FieldType;
  buckets: SqlFragment;
  totals: SqlFragment;
  /**
   * When present, the totals row has no `documents` column: this statement's one row
   * `(documents)` gives it (so neither statement binds the query's values twice).
   */
  documents?: SqlFragment;
}

export interface AggregateOptions {
  /** How many buckets to return (a positive integer; callers validate client input first). */
  buckets: number;
  /** The root alias `where` was compiled with (default `r`). */
  rootAlias?: string;
  /**
   * For a field of a nested scope (`services.port`): what a bucket counts. `scope` (the
   * default) counts the scope rows holding the value (services); `document` counts the
   * documents (hosts) holding it in at least one of those rows, once each. Root fields always
   * count documents.
   */
  countBy?: "document" | "scope";
  /**
   * For a field of a nested scope: only the scope rows this condition holds for are counted
   * (and their documents). It is the query compiled with `scopeRow: { scope, alias:
   * AGGREGATE_SCOPE_ALIAS }`, so it may also test the root row (alias `r`).
   */
  scopeFilter?: SqlFragment;
}

/** The alias of the counted scope row that `AggregateOptions.scopeFilter` is compiled against. */
export const AGGREGATE_SCOPE_ALIAS = "m";

/** The nested scope (`services`) a field's values live in, or null for a root field. */
export function fieldScope(registry: IndexRegistry, field: string): string | null {
  const found = findField(registry, field);
  if (!found) return null;
  const { storage } = found.def;
  if (storage.kind === "scoped") return storage.scope;
  if (storage.kind === "leaf") return storage.scope ?? null;
  return null;
}

export interface BucketRow {
  key: string;
  count: number;
}

export interface TotalsRow {
  documents: number;
  nonnull_documents: number;
  value_count: number;
}

export interface AggregateSummary {
  buckets: BucketRow[];
  /** Documents the query matched. */
  documents: number;
  /** Matching documents with at least one value for the field (v1 `nonnull_count`). */
  nonnullDocuments: number;
  /** All values counted, in the returned buckets or not (v2 `total`). */
  total: number;
  /** Counted values in buckets that were not returned (v2 `total_omitted`, v1 `other_result_count`). */
  totalOmitted: number;
}

/** Alias of the table holding the field in the bucket statements (the query uses r, v, s). */
const VALUES_ALIAS = "a";

/** SQL turning the stored value into its string key. */
function keyExpression(type: FieldType, column: string): string {
  switch (type) {
    case "boolean":
      return `CASE WHEN ${column} THEN 'true' ELSE 'false' END`;
    case "ip":
      return [24, 16, 8, 0].map((shift) => `((${column} >> ${shift}) & 255)`).join(" || '.' || ");
    case "timestamp":
      return `strftime('%Y-%m-%dT%H:%M:%fZ', ${column} / 1000.0, 'unixepoch')`;
    default:
      return `CAST(${column} AS TEXT)`;
  }
}

export function compileAggregate(
  registry: IndexRegistry,
  field: string,
  where: SqlFragment,
  options: AggregateOptions,
): QueryResult<AggregateStatements> {
  if (!Number.isSafeInteger(options.buckets) || options.buckets < 1) {
    throw new RangeError(`buckets must be a positive integer, not ${options.buckets}`);
  }
  return catchQueryError(() => {
    const found = findField(registry, field);
    if (!found) {
      throw new QueryError(unknownFieldMessage(registry, field), 0, field);
    }
    const { def } = found;
    const r = sqlIdentifier(options.rootAlias ?? "r");
    const rootTable = `${sqlIdentifier(registry.root.table)} ${r}`;
    const rootKey = sqlIdentifier(registry.root.key);
    // A query that matches every document needs no filter: the side tables hold values of
    // existing documents only, so they are grouped and counted directly, each in one pass.
    const everyDocument = where.sql.trim() === "1" && where.params.length === 0;
    const matching = `SELECT ${r}.${rootKey} FROM ${rootTable} WHERE ${where.sql}`;
    const a = VALUES_ALIAS;
    const bucketsFrom = (table: string, key: string, column: string, count: string): string =>
      `SELECT ${keyExpression(def.type, `${a}.${column}`)} AS "key", ${count} AS "count" ` +
      `FROM ${table} ${a} WHERE ${everyDocument ? "" : `${a}.${key} IN (${matching}) AND `}${a}.${column} IS NOT NULL ` +
      `GROUP BY ${a}.${column} ORDER BY "count" DESC, ${a}.${column} LIMIT ?`;
    // Per matching document, how many values it contributes (correlated on the indexed key).
    const totalsFrom = (perDocument: string): string =>
      `SELECT count(*) AS documents, coalesce(sum(n > 0), 0) AS nonnull_documents, coalesce(sum(n), 0) AS value_count ` +
      `FROM (SELECT (${perDocument}) AS n FROM ${rootTable} WHERE ${where.sql})`;

    const storage = def.storage;
    if (storage.kind === "hashed") {
      throw new QueryError(
        `${quoteToken(field)} holds whole documents (bodies) and cannot be aggregated; aggregate ${quoteToken(storage.field)} instead`,
        0,
        field,
      );
    }
    if (storage.kind === "absent") {
      // A field the schema has and no document holds: no buckets, every matching document without it.
      return {
        field: found.name,
        type: def.type,
        buckets: { sql: `SELECT NULL AS "key", 0 AS "count" WHERE 0 LIMIT ?`, params: [options.buckets] },
        totals: {
          sql: `SELECT count(*) AS documents, 0 AS nonnull_documents, 0 AS value_count FROM ${rootTable} WHERE ${where.sql}`,
          params: [...where.params],
        },
      };
    }
    const scopeName = fieldScope(registry, found.name);
    if (scopeName !== null && (options.countBy === "document" || options.scopeFilter !== undefined)) {
      if ((options.rootAlias ?? "r") !== "r")
        throw new RangeError("counting a scoped field by document or a filtered scope needs root alias r");
      return nestedAggregate(registry, found.name, def, scopeName, where, options);
    }
    if (storage.kind === "leaf") {
      const tables = registry.leaves;
      if (!tables)
        throw new Error(`registry ${registry.name}: field ${field} is a leaf but there are no leaf tables`);
      // Rows are distinct per (value, document, scope row): counting rows counts documents for
      // root leaves and scope rows (services) for scoped ones, as the other storages do.
      const values = `${sqlIdentifier(tables.values)} ${a}`;
      const ofMatching = everyDocument
        ? ""
        : ` AND ${a}.doc IN (SELECT ${r}.rowid FROM ${rootTable} WHERE ${where.sql})`;
      const matchingParams = everyDocument ? [] : where.params;
      return {
        field: found.name,
        type: def.type,
        buckets: {
          sql:
            `SELECT ${keyExpression(def.type, `${a}.value`)} AS "key", count(*) AS "count" FROM ${values} ` +
            `WHERE ${a}.field = ?${ofMatching} GROUP BY ${a}.value ORDER BY "count" DESC, ${a}.value LIMIT ?`,
          params: [storage.id, ...matchingParams, options.buckets],
        },
        totals: {
          sql:
            `SELECT (SELECT count(*) FROM ${rootTable} WHERE ${where.sql}) AS documents, ` +
            `count(DISTINCT ${a}.doc) AS nonnull_documents, count(*) AS value_count FROM ${values} ` +
            `WHERE ${a}.field = ?${ofMatching}`,
          params: [...where.params, storage.id, ...matchingParams],
        },
      };
    }
    let buckets: string;
    let totals: string;
    switch (storage.kind) {
      case "column": {
        const column = `${r}.${sqlIdentifier(storage.column)}`;
        buckets =
          `SELECT ${keyExpression(def.type, column)} AS "key", count(*) AS "count" FROM ${rootTable} ` +
          `WHERE (${where.sql}) AND ${column} IS NOT NULL GROUP BY ${column} ORDER BY "count" DESC, ${column} LIMIT ?`;
        totals =
          `SELECT count(*) AS documents, count(${column}) AS nonnull_documents, count(${column}) AS value_count ` +
          `FROM ${rootTable} WHERE ${where.sql}`;
        break;
      }
      case "side": {
        const table = sqlIdentifier(storage.table);
        const key = sqlIdentifier(storage.key);
        const column = sqlIdentifier(storage.column);
        buckets = bucketsFrom(table, key, column, `count(DISTINCT ${a}.${key})`);
        totals = everyDocument
          ? everyDocumentTotals(
              rootTable,
              `SELECT DISTINCT ${a}.${key}, ${a}.${column} FROM ${table} ${a}`,
              a,
              key,
              column,
            )
          : totalsFrom(
              `SELECT count(DISTINCT ${a}.${column}) FROM ${table} ${a} WHERE ${a}.${key} = ${r}.${rootKey}`,
            );
        break;
      }
      case "scoped": {
        const scope = registry.scopes[storage.scope];
        if (!scope)
          throw new Error(`registry ${registry.name}: field ${field} names unknown scope ${storage.scope}`);
        const table = sqlIdentifier(scope.table);
        const key = sqlIdentifier(scope.key);
        const column = sqlIdentifier(storage.column);
        buckets = bucketsFrom(table, key, column, "count(*)");
        totals = everyDocument
          ? everyDocumentTotals(
              rootTable,
              `SELECT ${a}.${key}, ${a}.${column} FROM ${table} ${a}`,
              a,
              key,
              column,
            )
          : totalsFrom(`SELECT count(${a}.${column}) FROM ${table} ${a} WHERE ${a}.${key} = ${r}.${rootKey}`);
        break;
      }
    }
    return {
      field: found.name,
      type: def.type,
      buckets: { sql: buckets, params: [...where.params, options.buckets] },
      totals: { sql: totals, params: [...where.params] },
    };
  });
}

/**
 * A scoped field counted by document, or over the scope rows a filter keeps: three statements
 * (buckets, totals, documents), each binding the query's values once. The counted rows are
 * the scope rows (`m`) of matching documents (`r`) the filter holds for; a leaf of the scope is
 * read from the leaf values of those rows.
 */
function nestedAggregate(
  registry: IndexRegistry,
  field: string,
  def: FieldDef,
  scopeName: string,
  where: SqlFragment,
  options: AggregateOptions,
): AggregateStatements {
  const { type } = def;
  const scope = ownEntry(registry.scopes, scopeName);
  if (!scope) throw new Error(`registry ${registry.name}: field ${field} names unknown scope ${scopeName}`);
  const m = AGGREGATE_SCOPE_ALIAS;
  const a = VALUES_ALIAS;
  const rootTable = `${sqlIdentifier(registry.root.table)} r`;
  const rootKey = sqlIdentifier(registry.root.key);
  const scopeKey = sqlIdentifier(scope.key);
  const everyDocument = where.sql.trim() === "1" && where.params.length === 0;
  const filter = options.scopeFilter;
  const conditions = [...(everyDocument ? [] : [where]), ...(filter ? [filter] : [])];
  const conditionSql = conditions.map((c) => `(${c.sql})`).join(" AND ");
  const conditionParams = conditions.flatMap((c) => c.params);
  const scopeRows =
    `${sqlIdentifier(scope.table)} ${m}` +
    (conditions.length > 0 ? ` JOIN ${rootTable} ON r.${rootKey} = ${m}.${scopeKey}` : "");
  const byDocument = options.countBy === "document";

  // The counted rows as (document, value) pairs, with the bindings that select them.
  let from: string;
  let doc: string;
  let value: string;
  let params: SqlFragment["params"];
  if (def.storage.kind === "leaf") {
    const tables = registry.leaves;
    if (!tables)
      throw new Error(`registry ${registry.name}: field ${field} is a leaf but there are no leaf tables`);
    doc = `${a}.doc`;
    value = `${a}.value`;
    const rows =
      conditions.length === 0
        ? ""
        : ` AND ${a}.scope IN (SELECT ${m}.rowid FROM ${scopeRows} WHERE ${conditionSql})`;
    from = `${sqlIdentifier(tables.values)} ${a} WHERE ${a}.field = ?${rows}`;
    params = [def.storage.id, ...conditionParams];
  } else if (def.storage.kind === "scoped") {
    doc = `${m}.${scopeKey}`;
    value = `${m}.${sqlIdentifier(def.storage.column)}`;
    from = `${scopeRows} WHERE ${conditions.length === 0 ? "" : `${conditionSql} AND `}${value} IS NOT NULL`;
    params = conditionParams;
  } else {
    throw new Error(`registry ${registry.name}: field ${field} is not stored in scope ${scopeName}`);
  }
  const count = byDocument ? `count(DISTINCT ${doc})` : "count(*)";
  return {
    field,
    type,
    buckets: {
      sql:
        `SELECT ${keyExpression(type, value)} AS "key", ${count} AS "count" FROM ${from} ` +
        `GROUP BY ${value} ORDER BY "count" DESC, ${value} LIMIT ?`,
      params: [...params, options.buckets],
    },
    totals: {
      sql:
        `SELECT count(DISTINCT d) AS nonnull_documents, count(*) AS value_count ` +
        `FROM (SELECT ${byDocument ? "DISTINCT " : ""}${doc} AS d, ${value} AS v FROM ${from})`,
      params,
    },
    documents: {
      sql: `SELECT count(*) AS documents FROM ${rootTable}${everyDocument ? "" : ` WHERE ${where.sql}`}`,
      params: everyDocument ? [] : where.params,
    },
  };
}

/**
 * Totals over every document from the side table in one pass: `values` lists the (key, value)
 * pairs counted (DISTINCT ones for fields counted once per document), so the documents with a
 * value and the values themselves are counted without a subquery per document.
 */
function everyDocumentTotals(
  rootTable: string,
  values: string,
  a: string,
  key: string,
  column: string,
): string {
  return (
    `SELECT (SELECT count(*) FROM ${rootTable}) AS documents, ` +
    `count(DISTINCT CASE WHEN ${column} IS NOT NULL THEN ${key} END) AS nonnull_documents, ` +
    `count(${column}) AS value_count FROM (${values}) ${a}`
  );
}

/** Combine the rows of the two aggregate statements into the numbers the endpoints report. */
export function summarizeAggregate(buckets: BucketRow[], totals: TotalsRow): AggregateSummary {
  const listed = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
  return {
    buckets: buckets.map((bucket) => ({ key: String(bucket.key), count: Number(bucket.count) })),
    documents: Number(totals.documents),
    nonnullDocuments: Number(totals.nonnull_documents),
    total: Number(totals.value_count),
    totalOmitted: Math.max(0, Number(totals.value_count) - listed),
  };
}
