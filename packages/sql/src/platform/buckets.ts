import type { Call, ColumnRef, Expr, OrderItem, Select } from "../ast";
import { AGGREGATE_FUNCTIONS } from "../aggregates";
import { childrenOf } from "../ast-walk";
import type { SqlResult } from "../errors";
import { planQuery, type Plan } from "../plan";
import type { FieldDef, ResolvedTable, SourceRow } from "../source";
import { countOf } from "./shape";

/**
 * A GROUP BY of one field with counts, answered from the Platform's aggregate: the buckets
 * become rows of a small table (the field's value, the rows in the group, the rows whose value
 * is not NULL), and the query is planned again over it with each `COUNT(...)` read as a `SUM`
 * of those counts. The engine then applies HAVING, ORDER BY, LIMIT and the column names exactly
 * as it would have over the series' rows.
 */

/** The bucket table's count columns: rows in the group, and rows whose grouped value is not NULL. */
export const ROWS_COLUMN = "__platform_rows";
export const VALUES_COLUMN = "__platform_values";

/** What a `COUNT(...)` of the query counts. */
export type CountKind = "rows" | "values";

/**
 * Rewrites `expr`, replacing the sub-expressions `replace` answers for (it answers undefined to
 * keep a node and descend into it). Subqueries are left alone (the planner refuses them here).
 */
function mapExpr(expr: Expr, replace: (e: Expr) => Expr | undefined): Expr {
  const replaced = replace(expr);
  if (replaced !== undefined) return replaced;
  const map = (e: Expr) => mapExpr(e, replace);
  switch (expr.kind) {
    case "unary":
    case "is_null":
    case "cast":
      return { ...expr, operand: map(expr.operand) };
    case "binary":
      return { ...expr, left: map(expr.left), right: map(expr.right) };
    case "in":
      return { ...expr, operand: map(expr.operand), list: expr.list?.map(map) ?? null };
    case "between":
      return { ...expr, operand: map(expr.operand), low: map(expr.low), high: map(expr.high) };
    case "like":
      return { ...expr, operand: map(expr.operand), pattern: map(expr.pattern) };
    case "call":
      return { ...expr, args: expr.args.map(map) };
    case "case":
      return {
        ...expr,
        operand: expr.operand ? map(expr.operand) : null,
        whens: expr.whens.map(({ when, then }) => ({ when: map(when), then: map(then) })),
        otherwise: expr.otherwise ? map(expr.otherwise) : null,
      };
    default:
      return expr;
  }
}

function sumOf(count: Call, column: string): Call {
  const ref: ColumnRef = { kind: "column", parts: [column], span: count.span };
  return { ...count, name: "SUM", args: [ref], star: false, distinct: false };
}

/** Whether `expr` calls an aggregate other than the counts the buckets answer. */
function otherAggregate(expr: Expr, isCount: (e: Expr) => boolean): boolean {
  if (expr.kind === "call" && AGGREGATE_FUNCTIONS.has(expr.name) && !isCount(expr)) return true;
  return childrenOf(expr).some((child) => otherAggregate(child, isCount));
}

/**
 * The query over the bucket table, or null when it reads more than the grouped field and
 * counts (`countKind` says what each `COUNT(x)` counts, or null for one the buckets cannot).
 */
export function bucketQuery(select: Select, countKind: (count: Call) => CountKind | null): Select | null {
  let refused = false;
  const rewrite = (expr: Expr): Expr =>
    mapExpr(expr, (e) => {
      if (e.kind !== "call" || !countOf(e)) return undefined;
      const kind = countKind(e);
      if (kind === null) {
        refused = true;
        return e;
      }
      return sumOf(e, kind === "rows" ? ROWS_COLUMN : VALUES_COLUMN);
    });
  const isCount = (e: Expr) => e.kind === "call" && countOf(e) !== null;
  const all = [
    ...select.items.flatMap((i) => (i.kind === "expr" ? [i.expr] : [])),
    ...(select.having ? [select.having] : []),
    ...select.orderBy.map((o) => o.expr),
  ];
  if (select.items.some((i) => i.kind === "all") || all.some((e) => otherAggregate(e, isCount))) return null;
  const rewritten: Select = {
    ...select,
    items: select.items.map((i) => (i.kind === "expr" ? { ...i, expr: rewrite(i.expr) } : i)),
    where: null,
    having: select.having ? rewrite(select.having) : null,
    orderBy: select.orderBy.map((o): OrderItem => ({ ...o, expr: rewrite(o.expr) })),
  };
  return refused ? null : rewritten;
}

/** The bucket table: the grouped field (a plain value) and the two counts. */
export function bucketTable(table: ResolvedTable, field: FieldDef): ResolvedTable {
  return {
    ...table,
    schema: {
      series: table.schema.series,
      records: [],
      fields: [
        { name: field.name, type: field.type, mode: "NULLABLE" },
        { name: ROWS_COLUMN, type: "INTEGER", mode: "NULLABLE" },
        { name: VALUES_COLUMN, type: "INTEGER", mode: "NULLABLE" },
      ],
    },
  };
}

/** Plans the bucket query; the table is the bucket table whatever name the query gives it. */
export function planBuckets(query: Select, text: string, table: ResolvedTable): SqlResult<Plan> {
  return planQuery(query, text, { resolve: () => table });
}

/** One bucket as a row of the bucket table. */
export function bucketRow(field: FieldDef, value: unknown, rows: number): SourceRow {
  return {
    [field.name]: value,
    [ROWS_COLUMN]: rows,
    [VALUES_COLUMN]: value === null ? 0 : rows,
  };
}
