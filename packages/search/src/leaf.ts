import type { TermValue, Value, WildcardValue } from "./ast";
import { sqlIdentifier } from "./compiler";
import { MAX_PATTERN_BYTES, byteLength, escapeLike, wildcardToLike } from "./patterns";
import { checkPattern, contains, like, valuePredicate, type MatchOp, type TypedField } from "./predicates";
import type { LeafTables } from "./registry";
import { combine, expr, inSubquery, type Expr } from "./sql-expr";

/**
 * The words of a text value, as text fields are indexed and matched: runs of letters, digits
 * and underscores, lowercased. `ASN-TELSTRA` holds `asn` and `telstra`; `DigiCert Inc` holds
 * `digicert` and `inc`. The seeder writes these words and the compiler looks them up, so both
 * sides use this one function.
 */
export function textWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/** Words of a term used to narrow the candidate values through the word index. */
const NARROWING_WORDS = 3;

const VALUES_ALIAS = "v";
const WORDS_ALIAS = "w";
const VALUE = `${VALUES_ALIAS}.value`;

/** Which rows a leaf condition selects: root rows (`column` doc) or scope rows (`column` scope). */
export interface LeafTarget {
  /** The outer table's rowid, e.g. `r.rowid` or `s.rowid`. */
  outer: string;
  column: "doc" | "scope";
}

interface LeafContext {
  field: TypedField;
  /** The catalogue id, or several (one condition over any of those fields). */
  id: number | readonly number[];
  tables: LeafTables;
  target: LeafTarget;
  now: number;
}

/**
 * `alias.field = 7`, or for several fields `alias.field IN (1, 2, 3)`: catalogue ids are
 * integers the registry holds, never query text, so they are written into the SQL and the
 * statement's bound values (D1 allows 100) are left to the query's own values. A field that
 * stands for several leaves (`web.endpoints.http.status_code`, one per endpoint) costs one.
 */
function fieldIs(alias: string, id: number | readonly number[]): Expr {
  const ids = typeof id === "number" ? [id] : id;
  if (!ids.every((one) => Number.isSafeInteger(one))) throw new Error("catalogue ids must be integers");
  return ids.length === 1
    ? expr(`${alias}.field = ${ids[0]}`, [], 2)
    : expr(`${alias}.field IN (${ids.join(", ")})`, [], 2);
}

/**
 * The condition that `value` puts on one leaf field, as `outer IN (SELECT ...)` subqueries over
 * the leaf tables (each an index range on the field). Text fields match words through the word
 * table; everything else is the ordinary predicate on the stored value.
 */
export function leafCondition(
  field: TypedField,
  id: number | readonly number[],
  op: MatchOp,
  value: Value,
  tables: LeafTables,
  target: LeafTarget,
  now: number,
): Expr {
  return condition({ field, id, tables, target, now }, op, value);
}

function condition(context: LeafContext, op: MatchOp, value: Value): Expr {
  if (context.field.type === "text" && op === "match") {
    if (value.kind === "term") return wordMatch(context, value);
    // One word's pattern (`ngin*`) looks words up; a pattern with other characters
    // (`https://cfx.re/join/*`) reads the values, as a text column's wildcard does.
    if (value.kind === "wildcard" && /^[\p{L}\p{N}_*?]+$/u.test(value.pattern))
      return withWord(context, "LIKE ? ESCAPE '\\'", wordPattern(value));
    if (value.kind === "set")
      return combine(
        "OR",
        value.items.map((item) => condition(context, op, item)),
      );
  }
  return withValue(context, valuePredicate(context.field, op, value, VALUE, context.now));
}

/**
 * The rows `target` selects where one of the fields `id` holds a value `predicate` (built on
 * the value column) accepts; `predicate` null for any value at all.
 */
export function leafValueCondition(
  id: number | readonly number[],
  predicate: ((column: string) => Expr) | null,
  tables: LeafTables,
  target: LeafTarget,
): Expr {
  const test = fieldIs(VALUES_ALIAS, id);
  return inSubquery(
    target.outer,
    `${VALUES_ALIAS}.${target.column}`,
    `${sqlIdentifier(tables.values)} ${VALUES_ALIAS}`,
    predicate === null ? test : combine("AND", [test, predicate(VALUE)]),
  );
}

function withValue({ id, tables, target }: LeafContext, predicate: Expr): Expr {
  return leafValueCondition(id, () => predicate, tables, target);
}

function withWord({ id, tables, target }: LeafContext, test: string, param: string): Expr {
  const field = fieldIs(WORDS_ALIAS, id);
  return inSubquery(
    target.outer,
    `${WORDS_ALIAS}.${target.column}`,
    `${sqlIdentifier(tables.words)} ${WORDS_ALIAS}`,
    expr(`${field.sql} AND ${WORDS_ALIAS}.word ${test}`, [...field.params, param], 3),
  );
}

/**
 * `field: DigiCert` matches values holding the word; a quoted phrase matches values holding
 * its words in order. The longest (likely rarest) words are looked up in the word index, and
 * only a phrase checks the order on the field's values.
 */
function wordMatch(context: LeafContext, term: TermValue): Expr {
  const words = textWords(term.text);
  // Nothing word-like to look up (`field: "-"`): the text anywhere in this field's values.
  if (words.length === 0) return withValue(context, contains(VALUE, term.text));
  const narrowing = [...new Set(words)].sort((a, b) => b.length - a.length).slice(0, NARROWING_WORDS);
  const parts = narrowing.map((word) => withWord(context, "= ?", word));
  if (words.length > 1) parts.push(withValue(context, phraseOrder(words, term.text)));
  return combine("AND", parts);
}

/** The phrase's words in order; past D1's LIKE pattern limit, the text as written. */
function phraseOrder(words: string[], text: string): Expr {
  const pattern = `%${words.map(escapeLike).join("%")}%`;
  if (byteLength(pattern) <= MAX_PATTERN_BYTES) return like(VALUE, pattern);
  return expr(`instr(lower(${VALUE}), lower(?)) > 0`, [text], 4);
}

/** `field: Digi*`: a word matching the pattern (words are stored lowercased). */
function wordPattern(value: WildcardValue): string {
  return checkPattern(wildcardToLike(value.pattern.toLowerCase()), value);
}
