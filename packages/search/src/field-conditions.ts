import type { QueryNode, Value } from "./ast";
import {
  HASHED_ALIAS,
  SCOPE_ALIAS,
  SIDE_ALIAS,
  countParams,
  sqlIdentifier,
  type Context,
  type Located,
  type ScopeRow,
} from "./compile-context";
import { findField, type FoundField } from "./field-lookup";
import { leafCondition, leafValueCondition, type LeafTarget } from "./leaf";
import { valuePredicate, type MatchOp } from "./predicates";
import { QueryError, quoteToken } from "./query-error";
import type { FieldType, LeafTables } from "./registry";
import { MATCH_NONE, combine, expr, inSubquery, negate, type Expr } from "./sql-expr";

/**
 * The SQL condition of one field condition, wherever the field's storage keeps its values
 * (root columns, side tables, scope rows, the generic leaf tables, a distinct-values table),
 * and the conditions that span several fields: `object: *` (any field under a path has a
 * value) and key/value maps (`headers: (key: Server and value: nginx)`).
 */

/** How a condition reads a value: on a leaf field's rows, or on a column. */
interface Builders {
  leaf: (ids: number | number[], tables: LeafTables, target: LeafTarget) => Expr;
  column: (column: string) => Expr;
}

function notInScope(field: string, scope: string, position: number): QueryError {
  return new QueryError(
    `${quoteToken(field)} is not a field of ${scope}, so it cannot be used inside ${scope}: (...) (at position ${position})`,
    position,
    field,
  );
}

/** The scope row a field of `storageScope` is tested on: the group's, or (outside groups) the pinned one. */
function rowFor(storageScope: string | undefined, context: Context): ScopeRow | null {
  const pinned =
    context.scope === null && context.scopeRow !== null && storageScope === context.scopeRow.name;
  return pinned ? context.scopeRow : context.scope;
}

/** Where a condition came from: the field's position (scope errors) and the value's (bound values). */
interface Origin {
  position: number;
  value: Located;
}

function placeLeaf(
  name: string,
  storageScope: string | undefined,
  ids: number | number[],
  origin: Origin,
  context: Context,
  build: Builders["leaf"],
): Expr {
  const { registry, root } = context;
  const tables = registry.leaves;
  if (!tables)
    throw new Error(`registry ${registry.name}: field ${name} is a leaf but there are no leaf tables`);
  const scope = rowFor(storageScope, context);
  if (scope !== null && storageScope !== scope.name) throw notInScope(name, scope.name, origin.position);
  // Inside a scope the leaf must belong to the very scope row the group's other conditions test.
  const target: LeafTarget =
    scope !== null
      ? { outer: `${scope.alias}.rowid`, column: "scope" }
      : { outer: `${root}.rowid`, column: "doc" };
  return countParams(build(ids, tables, target), origin.value, context);
}

function placeColumn(field: FoundField, origin: Origin, context: Context, build: Builders["column"]): Expr {
  const { storage } = field.def;
  const { registry, root } = context;
  const predicate = (column: string): Expr => countParams(build(column), origin.value, context);
  const scope = rowFor(storage.kind === "scoped" ? storage.scope : undefined, context);
  if (scope !== null) {
    if (storage.kind !== "scoped" || storage.scope !== scope.name)
      throw notInScope(field.name, scope.name, origin.position);
    return predicate(`${scope.alias}.${sqlIdentifier(storage.column)}`);
  }
  const rootKey = `${root}.${sqlIdentifier(registry.root.key)}`;
  switch (storage.kind) {
    case "column":
      return predicate(`${root}.${sqlIdentifier(storage.column)}`);
    case "side":
      return inSubquery(
        rootKey,
        `${SIDE_ALIAS}.${sqlIdentifier(storage.key)}`,
        `${sqlIdentifier(storage.table)} ${SIDE_ALIAS}`,
        predicate(`${SIDE_ALIAS}.${sqlIdentifier(storage.column)}`),
      );
    case "scoped": {
      const scopeDef = registry.scopes[storage.scope];
      if (!scopeDef)
        throw new Error(
          `registry ${registry.name}: field ${field.name} names unknown scope ${storage.scope}`,
        );
      return inSubquery(
        rootKey,
        `${SCOPE_ALIAS}.${sqlIdentifier(scopeDef.key)}`,
        `${sqlIdentifier(scopeDef.table)} ${SCOPE_ALIAS}`,
        predicate(`${SCOPE_ALIAS}.${sqlIdentifier(storage.column)}`),
      );
    }
    default:
      throw new Error(`registry ${registry.name}: field ${field.name} is not stored in a column`);
  }
}

/**
 * The condition over any of `fields` (each placed where its storage is; the leaves of one scope
 * share one lookup); fields no document holds add nothing.
 */
function placeOn(fields: readonly FoundField[], origin: Origin, context: Context, build: Builders): Expr {
  const parts: Expr[] = [];
  const leaves = new Map<string, { name: string; scope: string | undefined; ids: number[] }>();
  for (const field of fields) {
    const { storage } = field.def;
    if (storage.kind === "leaf") {
      const key = storage.scope ?? "";
      const group = leaves.get(key) ?? { name: field.name, scope: storage.scope, ids: [] };
      group.ids.push(storage.id);
      leaves.set(key, group);
    } else if (storage.kind === "column" || storage.kind === "side" || storage.kind === "scoped") {
      parts.push(placeColumn(field, origin, context, build.column));
    }
  }
  for (const group of leaves.values()) {
    const ids = group.ids.length === 1 ? (group.ids[0] as number) : group.ids;
    parts.push(placeLeaf(group.name, group.scope, ids, origin, context, build.leaf));
  }
  return parts.length === 0 ? MATCH_NONE : combine("OR", parts);
}

/** A `hashed` field: the keys of the distinct values the condition accepts, tested on the hash field. */
function hashedCondition(
  field: FoundField,
  origin: Origin,
  op: MatchOp,
  value: Value,
  context: Context,
): Expr {
  const { storage } = field.def;
  if (storage.kind !== "hashed") throw new Error(`${field.name} is not hashed`);
  const hash = findField(context.registry, storage.field);
  if (hash === null) return MATCH_NONE;
  const b = HASHED_ALIAS;
  const typed = { name: field.name, type: field.def.type };
  const inner = valuePredicate(typed, op, value, `${b}.${sqlIdentifier(storage.column)}`, context.now);
  const keys = expr(
    `SELECT ? || ${b}.${sqlIdentifier(storage.key)} FROM ${sqlIdentifier(storage.table)} ${b} WHERE ${inner.sql}`,
    [storage.keyPrefix ?? "", ...inner.params],
    inner.height + 2,
  );
  const among = (column: string): Expr => expr(`${column} IN (${keys.sql})`, keys.params, keys.height + 1);
  return placeOn([hash], origin, context, {
    leaf: (ids, tables, target) => leafValueCondition(ids, among, tables, target),
    column: among,
  });
}

/** The condition `value` puts on one field (`op` "match" is `field: value`, "exact" `field = value`). */
export function fieldCondition(
  field: FoundField,
  position: number,
  op: MatchOp,
  value: Value,
  context: Context,
): Expr {
  const { storage, type } = field.def;
  if (storage.kind === "absent") return MATCH_NONE;
  // `field.raw: x` (v1) is the unanalysed value: matched whole and as written.
  const effective: MatchOp = field.raw && value.kind === "term" ? "exact" : op;
  const origin = { position, value };
  if (storage.kind === "hashed") return hashedCondition(field, origin, effective, value, context);
  const typed = { name: field.name, type };
  return placeOn([field], origin, context, {
    leaf: (ids, tables, target) => leafCondition(typed, ids, effective, value, tables, target, context.now),
    column: (column) => valuePredicate(typed, effective, value, column, context.now),
  });
}

const exists: Builders = {
  leaf: (ids, tables, target) => leafValueCondition(ids, null, tables, target),
  column: (column) => expr(`${column} IS NOT NULL`, [], 2),
};

/** The fields listed under `prefix.` (an object of the documents), or none. */
function fieldsUnder(context: Context, prefix: string): FoundField[] {
  const lower = `${prefix.toLowerCase()}.`;
  return Object.entries(context.registry.fields)
    .filter(([name]) => name.toLowerCase().startsWith(lower))
    .map(([name, def]) => ({ name, def }));
}

/** `object: *` (`services.tls: *`): some field under the object has a value; null when none is listed. */
export function objectExists(
  prefix: string,
  position: number,
  value: Located,
  context: Context,
): Expr | null {
  const fields = fieldsUnder(context, prefix);
  return fields.length === 0 ? null : placeOn(fields, { position, value }, context, exists);
}

// ---- key/value maps -------------------------------------------------------------------------

const KEY_NAMES = ["key", "name", "unknown.key", "unknown.name"];
const VALUE_NAMES = ["value", "value.headers", "unknown.value"];

/** A map key as its field's last segment: lowercase, `-` and other punctuation as `_` (`content_type`). */
export function mapKeySegment(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9_]/g, "_");
}

interface MapRole {
  map: string;
  role: "key" | "value";
}

/** `headers.key` / `headers.value` (and their spellings) of one of the registry's maps, or null. */
export function mapPseudoField(context: Context, name: string): MapRole | null {
  const lower = name.toLowerCase();
  for (const map of context.registry.maps ?? []) {
    if (!lower.startsWith(`${map.toLowerCase()}.`)) continue;
    const rest = lower.slice(map.length + 1);
    if (KEY_NAMES.includes(rest)) return { map, role: "key" };
    if (VALUE_NAMES.includes(rest)) return { map, role: "value" };
  }
  return null;
}

/** The map whose group `name` is, or null. */
export function mapNamed(context: Context, name: string): string | null {
  return context.registry.maps?.find((map) => map.toLowerCase() === name.toLowerCase()) ?? null;
}

/** The map's entries a key condition names (a key, a wildcard pattern over keys, a set of them). */
function entriesNamed(context: Context, map: string, value: Value): FoundField[] | null {
  const all = fieldsUnder(context, map);
  const byKey = (key: string): FoundField[] => {
    const name = `${map}.${mapKeySegment(key)}`;
    return all.filter((field) => field.name.toLowerCase() === name);
  };
  const byPattern = (pattern: string): FoundField[] => {
    const source = [...pattern]
      .map((char) => (char === "*" ? ".*" : char === "?" ? "." : mapKeySegment(char).replace(/[.]/g, "\\.")))
      .join("");
    const regex = new RegExp(`^${map.toLowerCase().replace(/\./g, "\\.")}\\.${source}$`);
    return all.filter((field) => regex.test(field.name.toLowerCase()));
  };
  switch (value.kind) {
    case "term":
      return byKey(value.text);
    case "wildcard":
      return byPattern(value.pattern.replace(/\\(.)/g, "$1"));
    case "set":
      return value.items.flatMap((item) =>
        item.kind === "term" ? byKey(item.text) : byPattern(item.pattern),
      );
    case "exists":
      return all;
    default:
      return null;
  }
}

/** `headers.key: Server` (an entry with that key) or `headers.value: nginx` (any entry with that value). */
export function mapCondition(
  role: MapRole,
  position: number,
  op: MatchOp,
  value: Value,
  context: Context,
): Expr {
  const origin = { position, value };
  if (role.role === "key") {
    const entries = entriesNamed(context, role.map, value);
    if (entries === null) {
      throw new QueryError(
        `a key of ${quoteToken(role.map)} is a name, a wildcard or a set of names, not ${quoteToken(value.raw)} (at position ${value.position})`,
        value.position,
        value.raw,
      );
    }
    return placeOn(entries, origin, context, exists);
  }
  // Entries of one type share one lookup.
  const byType = new Map<FieldType, FoundField[]>();
  for (const entry of fieldsUnder(context, role.map)) {
    byType.set(entry.def.type, [...(byType.get(entry.def.type) ?? []), entry]);
  }
  const parts = [...byType].map(([type, entries]) => {
    const typed = { name: `${role.map}.value`, type };
    return placeOn(entries, origin, context, {
      leaf: (ids, tables, target) => leafCondition(typed, ids, op, value, tables, target, context.now),
      column: (column) => valuePredicate(typed, op, value, column, context.now),
    });
  });
  return parts.length === 0 ? MATCH_NONE : combine("OR", parts);
}

/** A field node of the group body naming `role` of `map` (relative or in full), or null. */
function roleOf(node: QueryNode, map: string, context: Context): MapRole | null {
  if (node.type !== "field") return null;
  return mapPseudoField(context, `${map}.${node.field}`) ?? mapPseudoField(context, node.field);
}

/**
 * `map: (key: K and value: V and not value: W)`: the value conditions hold for the entry K
 * itself. Any other body reads each key or value condition on its own (as separate fields
 * would); null then, and the caller compiles the body under the map's prefix.
 */
export function mapGroup(map: string, position: number, body: QueryNode, context: Context): Expr | null {
  const conditions = body.type === "and" ? body.children : [body];
  const keys = conditions.filter((node) => roleOf(node, map, context)?.role === "key");
  const values = conditions.filter((node) => !keys.includes(node));
  const [key] = keys;
  if (keys.length !== 1 || key?.type !== "field") return null;
  const valueOf = (node: QueryNode): { negated: boolean; node: QueryNode } | null => {
    const inner = node.type === "not" ? node.child : node;
    return roleOf(inner, map, context)?.role === "value"
      ? { negated: node.type === "not", node: inner }
      : null;
  };
  const tests = values.map(valueOf);
  if (tests.some((test) => test === null)) return null;
  const entries = entriesNamed(context, map, key.value);
  if (entries === null) return null;
  const perEntry = entries.map((entry) => {
    const parts = [placeOn([entry], { position, value: key.value }, context, exists)];
    for (const test of tests) {
      if (test === null || test.node.type !== "field") continue;
      const condition = fieldCondition(entry, test.node.position, test.node.op, test.node.value, context);
      parts.push(test.negated ? negate(condition) : condition);
    }
    return combine("AND", parts);
  });
  return perEntry.length === 0 ? MATCH_NONE : combine("OR", perEntry);
}
