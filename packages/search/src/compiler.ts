import type { QueryNode, TermValue, Value, WildcardValue, RegexValue } from "./ast";
import { SCOPE_ALIAS, countParams, sqlIdentifier, type Context, type ScopeRow } from "./compile-context";
import {
  fieldCondition,
  mapCondition,
  mapGroup,
  mapNamed,
  mapPseudoField,
  objectExists,
} from "./field-conditions";
import { findField, unknownFieldMessage } from "./field-lookup";
import { ftsString, trailingWildcardPrefix } from "./patterns";
import type { MatchOp } from "./predicates";
import { QueryError, catchQueryError, quoteToken, type QueryResult } from "./query-error";
import { type IndexRegistry, ownEntry } from "./registry";
import {
  MATCH_ALL,
  MATCH_NONE,
  MAX_SQL_HEIGHT,
  combine,
  expr,
  inSubquery,
  negate,
  type Expr,
  type SqlFragment,
} from "./sql-expr";

/** Bound values one compiled query may use: D1 allows 100 per statement, and the caller's
 * statement adds its own (LIMIT, cursor, bucket count). */
export const MAX_QUERY_PARAMS = 90;

export interface CompileOptions {
  /** The instant `now` in date math means (default: the current time). */
  now?: Date;
  /** Alias of the root table in the caller's statement (default `r`). */
  rootAlias?: string;
  /** At most this many bound values (default MAX_QUERY_PARAMS). */
  maxParams?: number;
  /**
   * Read the query against one row of a nested scope instead of the whole document: every
   * condition on a field of `scope` (inside `scope: (...)` or not) tests the row aliased
   * `alias` in the caller's statement, rather than "some row of the document". Conditions on
   * the document's own fields still test the root row. The caller joins that row to its root
   * row (`scope.key = root.key`). This is what narrows a document's services to the ones the
   * query's service conditions hold for (the Platform's `matched_services`, and aggregates
   * with `filter_by_query`).
   */
  scopeRow?: { scope: string; alias: string };
}

export { sqlIdentifier };

/**
 * Compile a parsed query to a boolean SQL expression over the root table (aliased `r`). Values
 * are always bound parameters; only registry identifiers appear in the SQL text.
 */
export function compileQuery(
  query: QueryNode,
  registry: IndexRegistry,
  options: CompileOptions = {},
): QueryResult<SqlFragment> {
  return catchQueryError(() => {
    const context: Context = {
      registry,
      root: sqlIdentifier(options.rootAlias ?? "r"),
      now: (options.now ?? new Date()).getTime(),
      maxParams: options.maxParams ?? MAX_QUERY_PARAMS,
      prefix: null,
      scope: null,
      scopeRow: pinnedRow(registry, options.scopeRow),
      paramCount: 0,
    };
    const compiled = compileNode(query, context);
    if (compiled.height > MAX_SQL_HEIGHT) {
      throw new QueryError("query is too complex to run: simplify its nesting or split it", 0, "");
    }
    return { sql: compiled.sql, params: compiled.params };
  });
}

function pinnedRow(registry: IndexRegistry, pinned: CompileOptions["scopeRow"]): ScopeRow | null {
  if (pinned === undefined) return null;
  const def = ownEntry(registry.scopes, pinned.scope);
  if (def === undefined) throw new Error(`registry ${registry.name} has no scope ${pinned.scope}`);
  const alias = sqlIdentifier(pinned.alias);
  if (["v", SCOPE_ALIAS, "w", "rx", "b"].includes(alias))
    throw new Error(`the scope row alias ${alias} is one the compiled subqueries use`);
  return { name: pinned.scope, def, alias };
}

function compileNode(node: QueryNode, context: Context): Expr {
  switch (node.type) {
    case "all":
      return MATCH_ALL;
    case "and": {
      const parts = node.children
        .map((child) => compileNode(child, context))
        .filter((part) => part !== MATCH_ALL);
      if (parts.includes(MATCH_NONE)) return MATCH_NONE;
      return parts.length === 0 ? MATCH_ALL : combine("AND", parts);
    }
    case "or": {
      const parts = node.children
        .map((child) => compileNode(child, context))
        .filter((part) => part !== MATCH_NONE);
      if (parts.includes(MATCH_ALL)) return MATCH_ALL;
      return parts.length === 0 ? MATCH_NONE : combine("OR", parts);
    }
    case "not":
      return negate(compileNode(node.child, context));
    case "field":
      return compileField(node.field, node.position, node.op, node.value, context);
    case "text":
      return compileBareTerm(node.value, context);
    case "group":
      return compileGroup(node.field, node.position, node.body, context);
  }
}

function compileGroup(field: string, position: number, body: QueryNode, context: Context): Expr {
  const full = context.prefix === null ? field : `${context.prefix}.${field}`;
  const map = mapNamed(context, full) ?? mapNamed(context, field);
  if (map !== null)
    return mapGroup(map, position, body, context) ?? compileNode(body, { ...context, prefix: map });
  const scopeName = [full, field].find((name) => ownEntry(context.registry.scopes, name) !== undefined);
  const scopeDef = scopeName === undefined ? undefined : ownEntry(context.registry.scopes, scopeName);
  if (scopeName === undefined || scopeDef === undefined)
    return compileNode(body, { ...context, prefix: full });
  if (context.scope !== null) {
    if (context.scope.name === scopeName) return compileNode(body, context);
    throw new QueryError(
      `${quoteToken(field)} cannot be nested inside ${context.scope.name}: (...) at position ${position}`,
      position,
      field,
    );
  }
  // The pinned row: the group's conditions hold for that row itself.
  if (context.scopeRow?.name === scopeName)
    return compileNode(body, { ...context, prefix: scopeName, scope: context.scopeRow });
  const inner = compileNode(body, {
    ...context,
    prefix: scopeName,
    scope: { name: scopeName, def: scopeDef, alias: SCOPE_ALIAS },
  });
  return inSubquery(
    `${context.root}.${sqlIdentifier(context.registry.root.key)}`,
    `${SCOPE_ALIAS}.${sqlIdentifier(scopeDef.key)}`,
    `${sqlIdentifier(scopeDef.table)} ${SCOPE_ALIAS}`,
    inner,
  );
}

function compileField(name: string, position: number, op: MatchOp, value: Value, context: Context): Expr {
  // `services: *`: the document has at least one row of the scope.
  if (value.kind === "exists" && context.scope === null && context.prefix === null) {
    const scope = ownEntry(context.registry.scopes, name);
    if (scope) return compileGroup(name, position, { type: "all" }, context);
  }
  const candidates = context.prefix === null ? [name] : [`${context.prefix}.${name}`, name];
  for (const candidate of candidates) {
    const role = mapPseudoField(context, candidate);
    if (role !== null) return mapCondition(role, position, op, value, context);
    const found = findField(context.registry, candidate);
    if (found) return fieldCondition(found, position, op, value, context);
  }
  // `services.tls: *`: an object of the documents has some field with a value.
  if (value.kind === "exists") {
    for (const candidate of candidates) {
      const any = objectExists(candidate, position, value, context);
      if (any !== null) return any;
    }
  }
  const shown = candidates[0] ?? name;
  throw new QueryError(unknownFieldMessage(context.registry, shown, position), position, name);
}

/** A bare term: a value of the enclosing group's field, or else a full-text search. */
function compileBareTerm(value: TermValue | WildcardValue | RegexValue, context: Context): Expr {
  if (context.prefix !== null) {
    const field = findField(context.registry, context.prefix);
    if (field) return fieldCondition(field, value.position, "match", value, context);
    throw new QueryError(
      `the bare term ${quoteToken(value.raw)} at position ${value.position} needs a field inside ${context.prefix}: (...), like ${context.prefix}: (field: ${value.raw})`,
      value.position,
      value.raw,
    );
  }
  const fullText = context.registry.fullText;
  if (!fullText) {
    throw new QueryError(
      `full-text search is not available on the ${context.registry.name} index: name a field for ${quoteToken(value.raw)} at position ${value.position}`,
      value.position,
      value.raw,
    );
  }
  const table = sqlIdentifier(fullText.table);
  const match = countParams(expr("", [fullTextMatch(value)], 1), value, context);
  return expr(
    `${context.root}.rowid IN (SELECT rowid FROM ${table} WHERE ${table} MATCH ?)`,
    match.params,
    3,
  );
}

/** The FTS5 query string for a bare term: one quoted phrase, with an optional prefix `*`. */
function fullTextMatch(value: TermValue | WildcardValue | RegexValue): string {
  if (value.kind === "regex") {
    throw new QueryError(
      `a regular expression needs a field, like field: ${value.raw}, at position ${value.position}`,
      value.position,
      value.raw,
    );
  }
  if (value.kind === "wildcard") {
    const prefix = trailingWildcardPrefix(value.pattern);
    if (prefix === null || prefix.trim() === "") {
      throw new QueryError(
        `full-text terms take only a trailing * wildcard (like ngin*): ${quoteToken(value.raw)} at position ${value.position}`,
        value.position,
        value.raw,
      );
    }
    return `${ftsString(prefix)}*`;
  }
  if (value.text.trim() === "") {
    throw new QueryError(`empty search term at position ${value.position}`, value.position, value.raw);
  }
  return ftsString(value.text);
}
