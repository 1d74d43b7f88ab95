import {
  isAllowedAggregate,
  isAllowedCastType,
  isAllowedCollation,
  isAllowedFunction,
  isAllowedTableFunction,
} from "./sql-functions";

/**
 * The allow-list walk of a parsed query (node-sql-parser's SQLite tree): every statement,
 * clause and expression kind it meets must be one reviewed here, every function allowed
 * (sql-functions.ts), and every table reference a published snapshot table or a CTE in scope.
 * Anything else, including syntax added by a later parser version, is refused.
 */

/** Why the guard refused a query (shown to the client as `detail`). */
export class Rejected extends Error {}

export function reject(reason: string): never {
  throw new Rejected(reason);
}

export type Node = Record<string, unknown>;

export function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asNode(value: unknown, what: string): Node {
  if (!isNode(value)) reject(`unsupported ${what}`);
  return value;
}

function asArray(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) reject(`unsupported ${what}`);
  return value;
}

/** Keys a node may carry with a non-empty value; anything else is syntax we have not reviewed. */
function onlyKeys(node: Node, allowed: readonly string[], what: string): void {
  for (const [key, value] of Object.entries(node)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "loc" || key === "parentheses") continue;
    if (!allowed.includes(key)) reject(`unsupported ${what} (${key})`);
  }
}

/** Space-separated names, so the lists read as lists. */
const words = (...lines: string[]) => lines.flatMap((line) => line.split(" "));

// ---- statements ------------------------------------------------------------------------------

interface Walk {
  published: ReadonlySet<string>;
  tables: Set<string>;
}

const SELECT_KEYS = words(
  "type with options distinct columns from where groupby having orderby limit _next set_op",
  "for_update collate parentheses_symbol _parentheses",
);

function visitSelect(value: unknown, scope: ReadonlySet<string>, walk: Walk): void {
  const node = asNode(value, "statement");
  if (node.type !== "select") reject("only SELECT statements are allowed");
  onlyKeys(node, SELECT_KEYS, "SELECT clause");
  if (node.options !== null && node.options !== undefined) reject("SELECT options are not allowed");
  if (node.for_update !== null && node.for_update !== undefined) reject("FOR UPDATE is not allowed");
  if (node.distinct !== null && node.distinct !== undefined && node.distinct !== "DISTINCT") {
    const distinct = asNode(node.distinct, "DISTINCT");
    if (distinct.type !== "DISTINCT") reject("unsupported DISTINCT");
  }

  const visible = new Set(scope);
  if (node.with) {
    // A CTE body sees only the CTEs before it. A self-reference (recursion: SQLite needs no
    // RECURSIVE keyword for it) or a forward reference is treated as a table name, so it is
    // refused unless published, and a CTE may not take a published table's name. Recursion
    // is refused because it can run without end.
    for (const entry of asArray(node.with, "WITH")) {
      const cte = asNode(entry, "WITH");
      onlyKeys(cte, ["name", "stmt", "columns"], "WITH");
      const name = cteName(cte.name);
      if (walk.published.has(name)) reject(`a CTE may not be named ${name}`);
      visitSubquery(cte.stmt, visible, walk);
      visible.add(name);
    }
  }

  for (const column of asArray(node.columns, "column list")) visitResultColumn(column, visible, walk);
  if (node.from) {
    for (const item of asArray(node.from, "FROM")) visitFromItem(item, visible, walk);
  }
  if (node.where) visitExpr(node.where, visible, walk);
  if (node.groupby) {
    const groupBy = asNode(node.groupby, "GROUP BY");
    onlyKeys(groupBy, ["columns"], "GROUP BY");
    for (const expr of asArray(groupBy.columns ?? [], "GROUP BY")) visitExpr(expr, visible, walk);
  }
  if (node.having) visitExpr(node.having, visible, walk);
  if (node.orderby) visitOrderBy(node.orderby, visible, walk);
  if (node.limit) {
    const limit = asNode(node.limit, "LIMIT");
    onlyKeys(limit, ["seperator", "value"], "LIMIT");
    for (const expr of asArray(limit.value, "LIMIT")) visitExpr(expr, visible, walk);
  }
  if (node.collate) visitCollate(node.collate);
  if (node._next) {
    if (node.set_op !== "union" && node.set_op !== "union all") reject("unsupported set operation");
    visitSelect(node._next, scope, walk);
  }
}

function cteName(value: unknown): string {
  const name = asNode(value, "CTE name");
  if (typeof name.value !== "string" || name.value.length === 0) reject("unsupported CTE name");
  return name.value.toLowerCase();
}

/** `(SELECT ...)`: the parser wraps a nested statement as `{tableList, columnList, ast}`. */
function visitSubquery(value: unknown, scope: ReadonlySet<string>, walk: Walk): void {
  const wrapper = asNode(value, "subquery");
  if (wrapper.ast === undefined) reject("unsupported subquery");
  onlyKeys(wrapper, ["tableList", "columnList", "ast"], "subquery");
  visitSelect(wrapper.ast, scope, walk);
}

function visitResultColumn(value: unknown, scope: ReadonlySet<string>, walk: Walk): void {
  const column = asNode(value, "result column");
  if (column.type === "column_ref" || column.type === "star") return visitExpr(column, scope, walk);
  onlyKeys(column, ["expr", "as"], "result column");
  checkAlias(column.as);
  visitExpr(column.expr, scope, walk);
}

/**
 * The parser reads `x NOTNULL` and `t NATURAL JOIN u` as aliases named NOTNULL and NATURAL,
 * which would silently change the query's meaning; a keyword as an alias is refused instead.
 */
const KEYWORD_ALIASES = new Set(
  words(
    "natural cross inner outer left right full join notnull isnull escape window filter",
    "intersect except nulls using on indexed",
  ),
);

function checkAlias(alias: unknown): void {
  if (alias === null || alias === undefined) return;
  if (typeof alias !== "string") reject("unsupported alias");
  if (KEYWORD_ALIASES.has(alias.toLowerCase())) reject(`${alias} is not supported here`);
}

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function visitFromItem(value: unknown, scope: ReadonlySet<string>, walk: Walk): void {
  const item = asNode(value, "FROM item");
  onlyKeys(item, ["db", "table", "as", "join", "on", "using", "expr"], "FROM item");
  checkAlias(item.as);
  if (item.join !== undefined && item.join !== null) {
    if (
      typeof item.join !== "string" ||
      !["INNER JOIN", "LEFT JOIN", "LEFT OUTER JOIN", "JOIN"].includes(item.join)
    ) {
      reject("unsupported join");
    }
  }
  if (item.db !== null && item.db !== undefined) reject("schema-qualified tables are not allowed");
  if (typeof item.table === "string") {
    if (item.expr) reject("unsupported FROM item");
    const table = item.table.toLowerCase();
    if (!scope.has(table)) {
      if (!walk.published.has(table)) reject(`${item.table} is not a published snapshot table`);
      walk.tables.add(table);
    }
  } else if (isNode(item.expr)) {
    const expr = item.expr;
    if (expr.type === "function") {
      const name = functionName(expr);
      if (!isAllowedTableFunction(name)) reject(`${name} is not allowed in FROM`);
      onlyKeys(expr, ["type", "name", "args"], "table function");
      visitArgs(expr.args, scope, walk);
    } else {
      visitSubquery(expr, scope, walk);
    }
  } else {
    reject("unsupported FROM item");
  }
  if (item.on) visitExpr(item.on, scope, walk);
  if (item.using) {
    // The regenerator writes USING names without quotes: only plain names may pass.
    for (const entry of asArray(item.using, "USING")) {
      const name = isNode(entry) ? entry.value : entry;
      if (typeof name !== "string" || !PLAIN_NAME.test(name)) reject("USING takes plain column names");
    }
  }
}

function visitOrderBy(value: unknown, scope: ReadonlySet<string>, walk: Walk): void {
  for (const entry of asArray(value, "ORDER BY")) {
    const item = asNode(entry, "ORDER BY");
    onlyKeys(item, ["expr", "type", "nulls"], "ORDER BY");
    if (item.type !== null && item.type !== undefined && item.type !== "ASC" && item.type !== "DESC") {
      reject("unsupported ORDER BY");
    }
    visitExpr(item.expr, scope, walk);
  }
}

function visitCollate(value: unknown): void {
  const collate = asNode(value, "COLLATE");
  const inner = asNode(collate.collate, "COLLATE");
  if (typeof inner.name !== "string" || !isAllowedCollation(inner.name)) reject("unsupported collation");
}

// ---- expressions -----------------------------------------------------------------------------

const BINARY_OPERATORS = new Set([
  "+",
  "-",
  "*",
  "/",
  "%",
  "||",
  "=",
  "==",
  "!=",
  "<>",
  "<",
  "<=",
  ">",
  ">=",
  "AND",
  "OR",
  "IS",
  "IS NOT",
  "IN",
  "NOT IN",
  "LIKE",
  "NOT LIKE",
  "GLOB",
  "NOT GLOB",
  "BETWEEN",
  "NOT BETWEEN",
  "&",
  "|",
  "<<",
  ">>",
  "->",
  "->>",
  "REGEXP",
  "NOT REGEXP",
]);
const UNARY_OPERATORS = new Set(["-", "+", "NOT", "~", "!"]);
const LITERALS = new Set(
  words(
    "number bool null single_quote_string double_quote_string backticks_quote_string",
    "hex_string full_hex_string bit_string natural_string string star",
  ),
);

function functionName(node: Node): string {
  const name = asNode(node.name, "function name");
  const parts = asArray(name.name, "function name");
  if (parts.length !== 1) reject("schema-qualified functions are not allowed");
  const part = asNode(parts[0], "function name");
  if (typeof part.value !== "string") reject("unsupported function name");
  return part.value;
}

function visitArgs(value: unknown, scope: ReadonlySet<string>, walk: Walk): void {
  if (value === null || value === undefined) return;
  const args = asNode(value, "arguments");
  if (args.type !== "expr_list") reject("unsupported arguments");
  visitExpr(args, scope, walk);
}

function visitWindow(value: unknown, scope: ReadonlySet<string>, walk: Walk): void {
  if (value === null || value === undefined) return;
  const over = asNode(value, "OVER");
  onlyKeys(over, ["type", "as_window_specification", "partitionby", "orderby"], "OVER");
  const spec = isNode(over.as_window_specification) ? over.as_window_specification : over;
  const inner = isNode(spec.window_specification) ? spec.window_specification : spec;
  onlyKeys(
    inner,
    ["type", "as_window_specification", "window_specification", "name", "partitionby", "orderby"],
    "OVER",
  );
  if (inner.name) reject("named windows are not supported");
  if (inner.partitionby) {
    for (const entry of asArray(inner.partitionby, "PARTITION BY")) {
      const item = asNode(entry, "PARTITION BY");
      visitExpr(item.expr ?? item, scope, walk);
    }
  }
  if (inner.orderby) visitOrderBy(inner.orderby, scope, walk);
}

function visitExpr(value: unknown, scope: ReadonlySet<string>, walk: Walk): void {
  const node = asNode(value, "expression");
  if (node.ast !== undefined) return visitSubquery(node, scope, walk);
  const type = node.type;
  if (typeof type !== "string") reject("unsupported expression");
  if (LITERALS.has(type)) return;
  switch (type) {
    case "column_ref": {
      onlyKeys(node, ["type", "table", "column", "collate"], "column reference");
      if (typeof node.column !== "string") reject("unsupported column reference");
      if (node.table !== null && node.table !== undefined && typeof node.table !== "string") {
        reject("unsupported column reference");
      }
      if (node.collate) visitCollate(node.collate);
      return;
    }
    case "binary_expr": {
      onlyKeys(node, ["type", "operator", "left", "right"], "operator");
      if (!BINARY_OPERATORS.has(String(node.operator).toUpperCase()))
        reject(`operator ${String(node.operator)} is not allowed`);
      visitExpr(node.left, scope, walk);
      return visitExpr(node.right, scope, walk);
    }
    case "unary_expr": {
      onlyKeys(node, ["type", "operator", "expr"], "operator");
      if (!UNARY_OPERATORS.has(String(node.operator).toUpperCase()))
        reject(`operator ${String(node.operator)} is not allowed`);
      return visitExpr(node.expr, scope, walk);
    }
    case "expr_list": {
      onlyKeys(node, ["type", "value", "separator"], "list");
      for (const item of asArray(node.value, "list")) visitExpr(item, scope, walk);
      return;
    }
    case "function": {
      onlyKeys(node, ["type", "name", "args", "over"], "function call");
      const name = functionName(node);
      // EXISTS (SELECT ...) arrives as a function named EXISTS.
      if (name.toUpperCase() !== "EXISTS" && !isAllowedFunction(name))
        reject(`function ${name} is not allowed`);
      visitArgs(node.args, scope, walk);
      return visitWindow(node.over, scope, walk);
    }
    case "aggr_func": {
      onlyKeys(node, ["type", "name", "args", "over"], "aggregate");
      if (typeof node.name !== "string" || !isAllowedAggregate(node.name))
        reject(`function ${String(node.name)} is not allowed`);
      const args = asNode(node.args, "aggregate arguments");
      onlyKeys(args, ["expr", "distinct", "orderby", "separator"], "aggregate arguments");
      visitExpr(args.expr, scope, walk);
      if (args.orderby) visitOrderBy(args.orderby, scope, walk);
      if (args.separator) {
        const separator = asNode(args.separator, "separator");
        if (separator.value !== undefined) visitExpr(separator.value, scope, walk);
      }
      return visitWindow(node.over, scope, walk);
    }
    case "case": {
      onlyKeys(node, ["type", "expr", "args"], "CASE");
      if (node.expr) visitExpr(node.expr, scope, walk);
      for (const entry of asArray(node.args, "CASE")) {
        const branch = asNode(entry, "CASE");
        onlyKeys(branch, ["type", "cond", "result"], "CASE");
        if (branch.type !== "when" && branch.type !== "else") reject("unsupported CASE");
        if (branch.cond) visitExpr(branch.cond, scope, walk);
        visitExpr(branch.result, scope, walk);
      }
      return;
    }
    case "cast": {
      onlyKeys(node, ["type", "keyword", "expr", "symbol", "target"], "CAST");
      for (const entry of asArray(node.target, "CAST")) {
        const target = asNode(entry, "CAST");
        onlyKeys(target, ["dataType", "suffix", "length", "scale"], "CAST");
        if (typeof target.dataType !== "string" || !isAllowedCastType(target.dataType))
          reject("unsupported CAST type");
      }
      return visitExpr(node.expr, scope, walk);
    }
    default:
      return reject(`unsupported expression (${type})`);
  }
}

/** The published tables `tree` reads, lowercase; throws Rejected for anything not allowed. */
export function readTables(tree: Node, published: ReadonlySet<string>): string[] {
  const walk: Walk = { published, tables: new Set() };
  visitSelect(tree, new Set(), walk);
  return [...walk.tables].sort();
}
