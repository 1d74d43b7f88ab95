/**
 * The planner: binds a parsed query to a catalog and checks it completely (names, types,
 * repeated fields, joins, bounds that can be known before running), so a query that plans
 * runs without surprises other than data-dependent ones (a bound exceeded, a bad cast).
 *
 * `prepareQuery` is the usual entry point: text in, a `Plan` (or the error, with its position)
 * out. `runPlan` (execute.ts) runs it.
 */
import type { OrderItem, Query, SetOperation } from "./ast";
import { SqlFailure, type SqlResult } from "./errors";
import type { Scope } from "./scope";
import type { SubqueryPlanner } from "./expressions";
import { parseQuery } from "./parser";
import type { OrderKey, QueryNode, SubqueryNode, UnionNode } from "./plan-nodes";
import { planSelect, type SelectPlanner } from "./select-plan";
import type { Catalog, FieldMode, FieldType, ResolvedTable } from "./source";
import { commonType } from "./values";

export interface ResultColumn {
  name: string;
  type: FieldType;
  mode: FieldMode;
  /**
   * The dotted path of the field a column is, when it is a field selected without an alias
   * (`location.country` for the column `location_country`), so an export that does not flatten
   * can nest it as BigQuery does.
   */
  path?: string;
}

export interface Plan {
  readonly columns: readonly ResultColumn[];
  /** Every table the query reads (derived tables and subqueries included), once each. */
  readonly tables: readonly ResolvedTable[];
  readonly root: QueryNode;
  /** Uncorrelated subqueries, inner ones first; `runPlan` answers them before the query. */
  readonly subqueries: readonly SubqueryNode[];
}

class Planner implements SelectPlanner, SubqueryPlanner {
  readonly tables: ResolvedTable[] = [];
  readonly subqueries: SubqueryNode[] = [];

  constructor(
    private readonly catalog: Catalog,
    readonly text: string,
  ) {}

  resolveTable(name: string, at: number): ResolvedTable {
    const table = this.catalog.resolve(name);
    if (!table) throw new SqlFailure(`Not found: Table ${name}`, at);
    if (!this.tables.some((t) => t.name === table.name)) this.tables.push(table);
    return table;
  }

  planDerived(query: Query): QueryNode {
    return this.plan(query, null);
  }

  planSubquery(query: Query, outer: Scope, use: "in" | "scalar" | "exists") {
    const node = this.plan(query, outer);
    this.subqueries.push({ query: node, use });
    return { index: this.subqueries.length - 1, columns: node.columns };
  }

  plan(query: Query, outer: Scope | null): QueryNode {
    return query.kind === "select" ? planSelect(this, query, outer) : this.planUnion(query, outer);
  }

  private planUnion(union: SetOperation, outer: Scope | null): UnionNode {
    const kind = union.distinct ? "UNION DISTINCT" : "UNION ALL";
    const queries = union.queries.map((query) => this.plan(query, outer));
    const first = queries[0] as QueryNode;
    const columns = first.columns.map((column) => ({ ...column }));
    queries.forEach((query, i) => {
      if (query.columns.length !== columns.length) {
        throw new SqlFailure(
          `Queries in ${kind} have mismatched column count; query 1 has ${columns.length} columns, query ${i + 1} has ${query.columns.length} columns`,
          union.span.start,
        );
      }
      query.columns.forEach((column, c) => {
        const target = columns[c] as ResultColumn;
        const type = commonType(target.type, column.type);
        if (
          !type ||
          type === "NULL" ||
          type === "ANY" ||
          (target.mode === "REPEATED") !== (column.mode === "REPEATED")
        ) {
          throw new SqlFailure(
            `Column ${c + 1} in ${kind} has incompatible types: ${target.type}, ${column.type}`,
            union.span.start,
          );
        }
        target.type = type;
      });
    });
    const order = union.orderBy.map((item: OrderItem): OrderKey => {
      const expr = item.expr;
      let index = -1;
      if (expr.kind === "literal" && typeof expr.value === "number") index = expr.value - 1;
      else if (expr.kind === "column" && expr.parts.length === 1) {
        index = columns.findIndex((c) => c.name.toLowerCase() === (expr.parts[0] as string).toLowerCase());
      }
      if (!columns[index])
        throw new SqlFailure(`ORDER BY of a ${kind} must name one of its columns`, expr.span.start);
      return {
        evaluate: (row) => row[index] ?? null,
        descending: item.descending,
        nullsFirst: item.nulls ? item.nulls === "FIRST" : !item.descending,
      };
    });
    return {
      kind: "union",
      distinct: union.distinct,
      queries,
      order,
      limit: union.limit,
      offset: union.offset ?? 0,
      columns,
    };
  }
}

/** Binds a parsed query to `catalog`; `text` is the query's text, for error positions. */
export function planQuery(query: Query, text: string, catalog: Catalog): SqlResult<Plan> {
  const planner = new Planner(catalog, text);
  try {
    const root = planner.plan(query, null);
    return {
      ok: true,
      value: { columns: root.columns, tables: planner.tables, root, subqueries: planner.subqueries },
    };
  } catch (error) {
    if (error instanceof SqlFailure) return { ok: false, error: error.toError(text) };
    throw error;
  }
}

/** Parses and plans `text`. */
export function prepareQuery(text: string, catalog: Catalog): SqlResult<Plan> {
  const parsed = parseQuery(text);
  return parsed.ok ? planQuery(parsed.value, text, catalog) : parsed;
}
