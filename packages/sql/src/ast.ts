/**
 * The syntax tree of a job's SQL: one SELECT (or a UNION ALL of SELECTs) in the dialect Censys
 * users wrote, BigQuery legacy SQL with the standard-SQL forms they mixed in. The parser
 * (`parser.ts`) builds it; the planner (`plan.ts`) binds it to a series schema; nothing here
 * knows about storage.
 *
 * Every node carries `span`: offsets into the query text, so an error can say where it is.
 * Keywords and function names are normalised to upper case; identifiers keep their spelling.
 */

export interface Span {
  /** Offset of the node's first character. */
  start: number;
  /** Offset just past its last character. */
  end: number;
}

// ---- expressions -----------------------------------------------------------------------------

export interface Literal {
  kind: "literal";
  /** Strings (any quoting, raw strings included) are text; numbers are JS numbers. */
  value: string | number | boolean | null;
  span: Span;
}

/**
 * A name as written: `ip` is ["ip"], `location.country` and `` `location.country` `` are
 * ["location", "country"], `a.location.country` is ["a", "location", "country"]. The planner
 * decides which leading parts name a table alias, an UNNEST alias or a field.
 */
export interface ColumnRef {
  kind: "column";
  parts: string[];
  span: Span;
}

/** `*` or `alias.*` as a function argument or select item. */
export interface Star {
  kind: "star";
  qualifier: string[] | null;
  span: Span;
}

export type UnaryOperator = "NOT" | "-" | "+";

export interface Unary {
  kind: "unary";
  op: UnaryOperator;
  operand: Expr;
  span: Span;
}

export type BinaryOperator =
  | "AND"
  | "OR"
  | "="
  | "!="
  | "<"
  | "<="
  | ">"
  | ">="
  | "+"
  | "-"
  | "*"
  | "/"
  | "%"
  | "||"
  /** Legacy SQL: `x CONTAINS 'text'`, a case-sensitive substring test. */
  | "CONTAINS";

export interface Binary {
  kind: "binary";
  op: BinaryOperator;
  left: Expr;
  right: Expr;
  span: Span;
}

/** `x IS [NOT] NULL`. */
export interface IsNull {
  kind: "is_null";
  operand: Expr;
  negated: boolean;
  span: Span;
}

/** `x [NOT] IN (a, b, ...)` or `x [NOT] IN (SELECT ...)`. */
export interface In {
  kind: "in";
  operand: Expr;
  list: Expr[] | null;
  query: Query | null;
  negated: boolean;
  span: Span;
}

/** `x [NOT] BETWEEN a AND b`. */
export interface Between {
  kind: "between";
  operand: Expr;
  low: Expr;
  high: Expr;
  negated: boolean;
  span: Span;
}

/** `x [NOT] LIKE pattern` (`%` and `_`; case-sensitive, as in BigQuery). */
export interface Like {
  kind: "like";
  operand: Expr;
  pattern: Expr;
  negated: boolean;
  span: Span;
}

/**
 * A function call. `name` is upper case. `COUNT(*)` has `star`; `COUNT(DISTINCT x)` has
 * `distinct`. `over` is set when the call has an OVER clause (window functions are refused by
 * the planner, but the parser reads them so the error can name them).
 */
export interface Call {
  kind: "call";
  name: string;
  args: Expr[];
  distinct: boolean;
  star: boolean;
  over: boolean;
  span: Span;
}

/** `CASE [operand] WHEN ... THEN ... [ELSE ...] END`. */
export interface Case {
  kind: "case";
  operand: Expr | null;
  whens: { when: Expr; then: Expr }[];
  otherwise: Expr | null;
  span: Span;
}

/** `CAST(x AS TYPE)` / `SAFE_CAST(x AS TYPE)`; `type` upper case (STRING, INT64, FLOAT64, ...). */
export interface Cast {
  kind: "cast";
  operand: Expr;
  type: string;
  safe: boolean;
  span: Span;
}

/** A parenthesised SELECT used as a value. */
export interface ScalarSubquery {
  kind: "subquery";
  query: Query;
  span: Span;
}

export interface Exists {
  kind: "exists";
  query: Query;
  span: Span;
}

export type Expr =
  | Literal
  | ColumnRef
  | Star
  | Unary
  | Binary
  | IsNull
  | In
  | Between
  | Like
  | Call
  | Case
  | Cast
  | ScalarSubquery
  | Exists;

// ---- FROM ------------------------------------------------------------------------------------

/**
 * A table as written, with its quoting removed: `ipv4.20261031`, `[ipv4.20261031]`,
 * `` `ipv4.20261031` `` and `"ipv4.20261031"` all give name "ipv4.20261031"; `ipv4` and
 * `certificates.certificates` are kept as written for the catalog to resolve.
 */
export interface TableRef {
  kind: "table";
  name: string;
  alias: string | null;
  span: Span;
}

export interface DerivedTable {
  kind: "derived";
  query: Query;
  alias: string | null;
  span: Span;
}

/** Standard SQL `UNNEST(path) [AS] alias [WITH OFFSET [AS] name]`, after a comma or JOIN. */
export interface Unnest {
  kind: "unnest";
  path: ColumnRef;
  alias: string | null;
  offsetAlias: string | null;
  span: Span;
}

/** Legacy SQL `FLATTEN(source, field)`: one row per element of the repeated `field`. */
export interface Flatten {
  kind: "flatten";
  source: FromItem;
  field: ColumnRef;
  alias: string | null;
  span: Span;
}

export type JoinType = "INNER" | "LEFT" | "RIGHT" | "FULL" | "CROSS" | "COMMA";

/** `left <type> JOIN right [ON cond | USING (a, b)]`; a comma in FROM is type COMMA. */
export interface Join {
  kind: "join";
  type: JoinType;
  left: FromItem;
  right: FromItem;
  on: Expr | null;
  using: string[] | null;
  span: Span;
}

export type FromItem = TableRef | DerivedTable | Unnest | Flatten | Join;

// ---- queries ---------------------------------------------------------------------------------

export type SelectItem =
  | { kind: "all"; qualifier: string[] | null; span: Span }
  | { kind: "expr"; expr: Expr; alias: string | null; span: Span };

export interface OrderItem {
  expr: Expr;
  descending: boolean;
  /** `NULLS FIRST` / `NULLS LAST`, or null for the default (nulls first ascending, last descending). */
  nulls: "FIRST" | "LAST" | null;
}

export interface Select {
  kind: "select";
  distinct: boolean;
  items: SelectItem[];
  from: FromItem | null;
  where: Expr | null;
  /** `GROUP BY` (legacy `GROUP EACH BY` too); an integer literal is an ordinal of the select list. */
  groupBy: Expr[];
  having: Expr | null;
  /** An integer literal is an ordinal of the select list. */
  orderBy: OrderItem[];
  limit: number | null;
  offset: number | null;
  span: Span;
}

/** `a UNION ALL b` / `a UNION DISTINCT b` (plain UNION is DISTINCT); ORDER BY/LIMIT apply to the whole. */
export interface SetOperation {
  kind: "union";
  distinct: boolean;
  queries: Query[];
  orderBy: OrderItem[];
  limit: number | null;
  offset: number | null;
  span: Span;
}

export type Query = Select | SetOperation;
