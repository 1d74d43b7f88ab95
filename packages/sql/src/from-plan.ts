/**
 * FROM: binding its tables, derived tables, UNNESTs and FLATTENs in the scope, and planning
 * its joins.
 *
 * A FROM is read left-deep: the first relation is scanned in batches; each UNNEST expands the
 * rows so far; each further relation is a hash join whose build side (that relation, held in
 * memory) is matched on equality keys. A join needs at least one equality between a column of
 * each side (from ON, USING, or for a comma or CROSS JOIN from the WHERE conjuncts): without
 * one it is a cartesian product, which is refused.
 */
import type { ColumnRef, Expr, FromItem, JoinType, Query, Span } from "./ast";
import { chainFrom, chainOf, forEachReference } from "./ast-walk";
import { AGGREGATE_FUNCTIONS } from "./aggregates";
import { SqlFailure } from "./errors";
import type { ExpressionCompiler } from "./expressions";
import { SQL_LIMITS } from "./limits";
import type { Evaluate, ExpandNode, FromNode, FromStep, QueryNode, RelationNode } from "./plan-nodes";
import { compileCondition } from "./repeated";
import type { GroupBinding, Relation, Resolved, Scope, UnnestBinding } from "./scope";
import type { FieldDef, ResolvedTable } from "./source";
import { comparable, typeName } from "./values";

export interface FromPlanner {
  resolveTable(name: string, at: number): ResolvedTable;
  planDerived(query: Query): QueryNode;
}

export interface RelationEntry {
  kind: "relation";
  entry: number;
  relation: Relation;
  derived: QueryNode | null;
  joinType: JoinType | null;
  on: Expr | null;
  using: string[] | null;
  span: Span;
  /** FLATTEN and implicit flattening of this relation's groups, applied to each of its rows. */
  expand: ExpandNode[];
}

export interface UnnestEntry {
  kind: "unnest";
  entry: number;
  binding: UnnestBinding;
  array: Evaluate;
  joinType: JoinType;
  on: Expr | null;
  span: Span;
}

export type FromEntry = RelationEntry | UnnestEntry;

function groupOfRecord(scope: Scope, relation: Relation, record: string): GroupBinding {
  const field = relation.table?.schema.fields.find((f) => f.record === record) as FieldDef;
  relation.columnsRead.add(record);
  return scope.groupOf(relation, field, null);
}

function unsupportedJoin(type: JoinType, at: number): SqlFailure {
  return new SqlFailure(
    type === "RIGHT"
      ? "RIGHT JOIN is not supported; swap the tables and use LEFT JOIN"
      : "FULL JOIN is not supported; use INNER or LEFT JOIN",
    at,
  );
}

/** Binds every item of `from` in `scope`, in order. */
export function bindFrom(planner: FromPlanner, scope: Scope, from: FromItem): FromEntry[] {
  const entries: FromEntry[] = [];

  const relationItem = (
    item: FromItem,
    joinType: JoinType | null,
    on: Expr | null,
    using: string[] | null,
  ): RelationEntry => {
    switch (item.kind) {
      case "table": {
        const table = planner.resolveTable(item.name, item.span.start);
        const qualifiers = [item.alias, item.name, table.name]
          .filter((q): q is string => q !== null)
          .map((q) => q.toLowerCase());
        const relation = scope.addRelation({ entry: entries.length, qualifiers, table, derived: null });
        const added: RelationEntry = {
          kind: "relation",
          entry: relation.entry,
          relation,
          derived: null,
          joinType,
          on,
          using,
          span: item.span,
          expand: [],
        };
        entries.push(added);
        return added;
      }
      case "derived": {
        const derived = planner.planDerived(item.query);
        const qualifiers = item.alias ? [item.alias.toLowerCase()] : [];
        const relation = scope.addRelation({
          entry: entries.length,
          qualifiers,
          table: null,
          derived: derived.columns,
        });
        const added: RelationEntry = {
          kind: "relation",
          entry: relation.entry,
          relation,
          derived,
          joinType,
          on,
          using,
          span: item.span,
          expand: [],
        };
        entries.push(added);
        return added;
      }
      case "flatten": {
        const source = relationItem(item.source, joinType, on, using);
        if (item.alias) source.relation.qualifiers.push(item.alias.toLowerCase());
        flatten(source, item.field);
        return source;
      }
      case "unnest":
        throw new SqlFailure("UNNEST must follow a table in FROM", item.span.start);
      case "join":
        throw new SqlFailure(
          "a parenthesised join is not supported; write the joins one after another",
          item.span.start,
        );
    }
  };

  const flatten = (source: RelationEntry, field: ColumnRef): void => {
    const written = field.parts.join(".");
    const record = scope.findRecord(field, source.entry);
    let group: GroupBinding;
    if (record) {
      group = groupOfRecord(scope, record.relation, record.record);
    } else {
      const resolved = scope.resolve(field, "array", source.entry);
      const def = resolved.field;
      if (!def || !resolved.relation || (!def.record && def.mode !== "REPEATED")) {
        throw new SqlFailure(
          `FLATTEN needs a repeated field, but ${written} is not repeated`,
          field.span.start,
        );
      }
      group = def.record
        ? groupOfRecord(scope, resolved.relation, def.record)
        : scope.groupOf(resolved.relation, def, null);
    }
    if (group.relation !== source.relation)
      throw new SqlFailure(`FLATTEN names ${written}, which is not a field of its table`, field.span.start);
    if (group.state !== "existential") return;
    group.state = "flattened";
    source.expand.push({
      slot: group.slot,
      offsetSlot: null,
      array: group.array,
      keepEmpty: true,
      filter: null,
    });
  };

  const unnestItem = (
    item: Extract<FromItem, { kind: "unnest" }>,
    joinType: JoinType,
    on: Expr | null,
  ): void => {
    const entry = entries.length;
    const visible = entry - 1;
    const written = item.path.parts.join(".");
    const record = scope.findRecord(item.path, visible);
    let group: GroupBinding | null = null;
    let elementFields: Map<string, FieldDef> | null = null;
    let array: Evaluate;
    let elementType: UnnestBinding["elementType"] = "ANY";
    let slot: number;
    if (record) {
      group = groupOfRecord(scope, record.relation, record.record);
      elementFields = new Map();
      for (const field of record.relation.table?.schema.fields ?? []) {
        if (field.record === record.record)
          elementFields.set(field.name.slice(record.record.length + 1).toLowerCase(), field);
      }
      array = group.array;
    } else {
      const resolved = scope.resolve(item.path, "array", visible);
      if (!resolved.array)
        throw new SqlFailure(`UNNEST needs an array, but ${written} is not repeated`, item.path.span.start);
      const unbound = resolved.groups.find((g) => g.state === "existential");
      if (resolved.field && resolved.relation && !resolved.field.record)
        group = scope.groupOf(resolved.relation, resolved.field, null);
      else if (unbound)
        throw new SqlFailure(`UNNEST(${written}) needs ${unbound.name} unnested first`, item.path.span.start);
      array = resolved.evaluate;
      elementType = resolved.type;
    }
    if (group) {
      if (group.state !== "existential")
        throw new SqlFailure(`${group.name} is already flattened or unnested`, item.path.span.start);
      group.state = "unnested";
      group.entry = entry;
      slot = group.slot;
    } else {
      slot = scope.allocateSlot();
    }
    const binding: UnnestBinding = {
      entry,
      alias: item.alias?.toLowerCase() ?? null,
      slot,
      offsetAlias: item.offsetAlias?.toLowerCase() ?? null,
      offsetSlot: item.offsetAlias ? scope.allocateSlot() : null,
      group,
      elementFields,
      elementType,
    };
    scope.unnests.push(binding);
    entries.push({ kind: "unnest", entry, binding, array, joinType, on, span: item.span });
  };

  const walk = (item: FromItem): void => {
    if (item.kind !== "join") {
      relationItem(item, null, null, null);
      return;
    }
    walk(item.left);
    if (item.type === "RIGHT" || item.type === "FULL") throw unsupportedJoin(item.type, item.span.start);
    const right = item.right;
    if (right.kind === "unnest") {
      if (item.using) throw new SqlFailure("USING is not allowed with UNNEST", item.span.start);
      unnestItem(right, item.type, item.on);
      return;
    }
    const added = relationItem(right, item.type, item.on, item.using);
    if (item.using) bindUsing(scope, added, item.using, item.span.start);
  };

  walk(from);
  const relations = entries.filter((e) => e.kind === "relation").length;
  if (relations > SQL_LIMITS.maxJoinedTables) {
    throw new SqlFailure(
      `a query may join at most ${SQL_LIMITS.maxJoinedTables} tables (SQL_LIMITS.maxJoinedTables); this one joins ${relations}`,
      from.span.start,
    );
  }
  return entries;
}

function bindUsing(scope: Scope, right: RelationEntry, columns: string[], at: number): void {
  for (const column of columns) {
    const ref: ColumnRef = { kind: "column", parts: [column], span: { start: at, end: at } };
    const left = scope.resolve(ref, "value", right.entry - 1);
    const relation = scope.relations.find((r) => r.entry === left.entries[0]);
    if (relation) scope.using.set(column.toLowerCase(), relation);
  }
}

/** The FROM entries an expression reads, and whether it reads a group no step binds. */
function sideOf(scope: Scope, expr: Expr, visible: number): { entries: Set<number>; unbound: boolean } {
  const entries = new Set<number>();
  let unbound = false;
  forEachReference(
    expr,
    (ref, asArray) => {
      const resolved = scope.resolve(ref, asArray ? "array" : "value", visible);
      for (const e of resolved.entries) entries.add(e);
      if (resolved.array || resolved.groups.some((g) => g.state === "existential")) unbound = true;
    },
    AGGREGATE_FUNCTIONS,
  );
  return { entries, unbound };
}

/** `left = right` as a hash key of the join at `entry`: [left side's expression, right side's], or null. */
function joinKey(scope: Scope, conjunct: Expr, entry: number, allowUnbound = false): [Expr, Expr] | null {
  if (conjunct.kind !== "binary" || conjunct.op !== "=") return null;
  const a = sideOf(scope, conjunct.left, Number.POSITIVE_INFINITY);
  const b = sideOf(scope, conjunct.right, Number.POSITIVE_INFINITY);
  if (((a.unbound || b.unbound) && !allowUnbound) || a.entries.size === 0 || b.entries.size === 0)
    return null;
  const isLeft = (s: Set<number>) => [...s].every((e) => e < entry);
  const isRight = (s: Set<number>) => [...s].every((e) => e === entry);
  if (isLeft(a.entries) && isRight(b.entries)) return [conjunct.left, conjunct.right];
  if (isLeft(b.entries) && isRight(a.entries)) return [conjunct.right, conjunct.left];
  return null;
}

function conjunctsOf(
  entry: RelationEntry,
  whereConjuncts: readonly Expr[],
): { conjuncts: readonly Expr[]; implicit: boolean } {
  const implicit = entry.joinType === "COMMA" || entry.joinType === "CROSS";
  return { conjuncts: implicit ? whereConjuncts : entry.on ? chainOf(entry.on, "AND") : [], implicit };
}

/**
 * Refuses a cartesian join before anything else is checked: some conjunct must compare a
 * column of the tables before each joined table with a column of it.
 */
export function checkJoinConditions(
  scope: Scope,
  entries: readonly FromEntry[],
  whereConjuncts: readonly Expr[],
): void {
  const tables = entries.filter((e) => e.kind === "relation").length;
  for (const entry of entries.slice(1)) {
    if (entry.kind !== "relation" || entry.using) continue;
    const { conjuncts } = conjunctsOf(entry, whereConjuncts);
    if (!conjuncts.some((conjunct) => joinKey(scope, conjunct, entry.entry, true))) {
      throw new SqlFailure(
        `a join of ${tables} tables without a join condition is not allowed`,
        entry.span.start,
      );
    }
  }
}

export interface CompilerFactory {
  (clause: string, mode: "value" | "condition", visible: number): ExpressionCompiler;
}

/** The executable FROM: scan of the first relation, then its expansions and hash joins. */
export function planFrom(
  scope: Scope,
  entries: readonly FromEntry[],
  compilerFor: CompilerFactory,
  whereConjuncts: readonly Expr[],
  relationNode: (entry: RelationEntry) => RelationNode,
): FromNode {
  const first = entries[0] as RelationEntry;
  const steps: FromStep[] = [];
  for (const entry of entries.slice(1)) {
    if (entry.kind === "unnest") {
      const filter = entry.on
        ? compileCondition(compilerFor("ON clause", "condition", entry.entry), entry.on).evaluate
        : null;
      steps.push({
        kind: "expand",
        expand: {
          slot: entry.binding.slot,
          offsetSlot: entry.binding.offsetSlot,
          array: entry.array,
          keepEmpty: entry.joinType === "LEFT",
          filter,
        },
      });
      continue;
    }
    const { conjuncts, implicit } = conjunctsOf(entry, whereConjuncts);
    const keys: [Expr, Expr][] = [];
    const residual: Expr[] = [];
    for (const conjunct of conjuncts) {
      const key = joinKey(scope, conjunct, entry.entry);
      if (key) keys.push(key);
      else if (!implicit) residual.push(conjunct);
    }
    for (const column of entry.using ?? []) {
      const at = entry.span.start;
      const ref: ColumnRef = { kind: "column", parts: [column], span: { start: at, end: at } };
      keys.push([ref, ref]);
    }
    if (keys.length === 0) {
      // checkJoinConditions found an equality, so it compares a repeated field that nothing flattens.
      throw new SqlFailure(
        "a join condition must compare fields that are not repeated; UNNEST or FLATTEN the repeated field first",
        entry.span.start,
      );
    }
    const compiler = compilerFor("ON clause", "value", entry.entry);
    const leftKeys: Evaluate[] = [];
    const rightKeys: Evaluate[] = [];
    for (const [l, r] of keys) {
      const a = compiler.compile(l);
      const b = entry.using ? compileUsingRight(scope, entry, r) : compiler.compile(r);
      if (!comparable(a, b) || (a.type === "TIMESTAMP") !== (b.type === "TIMESTAMP")) {
        throw new SqlFailure(
          `No matching signature for operator = for argument types: ${typeName(a)}, ${typeName(b)}`,
          l.span.start,
        );
      }
      leftKeys.push(a.evaluate);
      rightKeys.push(b.evaluate);
    }
    const residualCondition = residual.length
      ? compileCondition(compilerFor("ON clause", "condition", entry.entry), chainFrom(residual, "AND"))
          .evaluate
      : null;
    const rightSlots = [entry.relation.slot, ...entry.expand.map((e) => e.slot)];
    steps.push({
      kind: "join",
      join: {
        relation: relationNode(entry),
        expand: entry.expand,
        rightSlots,
        leftKeys,
        rightKeys,
        residual: residualCondition,
        left: entry.joinType === "LEFT",
      },
    });
  }
  return { first: relationNode(first), firstExpand: first.expand, steps };
}

/** USING's right column: the right relation's own column (unqualified, the name means the left one). */
function compileUsingRight(scope: Scope, entry: RelationEntry, ref: Expr): Resolved {
  const column = ref as ColumnRef;
  const resolved = scope.resolveIn(entry.relation, column, "value");
  if (!resolved) throw new SqlFailure(`Unrecognized name: ${column.parts.join(".")}`, column.span.start);
  return resolved;
}
