/**
 * GROUP BY and aggregates. An aggregated SELECT evaluates its select list, HAVING and ORDER BY
 * over group records (the grouping values, then the aggregate results); an expression there is
 * either one of the GROUP BY expressions (matched by meaning, so `a.ip` matches `ip`), an
 * aggregate call, or built from those. Anything else is BigQuery's "neither grouped nor
 * aggregated".
 */
import { AGGREGATE_FUNCTIONS, ALWAYS_DISTINCT } from "./aggregates";
import type { Call, ColumnRef, Expr, Query } from "./ast";
import { SqlFailure } from "./errors";
import type { ExpressionCompiler } from "./expressions";
import type { AggregateCall, Compiled, GroupingNode } from "./plan-nodes";
import type { Scope } from "./scope";
import { typeName, type TypeInfo } from "./values";

/** A text equal for two expressions that mean the same (names resolved, spans ignored). */
export function canonicalKey(scope: Scope, expr: Expr): string {
  return JSON.stringify(expr, (key, value: unknown) => {
    if (key === "span") return undefined;
    if (key === "query") return `query@${(value as Query).span.start}`;
    if (value && typeof value === "object" && (value as Expr).kind === "column") {
      const ref = value as ColumnRef;
      try {
        return scope.resolve(ref, "value").id;
      } catch (error) {
        if (error instanceof SqlFailure) return `?${ref.parts.join(".").toLowerCase()}`;
        throw error;
      }
    }
    return value;
  });
}

export interface SelectItemLike {
  expr: Expr;
}

export interface GroupingPlan {
  grouping: Omit<GroupingNode, "having">;
  /** A compiler over group records; `aliases` lets a select-list alias stand for its expression. */
  compilerFor(clause: string, aliases: boolean): ExpressionCompiler;
}

/**
 * Plans the grouping of a SELECT: `groupBy` already has ordinals and aliases replaced by the
 * select items they name. `rowCompiler` compiles over frames.
 */
export function planGrouping(
  scope: Scope,
  rowCompiler: ExpressionCompiler,
  groupBy: readonly Expr[],
  items: readonly SelectItemLike[],
  aliases: ReadonlyMap<string, number>,
): GroupingPlan {
  const keyCompiler = rowCompiler.with({ clause: "GROUP BY" });
  // An array value (a nested REPEATED field, SPLIT) groups by the whole array, as one value.
  const keys = groupBy.map((expr) => keyCompiler.compile(expr));
  const keyIds = groupBy.map((expr) => canonicalKey(scope, expr));
  const aggregates: AggregateCall[] = [];
  const aggregateIds: string[] = [];
  const aggregateTypes: TypeInfo[] = [];
  const expanding = new Set<number>();

  const aggregate = (call: Call, compiler: ExpressionCompiler): Compiled => {
    if (call.over) throw new SqlFailure("Analytic functions (OVER) are not supported", call.span.start);
    const fn = AGGREGATE_FUNCTIONS.get(call.name);
    if (!fn) throw new SqlFailure(`Function not found: ${call.name}`, call.span.start);
    const id = canonicalKey(scope, call);
    let index = aggregateIds.indexOf(id);
    if (index < 0) {
      const argCompiler = compiler.with({
        intercept: undefined,
        clause: "aggregate argument",
        mode: "value",
      });
      const args = call.args.map((arg) => argCompiler.compile(arg));
      const distinct = call.distinct || ALWAYS_DISTINCT.has(call.name);
      const arity = call.star
        ? fn.star && args.length === 0
        : args.length >= Math.max(1, fn.minArgs) && args.length <= fn.maxArgs;
      const type = arity ? fn.signature(args, distinct) : null;
      if (!type) {
        const types = args.length ? ` for argument types: ${args.map(typeName).join(", ")}` : "";
        throw new SqlFailure(
          `No matching signature for aggregate function ${call.name}${types}`,
          call.span.start,
        );
      }
      aggregates.push({ fn, args: args.map((a) => a.evaluate), argTypes: args, distinct });
      aggregateIds.push(id);
      aggregateTypes.push(type);
      index = aggregates.length - 1;
    }
    const slot = keys.length + index;
    return { ...(aggregateTypes[index] as TypeInfo), evaluate: (row) => row[slot] ?? null };
  };

  const compilerFor = (clause: string, allowAliases: boolean): ExpressionCompiler =>
    rowCompiler.with({
      clause,
      intercept: (expr, compiler) => {
        if (allowAliases && expr.kind === "column" && expr.parts.length === 1) {
          const index = aliases.get((expr.parts[0] as string).toLowerCase());
          if (index !== undefined && !expanding.has(index)) {
            expanding.add(index);
            try {
              return compiler.compile((items[index] as SelectItemLike).expr);
            } finally {
              expanding.delete(index);
            }
          }
        }
        const key = keyIds.indexOf(canonicalKey(scope, expr));
        if (key >= 0) {
          const compiled = keys[key] as Compiled;
          return { type: compiled.type, array: compiled.array, evaluate: (row) => row[key] ?? null };
        }
        if (expr.kind === "call" && AGGREGATE_FUNCTIONS.has(expr.name)) return aggregate(expr, compiler);
        if (expr.kind === "column") {
          throw new SqlFailure(
            `${clause} expression references column ${expr.parts.join(".")} which is neither grouped nor aggregated`,
            expr.span.start,
          );
        }
        return null;
      },
    });

  return { grouping: { keys: keys.map((k) => k.evaluate), aggregates }, compilerFor };
}
