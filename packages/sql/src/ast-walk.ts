/**
 * Walking expression trees: their direct sub-expressions, and the column references of one
 * query level (a subquery's references are its own and are not visited).
 */
import type { ColumnRef, Expr } from "./ast";

/** The sub-expressions of `expr` at the same query level. */
export function childrenOf(expr: Expr): Expr[] {
  switch (expr.kind) {
    case "literal":
    case "column":
    case "star":
    case "subquery":
    case "exists":
      return [];
    case "unary":
      return [expr.operand];
    case "binary":
      return [expr.left, expr.right];
    case "is_null":
      return [expr.operand];
    case "in":
      return [expr.operand, ...(expr.list ?? [])];
    case "between":
      return [expr.operand, expr.low, expr.high];
    case "like":
      return [expr.operand, expr.pattern];
    case "call":
      return expr.args;
    case "case":
      return [
        ...(expr.operand ? [expr.operand] : []),
        ...expr.whens.flatMap(({ when, then }) => [when, then]),
        ...(expr.otherwise ? [expr.otherwise] : []),
      ];
    case "cast":
      return [expr.operand];
  }
}

/**
 * Every column reference in `expr`, with whether it is read as a whole array (the argument of
 * ARRAY_LENGTH) or as a value. `insideAggregate` says whether the reference is an argument of
 * an aggregate call (`aggregates` names them).
 */
export function forEachReference(
  expr: Expr,
  visit: (ref: ColumnRef, asArray: boolean, insideAggregate: boolean) => void,
  aggregates: ReadonlySet<string> | ReadonlyMap<string, unknown>,
  insideAggregate = false,
): void {
  if (expr.kind === "column") {
    visit(expr, false, insideAggregate);
    return;
  }
  if (expr.kind === "call") {
    const inside = insideAggregate || aggregates.has(expr.name);
    for (const arg of expr.args) {
      if (expr.name === "ARRAY_LENGTH" && arg.kind === "column") visit(arg, true, inside);
      else forEachReference(arg, visit, aggregates, inside);
    }
    return;
  }
  for (const child of childrenOf(expr)) forEachReference(child, visit, aggregates, insideAggregate);
}

/** Whether `expr` calls an aggregate at this query level. */
export function containsAggregate(expr: Expr, aggregates: ReadonlyMap<string, unknown>): boolean {
  if (expr.kind === "call" && aggregates.has(expr.name) && !expr.over) return true;
  return childrenOf(expr).some((child) => containsAggregate(child, aggregates));
}

/** The operands of a chain of one operator: `a AND b AND c` gives [a, b, c]. */
export function chainOf(expr: Expr, op: "AND" | "OR"): Expr[] {
  if (expr.kind === "binary" && expr.op === op)
    return [...chainOf(expr.left, op), ...chainOf(expr.right, op)];
  return [expr];
}

/** The chain back as a tree (spans from the first operand to the last). */
export function chainFrom(operands: readonly Expr[], op: "AND" | "OR"): Expr {
  let result = operands[0] as Expr;
  for (const operand of operands.slice(1)) {
    result = {
      kind: "binary",
      op,
      left: result,
      right: operand,
      span: { start: result.span.start, end: operand.span.end },
    };
  }
  return result;
}
