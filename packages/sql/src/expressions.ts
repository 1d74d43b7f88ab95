/**
 * Expressions compiled to closures over a row, with their static types checked the way
 * BigQuery checks them (`No matching signature for operator = for argument types: STRING,
 * INT64`). NULL follows three-valued logic throughout.
 *
 * The compiler knows nothing of aggregation or repeated-field quantification: the planner
 * passes an `intercept` for the nodes it handles itself (grouped expressions, aggregate calls,
 * select-list aliases), and `repeated.ts` wraps conditions over repeated groups.
 */
import { AGGREGATE_FUNCTIONS } from "./aggregates";
import type { BinaryOperator, Call, Case, Cast, ColumnRef, Expr, In, Literal, Query } from "./ast";
import { SqlFailure } from "./errors";
import { SCALAR_FUNCTIONS } from "./functions";
import { compileLike } from "./patterns";
import type { Compiled, Env, Evaluate } from "./plan-nodes";
import type { ResultColumn } from "./plan";
import { textSteps } from "./run-budget";
import { checkStringLength, SqlRunError } from "./run-error";
import type { ResolveMode, Scope } from "./scope";
import {
  castFailure,
  castTarget,
  castValue,
  commonType,
  comparable,
  compareValues,
  isNumeric,
  parseTimestamp,
  typeName,
  valueKey,
  type TypeInfo,
  type ValueType,
} from "./values";

/** The answer of an `IN (SELECT ...)` subquery, as the executor stores it. */
export interface InSet {
  keys: Set<string>;
  hasNull: boolean;
}

/** How the compiler plans a subquery: the planner registers it and says where its answer will be. */
export interface SubqueryPlanner {
  planSubquery(
    query: Query,
    outer: Scope,
    use: "in" | "scalar" | "exists",
  ): { index: number; columns: readonly ResultColumn[] };
}

export interface CompileOptions {
  /** How column references read repeated data. */
  mode: ResolveMode;
  /** The clause, for messages: "WHERE clause", "SELECT list", ... */
  clause: string;
  /** FROM entries after this one are not visible (ON conditions). */
  visible?: number;
  /** Handles a node before the compiler does (null: compile it normally). */
  intercept?: (expr: Expr, compiler: ExpressionCompiler) => Compiled | null;
}

const scalar = (type: ValueType): TypeInfo => ({ type, array: false });
const isNull = (value: unknown): boolean => value === null || value === undefined;

function constant(value: unknown, type: ValueType): Compiled {
  return { type, array: false, evaluate: () => value };
}

function noSignature(operator: string, types: readonly TypeInfo[], at: number): SqlFailure {
  return new SqlFailure(
    `No matching signature for operator ${operator} for argument types: ${types.map(typeName).join(", ")}`,
    at,
  );
}

/** The environment of literals evaluated while planning (IN lists): their work is bounded by the text. */
const PLANNING_ENV: Env = { subqueries: [], now: 0, meter: { charge: () => undefined } };

/** Characters two values being compared may read: the shorter text, or nothing for other values. */
function compareSteps(x: unknown, y: unknown): number {
  return typeof x === "string" && typeof y === "string" ? Math.min(x.length, y.length) : 0;
}

export function and3(left: Evaluate, right: Evaluate): Evaluate {
  return (row, env) => {
    const a = left(row, env);
    if (a === false) return false;
    const b = right(row, env);
    if (b === false) return false;
    return a === true && b === true ? true : null;
  };
}

export function or3(left: Evaluate, right: Evaluate): Evaluate {
  return (row, env) => {
    const a = left(row, env);
    if (a === true) return true;
    const b = right(row, env);
    if (b === true) return true;
    return a === false && b === false ? false : null;
  };
}

export function not3(operand: Evaluate): Evaluate {
  return (row, env) => {
    const value = operand(row, env);
    return isNull(value) ? null : value !== true;
  };
}

const COMPARE: Partial<Record<BinaryOperator, (c: number) => boolean>> = {
  "=": (c) => c === 0,
  "!=": (c) => c !== 0,
  "<": (c) => c < 0,
  "<=": (c) => c <= 0,
  ">": (c) => c > 0,
  ">=": (c) => c >= 0,
};

export class ExpressionCompiler {
  constructor(
    private readonly planner: SubqueryPlanner,
    readonly scope: Scope,
    readonly text: string,
    readonly options: CompileOptions,
  ) {}

  /** The same compiler with other options (aggregate arguments, a different clause). */
  with(options: Partial<CompileOptions>): ExpressionCompiler {
    return new ExpressionCompiler(this.planner, this.scope, this.text, { ...this.options, ...options });
  }

  compile(expr: Expr): Compiled {
    const intercepted = this.options.intercept?.(expr, this);
    if (intercepted) return intercepted;
    switch (expr.kind) {
      case "literal":
        return this.literal(expr);
      case "column":
        return this.column(expr, this.options.mode);
      case "star":
        throw new SqlFailure("* is only allowed in the SELECT list and in COUNT(*)", expr.span.start);
      case "unary":
        return this.unary(expr.op, this.compile(expr.operand), expr.span.start);
      case "binary":
        return this.binary(expr.op, expr.left, expr.right, expr.span.start);
      case "is_null": {
        const operand = this.compile(expr.operand).evaluate;
        const negated = expr.negated;
        return {
          type: "BOOLEAN",
          array: false,
          evaluate: (row, env) => isNull(operand(row, env)) !== negated,
        };
      }
      case "in":
        return this.inExpression(expr);
      case "between": {
        const operand = this.compile(expr.operand);
        const low = this.comparison(">=", expr.operand, expr.low, expr.span.start, operand);
        const high = this.comparison("<=", expr.operand, expr.high, expr.span.start, operand);
        const both = and3(low, high);
        return { type: "BOOLEAN", array: false, evaluate: expr.negated ? not3(both) : both };
      }
      case "like":
        return this.like(expr.operand, expr.pattern, expr.negated, expr.span.start);
      case "call":
        return this.call(expr);
      case "case":
        return this.caseExpression(expr);
      case "cast":
        return this.cast(expr);
      case "subquery": {
        const { index, columns } = this.planner.planSubquery(expr.query, this.scope, "scalar");
        const column = this.singleColumn(columns, expr.span.start, "Scalar subquery");
        return {
          type: column.type,
          array: column.mode === "REPEATED",
          evaluate: (_row, env) => env.subqueries[index] ?? null,
        };
      }
      case "exists": {
        const { index } = this.planner.planSubquery(expr.query, this.scope, "exists");
        return { type: "BOOLEAN", array: false, evaluate: (_row, env) => env.subqueries[index] === true };
      }
    }
  }

  /** A condition (WHERE, ON, HAVING): its type must be BOOL. */
  checkCondition(compiled: Compiled, at: number): Compiled {
    if (compiled.array || !["BOOLEAN", "NULL", "ANY"].includes(compiled.type)) {
      throw new SqlFailure(
        `${this.options.clause} should return type BOOL, but returns ${typeName(compiled)}`,
        at,
      );
    }
    return compiled;
  }

  column(ref: ColumnRef, mode: ResolveMode): Compiled {
    const resolved = this.scope.resolve(ref, mode, this.options.visible);
    return { type: resolved.type, array: resolved.array, evaluate: resolved.evaluate };
  }

  private literal(expr: Literal): Compiled {
    const value = expr.value;
    if (value === null) return constant(null, "NULL");
    if (typeof value === "string") return constant(value, "STRING");
    if (typeof value === "boolean") return constant(value, "BOOLEAN");
    // The tree keeps 1.0 as 1; the text tells a FLOAT literal apart.
    const written = this.text.slice(expr.span.start, expr.span.end);
    return constant(value, Number.isInteger(value) && !/[.eE]/.test(written) ? "INTEGER" : "FLOAT");
  }

  private singleColumn(columns: readonly ResultColumn[], at: number, what: string): ResultColumn {
    if (columns.length !== 1 || !columns[0])
      throw new SqlFailure(`${what} has ${columns.length} columns; it must have one`, at);
    return columns[0];
  }

  private unary(op: "NOT" | "-" | "+", operand: Compiled, at: number): Compiled {
    if (op === "NOT") {
      if (operand.array || !["BOOLEAN", "NULL", "ANY"].includes(operand.type))
        throw noSignature("NOT", [operand], at);
      return { type: "BOOLEAN", array: false, evaluate: not3(operand.evaluate) };
    }
    if (operand.array || !(isNumeric(operand.type) || operand.type === "NULL" || operand.type === "ANY")) {
      throw noSignature(op === "-" ? "unary minus" : "unary plus", [operand], at);
    }
    const evaluate = operand.evaluate;
    const type = operand.type === "NULL" ? "INTEGER" : operand.type;
    if (op === "+") return { type, array: false, evaluate };
    return {
      type,
      array: false,
      evaluate: (row, env) => {
        const value = evaluate(row, env);
        return typeof value === "number" ? -value : null;
      },
    };
  }

  private binary(op: BinaryOperator, left: Expr, right: Expr, at: number): Compiled {
    if (op === "AND" || op === "OR") {
      const a = this.compile(left);
      const b = this.compile(right);
      for (const side of [a, b])
        if (side.array || !["BOOLEAN", "NULL", "ANY"].includes(side.type)) throw noSignature(op, [a, b], at);
      return {
        type: "BOOLEAN",
        array: false,
        evaluate: op === "AND" ? and3(a.evaluate, b.evaluate) : or3(a.evaluate, b.evaluate),
      };
    }
    if (COMPARE[op]) return { type: "BOOLEAN", array: false, evaluate: this.comparison(op, left, right, at) };
    const a = this.compile(left);
    const b = this.compile(right);
    if (op === "||" || op === "CONTAINS") {
      for (const side of [a, b])
        if (side.array || !["STRING", "NULL", "ANY"].includes(side.type)) throw noSignature(op, [a, b], at);
      const [l, r] = [a.evaluate, b.evaluate];
      if (op === "CONTAINS") {
        return {
          type: "BOOLEAN",
          array: false,
          evaluate: (row, env) => {
            const text = l(row, env);
            const part = r(row, env);
            if (typeof text !== "string" || typeof part !== "string") return null;
            env.meter.charge(text.length + part.length);
            return text.includes(part);
          },
        };
      }
      return {
        type: "STRING",
        array: false,
        evaluate: (row, env) => {
          const x = l(row, env);
          const y = r(row, env);
          if (isNull(x) || isNull(y)) return null;
          const [a, b] = [String(x), String(y)];
          checkStringLength(a.length + b.length);
          env.meter.charge(2 * (a.length + b.length));
          return a + b;
        },
      };
    }
    return this.arithmetic(op, a, b, at);
  }

  private arithmetic(op: BinaryOperator, a: Compiled, b: Compiled, at: number): Compiled {
    const numeric = (side: Compiled) =>
      !side.array && (isNumeric(side.type) || side.type === "NULL" || side.type === "ANY");
    if (!numeric(a) || !numeric(b)) throw noSignature(op, [a, b], at);
    const type: ValueType =
      a.type === "ANY" || b.type === "ANY"
        ? "ANY"
        : op === "/" || a.type === "FLOAT" || b.type === "FLOAT"
          ? "FLOAT"
          : "INTEGER";
    const [l, r] = [a.evaluate, b.evaluate];
    const apply: (x: number, y: number) => number =
      op === "+"
        ? (x, y) => x + y
        : op === "-"
          ? (x, y) => x - y
          : op === "*"
            ? (x, y) => x * y
            : (x, y) => {
                if (y === 0) throw new SqlRunError("division by zero");
                return op === "/" ? x / y : x % y;
              };
    return {
      type,
      array: false,
      evaluate: (row, env) => {
        const x = l(row, env);
        const y = r(row, env);
        return typeof x === "number" && typeof y === "number" ? apply(x, y) : null;
      },
    };
  }

  /** Two operands checked for comparison, a string compared with a TIMESTAMP read as one. */
  private comparedPair(
    op: string,
    left: Expr,
    right: Expr,
    at: number,
    compiledLeft?: Compiled,
  ): [Compiled, Compiled] {
    let a = compiledLeft ?? this.compile(left);
    let b = this.compile(right);
    if (!comparable(a, b)) throw noSignature(op, [a, b], at);
    if (a.type === "TIMESTAMP" && b.type === "STRING") b = this.asTimestamp(b, right);
    else if (b.type === "TIMESTAMP" && a.type === "STRING") a = this.asTimestamp(a, left);
    return [a, b];
  }

  private asTimestamp(compiled: Compiled, node: Expr): Compiled {
    if (node.kind === "literal" && typeof node.value === "string") {
      const ms = parseTimestamp(node.value);
      if (ms === null)
        throw new SqlFailure(`Could not cast literal "${node.value}" to type TIMESTAMP`, node.span.start);
      return constant(ms, "TIMESTAMP");
    }
    const evaluate = compiled.evaluate;
    return {
      type: "TIMESTAMP",
      array: false,
      evaluate: (row, env) => {
        const value = evaluate(row, env);
        if (typeof value !== "string") return null;
        env.meter.charge(value.length);
        return parseTimestamp(value);
      },
    };
  }

  /** `left op right`; `compiledLeft` when the left operand is shared (BETWEEN, IN, CASE x WHEN). */
  comparison(op: BinaryOperator, left: Expr, right: Expr, at: number, compiledLeft?: Compiled): Evaluate {
    const [a, b] = this.comparedPair(op, left, right, at, compiledLeft);
    const test = COMPARE[op] as (c: number) => boolean;
    const [l, r] = [a.evaluate, b.evaluate];
    return (row, env) => {
      const x = l(row, env);
      if (isNull(x)) return null;
      const y = r(row, env);
      if (isNull(y)) return null;
      env.meter.charge(compareSteps(x, y));
      return test(compareValues(x, y));
    };
  }

  private inExpression(expr: In): Compiled {
    const at = expr.span.start;
    let membership: Evaluate;
    if (expr.query) {
      const operand = this.compile(expr.operand);
      const { index, columns } = this.planner.planSubquery(expr.query, this.scope, "in");
      const column = this.singleColumn(columns, at, "IN subquery");
      const columnType = { type: column.type, array: column.mode === "REPEATED" };
      if (!comparable(operand, columnType)) throw noSignature("IN", [operand, columnType], at);
      const value = operand.evaluate;
      membership = (row, env) => {
        const x = value(row, env);
        if (isNull(x)) return null;
        env.meter.charge(textSteps(x));
        const set = env.subqueries[index] as InSet;
        return set.keys.has(valueKey(x)) ? true : set.hasNull ? null : false;
      };
    } else {
      const operand = this.compile(expr.operand);
      const items = (expr.list ?? []).map((item) => this.comparedPair("IN", expr.operand, item, at, operand));
      const value = items[0]?.[0].evaluate ?? operand.evaluate;
      const literals = (expr.list ?? []).every((item) => item.kind === "literal");
      const evaluators = items.map(([, b]) => b.evaluate);
      if (literals) {
        const keys = new Set<string>();
        let hasNull = false;
        for (const evaluate of evaluators) {
          const v = evaluate([], PLANNING_ENV);
          if (isNull(v)) hasNull = true;
          else keys.add(valueKey(v));
        }
        membership = (row, env) => {
          const x = value(row, env);
          if (isNull(x)) return null;
          env.meter.charge(textSteps(x));
          return keys.has(valueKey(x)) ? true : hasNull ? null : false;
        };
      } else {
        membership = (row, env) => {
          const x = value(row, env);
          if (isNull(x)) return null;
          let sawNull = false;
          for (const evaluate of evaluators) {
            const y = evaluate(row, env);
            if (isNull(y)) sawNull = true;
            else {
              env.meter.charge(compareSteps(x, y));
              if (compareValues(x, y) === 0) return true;
            }
          }
          return sawNull ? null : false;
        };
      }
    }
    return { type: "BOOLEAN", array: false, evaluate: expr.negated ? not3(membership) : membership };
  }

  private like(operandExpr: Expr, patternExpr: Expr, negated: boolean, at: number): Compiled {
    const operand = this.compile(operandExpr);
    if (patternExpr.kind !== "literal" || typeof patternExpr.value !== "string") {
      const pattern = this.compile(patternExpr);
      if (pattern.type !== "STRING" && pattern.type !== "NULL")
        throw noSignature("LIKE", [operand, pattern], at);
      throw new SqlFailure("LIKE needs its pattern as a string literal", patternExpr.span.start);
    }
    if (operand.array || !["STRING", "NULL", "ANY"].includes(operand.type))
      throw noSignature("LIKE", [operand, scalar("STRING")], at);
    const pattern = compileLike(patternExpr.value, patternExpr.span.start);
    const value = operand.evaluate;
    const matches: Evaluate = (row, env) => {
      const text = value(row, env);
      return typeof text === "string" ? pattern.test(text, env.meter) : null;
    };
    return { type: "BOOLEAN", array: false, evaluate: negated ? not3(matches) : matches };
  }

  private call(expr: Call): Compiled {
    const at = expr.span.start;
    if (expr.over) throw new SqlFailure("Analytic functions (OVER) are not supported", at);
    if (AGGREGATE_FUNCTIONS.has(expr.name)) {
      throw new SqlFailure(
        this.options.clause === "aggregate argument"
          ? "Aggregations of aggregations are not allowed"
          : `Aggregate function ${expr.name} not allowed in ${this.options.clause}`,
        at,
      );
    }
    const fn = SCALAR_FUNCTIONS.get(expr.name);
    if (!fn) throw new SqlFailure(`Function not found: ${expr.name}`, at);
    if (expr.star || expr.distinct)
      throw new SqlFailure(`No matching signature for function ${expr.name}`, at);
    const args = expr.args.map((arg) =>
      expr.name === "ARRAY_LENGTH" && arg.kind === "column" ? this.column(arg, "array") : this.compile(arg),
    );
    const result = args.length >= fn.minArgs && args.length <= fn.maxArgs ? fn.signature(args) : null;
    if (!result) {
      const types = args.length ? ` for argument types: ${args.map(typeName).join(", ")}` : "";
      throw new SqlFailure(`No matching signature for function ${expr.name}${types}`, at);
    }
    return { ...result, evaluate: fn.build(args, expr.args, expr.name) };
  }

  private caseExpression(expr: Case): Compiled {
    const at = expr.span.start;
    const operand = expr.operand ? this.compile(expr.operand) : null;
    const conditions = expr.whens.map(({ when }) =>
      expr.operand && operand
        ? this.comparison("=", expr.operand, when, when.span.start, operand)
        : this.checkConditionOf(when),
    );
    const results = expr.whens.map(({ then }) => this.compile(then));
    const otherwise = expr.otherwise ? this.compile(expr.otherwise) : constant(null, "NULL");
    let type: ValueType = "NULL";
    for (const result of [...results, otherwise]) {
      const next: ValueType | null = result.array ? null : commonType(type, result.type);
      if (next === null) throw noSignature("CASE", [...results, otherwise], at);
      type = next;
    }
    const thens = results.map((r) => r.evaluate);
    const fallback = otherwise.evaluate;
    return {
      type,
      array: false,
      evaluate: (row, env) => {
        for (let i = 0; i < conditions.length; i++) {
          if ((conditions[i] as Evaluate)(row, env) === true) return (thens[i] as Evaluate)(row, env);
        }
        return fallback(row, env);
      },
    };
  }

  private checkConditionOf(expr: Expr): Evaluate {
    const compiled = this.compile(expr);
    if (compiled.array || !["BOOLEAN", "NULL", "ANY"].includes(compiled.type))
      throw noSignature("CASE WHEN", [compiled], expr.span.start);
    return compiled.evaluate;
  }

  private cast(expr: Cast): Compiled {
    const target = castTarget(expr.type);
    if (!target) throw new SqlFailure(`Type not found: ${expr.type}`, expr.span.start);
    const operand = this.compile(expr.operand);
    if (operand.array)
      throw new SqlFailure(`Invalid cast from ${typeName(operand)} to ${expr.type}`, expr.span.start);
    const from = operand.type;
    if (target === "TIMESTAMP" && !["STRING", "TIMESTAMP", "NULL", "ANY"].includes(from)) {
      throw new SqlFailure(`Invalid cast from ${typeName(operand)} to TIMESTAMP`, expr.span.start);
    }
    if (target === "TIMESTAMP" && expr.operand.kind === "literal" && typeof expr.operand.value === "string") {
      return this.asTimestamp(operand, expr.operand);
    }
    const value = operand.evaluate;
    const safe = expr.safe;
    return {
      type: target,
      array: false,
      evaluate: (row, env) => {
        const input = value(row, env);
        env.meter.charge(textSteps(input));
        const result = castValue(input, from, target);
        if (result !== undefined) return result;
        if (safe) return null;
        throw castFailure(input, target);
      },
    };
  }
}
