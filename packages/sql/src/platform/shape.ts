import type { ColumnRef, Expr, FromItem, Query, Select, TableRef, Unnest } from "../ast";
import { childrenOf } from "../ast-walk";
import type { FieldDef, SeriesSchema } from "../source";

/**
 * What the Platform planner reads of a query's syntax tree: the tables it names (however deep),
 * the one-table SELECT it can narrow, and how a column of that SELECT names a series field.
 */

/** Every table reference of `query`: FROM items, derived tables and subqueries included. */
export function tableRefs(query: Query): TableRef[] {
  const found: TableRef[] = [];
  const visitExpr = (expr: Expr): void => {
    if (expr.kind === "subquery" || expr.kind === "exists") visitQuery(expr.query);
    if (expr.kind === "in" && expr.query) visitQuery(expr.query);
    childrenOf(expr).forEach(visitExpr);
  };
  const visitFrom = (item: FromItem): void => {
    switch (item.kind) {
      case "table":
        found.push(item);
        return;
      case "derived":
        visitQuery(item.query);
        return;
      case "unnest":
        return;
      case "flatten":
        visitFrom(item.source);
        return;
      case "join":
        visitFrom(item.left);
        visitFrom(item.right);
        if (item.on) visitExpr(item.on);
        return;
    }
  };
  const visitQuery = (q: Query): void => {
    if (q.kind === "union") {
      q.queries.forEach(visitQuery);
      return;
    }
    if (q.from) visitFrom(q.from);
    for (const item of q.items) if (item.kind === "expr") visitExpr(item.expr);
    for (const expr of [q.where, q.having, ...q.groupBy, ...q.orderBy.map((o) => o.expr)])
      if (expr) visitExpr(expr);
  };
  visitQuery(query);
  return found;
}

/**
 * A SELECT over one table, optionally with `UNNEST` of one of its records after a comma or
 * CROSS/INNER JOIN (standard SQL's `FROM ipv4, UNNEST(services) AS s`).
 */
export interface OneTableSelect {
  select: Select;
  table: TableRef;
  unnest: Unnest | null;
}

export function oneTableSelect(query: Query): OneTableSelect | null {
  if (query.kind !== "select" || !query.from) return null;
  const from = query.from;
  if (from.kind === "table") return { select: query, table: from, unnest: null };
  if (
    from.kind === "join" &&
    (from.type === "COMMA" || from.type === "CROSS" || from.type === "INNER") &&
    from.on === null &&
    from.using === null &&
    from.left.kind === "table" &&
    from.right.kind === "unnest"
  )
    return { select: query, table: from.left, unnest: from.right };
  return null;
}

/**
 * The series field a column of a one-table SELECT names: its path, after the table's alias or
 * name if written; after an UNNEST alias, the field of the unnested record.
 */
export function fieldResolver(
  shape: OneTableSelect,
  schema: SeriesSchema,
): (ref: ColumnRef) => FieldDef | null {
  const byName = new Map(schema.fields.map((f) => [f.name.toLowerCase(), f]));
  const qualifiers = new Set(
    [shape.table.alias, shape.table.name, shape.table.name.split(".")[0]]
      .filter((q): q is string => q !== null && q !== undefined)
      .map((q) => q.toLowerCase()),
  );
  const unnestAlias = shape.unnest?.alias?.toLowerCase() ?? null;
  const unnested = shape.unnest?.path.parts.join(".").toLowerCase() ?? null;
  return (ref) => {
    const parts = ref.parts.map((p) => p.toLowerCase());
    if (unnestAlias !== null && parts[0] === unnestAlias && parts.length > 1)
      return byName.get(`${unnested}.${parts.slice(1).join(".")}`) ?? null;
    const direct = byName.get(parts.join("."));
    if (direct) return direct;
    for (let take = parts.length - 1; take >= 1; take--) {
      if (qualifiers.has(parts.slice(0, take).join("."))) {
        const found = byName.get(parts.slice(take).join("."));
        if (found) return found;
      }
    }
    return null;
  };
}

/** The select item a GROUP BY or ORDER BY entry stands for: by ordinal or alias, else itself. */
export function selectedExpr(select: Select, expr: Expr): Expr {
  if (expr.kind === "literal" && typeof expr.value === "number") {
    const item = select.items[expr.value - 1];
    return item?.kind === "expr" ? item.expr : expr;
  }
  if (expr.kind === "column" && expr.parts.length === 1) {
    const alias = (expr.parts[0] as string).toLowerCase();
    const item = select.items.find((i) => i.kind === "expr" && i.alias?.toLowerCase() === alias);
    if (item?.kind === "expr") return item.expr;
  }
  return expr;
}

/** `COUNT(*)`, `COUNT(x)` (not DISTINCT): what it counts, or null for anything else. */
export function countOf(expr: Expr): { star: true } | { star: false; arg: ColumnRef } | null {
  if (expr.kind !== "call" || expr.name !== "COUNT" || expr.distinct || expr.over) return null;
  if (expr.star) return { star: true };
  const [arg] = expr.args;
  return expr.args.length === 1 && arg?.kind === "column" ? { star: false, arg } : null;
}
