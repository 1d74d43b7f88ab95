/**
 * One SELECT: its FROM bound, its repeated groups flattened or quantified (`repeated.ts`), its
 * clauses compiled, its result columns named the way BigQuery legacy names them.
 */
import type { ColumnRef, Expr, OrderItem, Select, SelectItem, Span } from "./ast";
import { AGGREGATE_FUNCTIONS } from "./aggregates";
import { chainOf, containsAggregate } from "./ast-walk";
import { SqlFailure } from "./errors";
import { ExpressionCompiler, type SubqueryPlanner } from "./expressions";
import {
  bindFrom,
  checkJoinConditions,
  planFrom,
  type FromEntry,
  type FromPlanner,
  type RelationEntry,
} from "./from-plan";
import { canonicalKey, planGrouping } from "./grouping-plan";
import type { Compiled, Evaluate, OrderKey, RelationNode, ScanNode, SelectNode } from "./plan-nodes";
import type { ResultColumn } from "./plan";
import { compileCondition, flattenReferencedGroups, flatteningReferences } from "./repeated";
import { Scope } from "./scope";
import type { ScanHint } from "./source";

export interface SelectPlanner extends FromPlanner, SubqueryPlanner {
  readonly text: string;
}

interface Item {
  expr: Expr;
  alias: string | null;
  /** A `*` column read as a whole array (a top-level REPEATED field). */
  asArray: boolean;
}

function columnRef(parts: string[], span: Span): ColumnRef {
  return { kind: "column", parts, span };
}

/**
 * `*` and `alias.*`: every field of each table (top-level REPEATED fields as arrays, the fields
 * of its one repeated record flattened; a table with two records is refused), every column of a
 * derived table, the value of a scalar UNNEST and its offset.
 */
function expandStar(
  scope: Scope,
  entries: readonly FromEntry[],
  item: Extract<SelectItem, { kind: "all" }>,
): Item[] {
  const span = item.span;
  const qualifier = item.qualifier?.join(".").toLowerCase() ?? null;
  const items: Item[] = [];
  let matched = qualifier === null;
  for (const entry of entries) {
    if (entry.kind === "unnest") {
      const binding = entry.binding;
      if (qualifier !== null && binding.alias === qualifier) {
        matched = true;
        if (!binding.elementFields)
          throw new SqlFailure(`${qualifier}.* needs a record, but ${qualifier} is a value`, span.start);
        for (const key of binding.elementFields.keys())
          items.push({ expr: columnRef([qualifier, ...key.split(".")], span), alias: null, asArray: false });
      }
      if (qualifier === null && binding.alias && !binding.elementFields)
        items.push({ expr: columnRef([binding.alias], span), alias: null, asArray: false });
      if (qualifier === null && binding.offsetAlias)
        items.push({ expr: columnRef([binding.offsetAlias], span), alias: null, asArray: false });
      continue;
    }
    const relation = entry.relation;
    if (qualifier !== null && !relation.qualifiers.includes(qualifier)) continue;
    matched = true;
    const prefix = relation.qualifiers[0]?.split(".") ?? [];
    if (relation.derived) {
      for (const column of relation.derived)
        items.push({ expr: columnRef([...prefix, column.name], span), alias: null, asArray: false });
      continue;
    }
    const schema = relation.table?.schema;
    const records = schema?.records ?? [];
    const flattened = records.filter((r) => relation.groups.get(r.toLowerCase())?.state !== "unnested");
    if (flattened.length > 1) {
      throw new SqlFailure(
        `SELECT * over ${relation.table?.name} would flatten its repeated records ${flattened.join(" and ")} together; name the fields you want`,
        span.start,
      );
    }
    for (const field of schema?.fields ?? []) {
      items.push({
        expr: columnRef([...prefix, ...field.name.split(".")], span),
        alias: null,
        asArray: !field.record && field.mode === "REPEATED",
      });
    }
  }
  if (!matched) throw new SqlFailure(`Unrecognized name: ${item.qualifier?.join(".")}`, span.start);
  return items;
}

function ordinalOf(expr: Expr, count: number, clause: string): number | null {
  if (expr.kind !== "literal" || typeof expr.value !== "number") return null;
  if (!Number.isInteger(expr.value) || expr.value < 1 || expr.value > count) {
    throw new SqlFailure(`${clause} position ${expr.value} is out of range`, expr.span.start);
  }
  return expr.value - 1;
}

/** Top-level WHERE conjuncts `col = literal` / `col IN (literals)` on plain top-level fields, as scan hints. */
function scanHints(scope: Scope, conjuncts: readonly Expr[]): Map<number, ScanHint[]> {
  const hints = new Map<number, ScanHint[]>();
  for (const conjunct of conjuncts) {
    let ref: Expr | null = null;
    let values: Expr[] = [];
    if (conjunct.kind === "binary" && conjunct.op === "=") {
      [ref, values] =
        conjunct.left.kind === "column"
          ? [conjunct.left, [conjunct.right]]
          : [conjunct.right, [conjunct.left]];
    } else if (conjunct.kind === "in" && !conjunct.negated && conjunct.list) {
      [ref, values] = [conjunct.operand, conjunct.list];
    }
    if (ref?.kind !== "column" || values.some((v) => v.kind !== "literal" || v.value === null)) continue;
    const resolved = scope.resolve(ref, "condition");
    const field = resolved.field;
    if (
      !field ||
      !resolved.relation ||
      field.record ||
      field.mode === "REPEATED" ||
      field.type === "TIMESTAMP"
    )
      continue;
    const literals = values.map(
      (v) => (v as Extract<Expr, { kind: "literal" }>).value as string | number | boolean,
    );
    const wanted = field.type === "STRING" ? "string" : field.type === "BOOLEAN" ? "boolean" : "number";
    if (literals.some((v) => typeof v !== wanted)) continue;
    const list = hints.get(resolved.relation.slot) ?? [];
    list.push({ column: field.name, values: literals });
    hints.set(resolved.relation.slot, list);
  }
  return hints;
}

function uniqueNames(names: string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    for (let n = 1; taken.has(candidate.toLowerCase()); n++) candidate = `${name}_${n}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

export function planSelect(planner: SelectPlanner, select: Select, outer: Scope | null): SelectNode {
  const scope = new Scope(outer);
  const entries = select.from ? bindFrom(planner, scope, select.from) : [];
  const conjuncts = select.where ? chainOf(select.where, "AND") : [];
  checkJoinConditions(scope, entries, conjuncts);
  const items: Item[] = select.items.flatMap((item) =>
    item.kind === "all"
      ? expandStar(scope, entries, item)
      : [{ expr: item.expr, alias: item.alias, asArray: false }],
  );
  const aliases = new Map<string, number>();
  items.forEach((item, i) => {
    if (item.alias && !aliases.has(item.alias.toLowerCase())) aliases.set(item.alias.toLowerCase(), i);
  });
  const isAlias = (ref: ColumnRef) =>
    ref.parts.length === 1 && aliases.has((ref.parts[0] as string).toLowerCase());
  const isOrdinal = (expr: Expr) => expr.kind === "literal" && typeof expr.value === "number";

  // Rule 1 of repeated.ts: what the select list, GROUP BY and ORDER BY read is flattened.
  const expansions = flattenReferencedGroups(scope, [
    ...items.flatMap((item) =>
      item.asArray
        ? [{ ref: item.expr as ColumnRef, asArray: true }]
        : flatteningReferences([item.expr], false),
    ),
    ...flatteningReferences(
      select.groupBy.filter((e) => !isOrdinal(e)),
      false,
      isAlias,
    ),
    ...flatteningReferences(
      select.orderBy.map((o) => o.expr).filter((e) => !isOrdinal(e)),
      false,
      isAlias,
    ),
    ...flatteningReferences(select.having ? [select.having] : [], true, isAlias),
  ]);
  for (const entry of entries)
    if (entry.kind === "relation") entry.expand.push(...(expansions.get(entry.relation) ?? []));

  const compilerFor = (clause: string, mode: "value" | "condition", visible = Number.POSITIVE_INFINITY) =>
    new ExpressionCompiler(planner, scope, planner.text, { clause, mode, visible });

  const where = select.where
    ? compileCondition(compilerFor("WHERE clause", "condition"), select.where)
    : null;
  const scans: [ScanNode, RelationEntry][] = [];
  const relationNode = (entry: RelationEntry): RelationNode => {
    if (entry.derived) return { kind: "derived", query: entry.derived, slot: entry.relation.slot };
    const node: ScanNode = {
      kind: "scan",
      table: entry.relation.table as NonNullable<typeof entry.relation.table>,
      slot: entry.relation.slot,
      columns: [],
      hints: [],
    };
    scans.push([node, entry]);
    return node;
  };
  const from = entries.length ? planFrom(scope, entries, compilerFor, conjuncts, relationNode) : null;

  const aggregated =
    select.groupBy.length > 0 ||
    select.having !== null ||
    items.some((item) => containsAggregate(item.expr, AGGREGATE_FUNCTIONS)) ||
    select.orderBy.some((o) => containsAggregate(o.expr, AGGREGATE_FUNCTIONS));
  const rowCompiler = compilerFor("SELECT list", "value");

  let outputs: Compiled[];
  let grouping: SelectNode["grouping"] = null;
  let orderCompiler: ExpressionCompiler;
  if (aggregated) {
    const groupBy = select.groupBy.map((expr) => {
      const ordinal = ordinalOf(expr, items.length, "GROUP BY");
      if (ordinal !== null) return (items[ordinal] as Item).expr;
      if (expr.kind === "column" && isAlias(expr))
        return (items[aliases.get((expr.parts[0] as string).toLowerCase()) as number] as Item).expr;
      return expr;
    });
    const plan = planGrouping(scope, rowCompiler, groupBy, items, aliases);
    const selectCompiler = plan.compilerFor("SELECT list", false);
    outputs = items.map((item) => selectCompiler.compile(item.expr));
    const having = select.having ? plan.compilerFor("HAVING clause", true) : null;
    grouping = {
      ...plan.grouping,
      having:
        having && select.having
          ? having.checkCondition(having.compile(select.having), select.having.span.start).evaluate
          : null,
    };
    orderCompiler = plan.compilerFor("ORDER BY clause", true);
  } else {
    outputs = items.map((item) =>
      item.asArray ? rowCompiler.column(item.expr as ColumnRef, "array") : rowCompiler.compile(item.expr),
    );
    const base = compilerFor("ORDER BY clause", "value");
    orderCompiler = base.with({
      intercept: (expr) => {
        if (expr.kind !== "column" || !isAlias(expr)) return null;
        return outputs[aliases.get((expr.parts[0] as string).toLowerCase()) as number] ?? null;
      },
    });
  }

  const itemIds = select.distinct ? items.map((item) => canonicalKey(scope, item.expr)) : [];
  const order = select.orderBy.map((item: OrderItem): OrderKey => {
    const ordinal = ordinalOf(item.expr, items.length, "ORDER BY");
    let compiled: Compiled;
    if (ordinal !== null) compiled = outputs[ordinal] as Compiled;
    else {
      if (
        select.distinct &&
        !(item.expr.kind === "column" && isAlias(item.expr)) &&
        !itemIds.includes(canonicalKey(scope, item.expr))
      ) {
        throw new SqlFailure(
          "ORDER BY of a SELECT DISTINCT must name one of its columns",
          item.expr.span.start,
        );
      }
      compiled = orderCompiler.compile(item.expr);
    }
    if (compiled.array)
      throw new SqlFailure("ORDER BY does not support expressions of type ARRAY", item.expr.span.start);
    return {
      evaluate: compiled.evaluate,
      descending: item.descending,
      nullsFirst: item.nulls ? item.nulls === "FIRST" : !item.descending,
    };
  });

  const hints = scanHints(scope, conjuncts);
  for (const [node, entry] of scans) {
    node.columns = [...entry.relation.columnsRead].sort();
    node.hints = hints.get(entry.relation.slot) ?? [];
  }

  let unnamed = 0;
  const paths: (string | undefined)[] = [];
  const names = items.map((item) => {
    if (item.alias) return item.alias;
    if (item.expr.kind === "column") {
      const resolved = scope.resolve(item.expr, item.asArray ? "array" : "value");
      const field = resolved.field?.name;
      if (field && field.replaceAll(".", "_") === resolved.name) paths[items.indexOf(item)] = field;
      return resolved.name;
    }
    return `f${unnamed++}_`;
  });
  const columns: ResultColumn[] = uniqueNames(names).map((name, i) => {
    const output = outputs[i] as Compiled;
    const type = output.type === "NULL" || output.type === "ANY" ? "STRING" : output.type;
    const path = paths[i];
    return { name, type, mode: output.array ? "REPEATED" : "NULLABLE", ...(path ? { path } : {}) };
  });

  return {
    kind: "select",
    slots: scope.slots,
    from,
    where: where?.evaluate ?? null,
    grouping,
    outputs: outputs.map((o): Evaluate => o.evaluate),
    distinct: select.distinct,
    order,
    limit: select.limit,
    offset: select.offset ?? 0,
    columns,
  };
}
