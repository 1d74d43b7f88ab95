/**
 * The syntax tree every dialect (v1, v2 and CenQL) parses into. Dialect differences (implicit OR vs AND, `+`/`-`
 * occurrence rules) are resolved by the parser, so the compiler sees plain boolean logic.
 *
 * Every leaf keeps `position` (0-based offset in the query text) and `raw` (its source text)
 * so the compiler can point at the token when a field or value is wrong.
 */
export type Dialect = "v1" | "v2" | "cenql";

/** A plain value: an unquoted word (escapes resolved) or a "phrase" / `backtick` literal. */
export interface TermValue {
  kind: "term";
  text: string;
  quoted: boolean;
  position: number;
  raw: string;
}

/**
 * An unquoted word with unescaped `*` or `?`. `pattern` keeps those two as wildcards; a literal
 * `*`, `?` or `\` in it is written with a backslash before it (`a\*b*` = "a*b" then anything).
 */
export interface WildcardValue {
  kind: "wildcard";
  pattern: string;
  position: number;
  raw: string;
}

/**
 * `/source/` (v1, v2): the regular expression between the slashes, `\/` turned into `/`; or
 * CenQL's `field =~ "source"` (the quoted string's escapes resolved).
 */
export interface RegexValue {
  kind: "regex";
  source: string;
  position: number;
  raw: string;
}

export interface RangeBound {
  value: TermValue;
  inclusive: boolean;
}

/** `[a TO b]`, `{a TO b}`, mixed brackets, `*` ends (null), and `> a` style comparisons. */
export interface RangeValue {
  kind: "range";
  lower: RangeBound | null;
  upper: RangeBound | null;
  position: number;
  raw: string;
}

/** `{22, 80, 443}` (v2): matches any item. */
export interface SetValue {
  kind: "set";
  items: (TermValue | WildcardValue)[];
  position: number;
  raw: string;
}

/** `field: *`: the field has a value. */
export interface ExistsValue {
  kind: "exists";
  position: number;
  raw: string;
}

export type Value = TermValue | WildcardValue | RegexValue | RangeValue | SetValue | ExistsValue;

export type QueryNode =
  /** Empty query, `*` or `*:*`. */
  | { type: "all" }
  | { type: "and"; children: QueryNode[] }
  | { type: "or"; children: QueryNode[] }
  | { type: "not"; child: QueryNode }
  /** `field: value` (op "match", case-insensitive) or `field = value` (op "exact"). */
  | { type: "field"; field: string; position: number; op: "match" | "exact"; value: Value }
  /** A bare term: full-text search, or a value of the enclosing group's field. */
  | { type: "text"; value: TermValue | WildcardValue | RegexValue }
  /**
   * `field: ( ... )`: inner field names are relative to `field`, and bare terms inside are
   * values of `field`. When `field` is a scope (services), every condition inside applies to
   * the same scope row. `same_service(...)` parses to the group of `services`.
   */
  | { type: "group"; field: string; position: number; body: QueryNode };

export function andOf(children: QueryNode[]): QueryNode {
  const flat = children.flatMap((child) => (child.type === "and" ? child.children : [child]));
  return flat.length === 1 && flat[0] ? flat[0] : { type: "and", children: flat };
}

export function orOf(children: QueryNode[]): QueryNode {
  const flat = children.flatMap((child) => (child.type === "or" ? child.children : [child]));
  return flat.length === 1 && flat[0] ? flat[0] : { type: "or", children: flat };
}
