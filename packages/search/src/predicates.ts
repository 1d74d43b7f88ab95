import type { RangeBound, RangeValue, RegexValue, SetValue, TermValue, Value, WildcardValue } from "./ast";
import { parseTimeInterval } from "./dates";
import { looksLikeIpv6, parseIpv4Range } from "./ipv4";
import {
  MAX_PATTERN_BYTES,
  byteLength,
  escapeLike,
  wildcardSegments,
  wildcardToGlob,
  wildcardToLike,
} from "./patterns";
import { regexToGlobs } from "./regex-globs";
import { QueryError, quoteToken } from "./query-error";
import type { FieldType } from "./registry";
import { combine, expr, type Expr, type SqlParam } from "./sql-expr";

/** A field as the predicates see it: its full name (for messages) and its type. */
export interface TypedField {
  name: string;
  type: FieldType;
}

export type MatchOp = "match" | "exact";

/** Inclusive numeric interval: an ip block, a date's milliseconds, or one number. */
interface Interval {
  low: number;
  high: number;
}

/** What an IPv6 value selects: nothing, since only IPv4 hosts are indexed. */
const NO_ADDRESS: Interval = { low: 1, high: 0 };

type Located = { position: number; raw: string };

function badValue(field: TypedField, value: Located, expected: string): QueryError {
  return new QueryError(
    `expected ${expected} for ${quoteToken(field.name)}, got ${quoteToken(value.raw)} at position ${value.position}`,
    value.position,
    value.raw,
  );
}

function parseNumber(field: TypedField, term: TermValue, allowFraction: boolean): number {
  const text = term.text.trim();
  if (field.type === "integer" && !allowFraction) {
    if (!/^[+-]?\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
      throw badValue(field, term, "an integer");
    return Number(text);
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) || !Number.isFinite(Number(text))) {
    throw badValue(field, term, "a number");
  }
  return Number(text);
}

function parseBoolean(field: TypedField, term: TermValue): number {
  const text = term.text.trim().toLowerCase();
  if (text === "true") return 1;
  if (text === "false") return 0;
  throw badValue(field, term, "true or false");
}

function parseIp(field: TypedField, term: TermValue, inRange: boolean): Interval {
  const text = term.text.trim();
  const range = parseIpv4Range(text);
  if (range) return range;
  if (looksLikeIpv6(text)) {
    // An IPv6 address or block is a fine question to ask; no indexed (IPv4) host answers it.
    if (!inRange) return NO_ADDRESS;
    throw new QueryError(
      `only IPv4 addresses are indexed, so a range cannot end at ${quoteToken(term.raw)} for ${quoteToken(field.name)} at position ${term.position}`,
      term.position,
      term.raw,
    );
  }
  throw badValue(field, term, text.includes("/") ? "an IPv4 CIDR block like 10.0.0.0/8" : "an IPv4 address");
}

function parseTime(field: TypedField, term: TermValue, now: number): Interval {
  const interval = parseTimeInterval(term.text.trim(), now);
  if (interval) return interval;
  throw badValue(field, term, "a date (YYYY-MM-DD, an RFC 3339 time, or date math like now-1d)");
}

/** The interval an ordered (numeric, ip, timestamp) value covers. */
function intervalOf(field: TypedField, term: TermValue, now: number, inRange: boolean): Interval {
  if (field.type === "ip") return parseIp(field, term, inRange);
  if (field.type === "timestamp") return parseTime(field, term, now);
  const number = parseNumber(field, term, inRange);
  return { low: number, high: number };
}

// ---- leaf SQL -------------------------------------------------------------------------------

const compare = (column: string, operator: string, value: SqlParam): Expr =>
  expr(`${column} ${operator} ?`, [value], 2);

function within(column: string, { low, high }: Interval): Expr {
  if (low > high) return expr("0", [], 1);
  return low === high ? compare(column, "=", low) : expr(`${column} BETWEEN ? AND ?`, [low, high], 2);
}

/** Case-sensitive equality that an index on the NOCASE column can still narrow first. */
export function exactly(column: string, text: string): Expr {
  return expr(`(${column} = ? AND ${column} = ? COLLATE BINARY)`, [text, text], 4);
}

export function checkPattern(pattern: string, value: Located): string {
  if (byteLength(pattern) > MAX_PATTERN_BYTES) {
    throw new QueryError(
      `pattern ${quoteToken(value.raw)} at position ${value.position} is too long: patterns match at most ${MAX_PATTERN_BYTES} bytes`,
      value.position,
      value.raw,
    );
  }
  return pattern;
}

export const like = (column: string, pattern: string): Expr =>
  expr(`${column} LIKE ? ESCAPE '\\'`, [pattern], 2);
const glob = (column: string, pattern: string): Expr => expr(`${column} GLOB ?`, [pattern], 2);

/** Text fields match a word or phrase anywhere in the value (ASCII case-insensitively). */
export function contains(column: string, text: string): Expr {
  const pattern = `%${escapeLike(text)}%`;
  if (byteLength(pattern) <= MAX_PATTERN_BYTES) return like(column, pattern);
  // Too long for a LIKE pattern on D1; instr has no such limit and the same ASCII folding.
  return expr(`instr(lower(${column}), lower(?)) > 0`, [text], 4);
}

function requireTextual(field: TypedField, value: Located, what: string): void {
  if (field.type === "keyword" || field.type === "text") return;
  const hint = field.type === "ip" ? "; use CIDR notation like 10.0.0.0/8 or a range" : "";
  throw new QueryError(
    `${what} apply only to text and keyword fields, and ${quoteToken(field.name)} is ${field.type}${hint}: ${quoteToken(value.raw)} at position ${value.position}`,
    value.position,
    value.raw,
  );
}

// ---- one predicate per value kind ---------------------------------------------------------

function termPredicate(field: TypedField, op: MatchOp, term: TermValue, column: string, now: number): Expr {
  switch (field.type) {
    case "keyword":
      return op === "exact" ? exactly(column, term.text) : compare(column, "=", term.text);
    case "text":
      return op === "exact" ? exactly(column, term.text) : contains(column, term.text);
    case "boolean":
      return compare(column, "=", parseBoolean(field, term));
    default:
      return within(column, intervalOf(field, term, now, false));
  }
}

function wildcardPredicate(field: TypedField, op: MatchOp, value: WildcardValue, column: string): Expr {
  requireTextual(field, value, "wildcards");
  if (op === "exact") return wildcardMatch(column, value.pattern, value, "glob");
  let pattern = value.pattern;
  // Text fields match anywhere in the value; keyword values match whole.
  if (field.type === "text") {
    const open = pattern.endsWith("*") && !/(^|[^\\])(\\\\)*\\\*$/.test(pattern);
    pattern = `${pattern.startsWith("*") ? "" : "*"}${pattern}${open ? "" : "*"}`;
  }
  return wildcardMatch(column, pattern, value, "like");
}

/**
 * `column` against a wildcard pattern (the AST's form), as GLOB (case-sensitive) or LIKE. D1
 * refuses patterns past MAX_PATTERN_BYTES; a longer one (a CPE with its `*:*:*` tail, say) is
 * matched in pieces cut at its `*`s, each short enough: the first anchored at the value's start,
 * the last at its end, those between anywhere in it. The pieces' order is not checked, so such a
 * pattern can also match a value holding its middle pieces out of order.
 */
function wildcardMatch(column: string, pattern: string, value: Located, form: "glob" | "like"): Expr {
  const translate = form === "glob" ? wildcardToGlob : wildcardToLike;
  const many = form === "glob" ? "*" : "%";
  const match = form === "glob" ? glob : like;
  const whole = translate(pattern);
  if (byteLength(whole) <= MAX_PATTERN_BYTES) return match(column, whole);
  const pieces: { pattern: string; segment: string | null }[] = [];
  let current: { pattern: string; segment: string | null } | null = null;
  for (const segment of wildcardSegments(pattern)) {
    const translated = translate(segment);
    const joined: string = current === null ? translated : `${current.pattern}${many}${translated}`;
    if (current === null || byteLength(`${many}${joined}${many}`) <= MAX_PATTERN_BYTES)
      current = { pattern: joined, segment: current === null ? segment : null };
    else {
      pieces.push(current);
      current = { pattern: translated, segment };
    }
  }
  if (current !== null) pieces.push(current);
  if (pieces.length === 1) return match(column, checkPattern(whole, value));
  const last = pieces.length - 1;
  const parts = pieces.flatMap(({ pattern: piece, segment }, i) => {
    const anchored = `${i === 0 ? "" : many}${piece}${i === last ? "" : many}`;
    if (anchored === many) return [];
    // One literal piece too long even alone is compared as text, which has no such limit.
    if (byteLength(anchored) > MAX_PATTERN_BYTES && segment !== null && !/(^|[^\\])\?/.test(segment))
      return [literalMatch(column, segment.replace(/\\(.)/g, "$1"), i === 0, i === last, form)];
    return [match(column, checkPattern(anchored, value))];
  });
  return combine("AND", parts);
}

/**
 * `column` holding `text` at its start, at its end, or anywhere, compared as LIKE (ASCII
 * case-insensitively) or GLOB (exactly) would: a literal piece of a wildcard pattern too long
 * for a pattern of its own.
 */
function literalMatch(
  column: string,
  text: string,
  atStart: boolean,
  atEnd: boolean,
  form: "glob" | "like",
): Expr {
  const fold = (sql: string) => (form === "like" ? `lower(${sql})` : sql);
  const length = [...text].length;
  if (atStart) return expr(`${fold(`substr(${column}, 1, ${length})`)} = ${fold("?")}`, [text], 3);
  if (atEnd) return expr(`${fold(`substr(${column}, -${length})`)} = ${fold("?")}`, [text], 3);
  return expr(`instr(${fold(column)}, ${fold("?")}) > 0`, [text], 4);
}

function regexPredicate(field: TypedField, value: RegexValue, column: string): Expr {
  requireTextual(field, value, "regular expressions");
  const globs = regexToGlobs(value.source);
  if (globs === null) {
    throw new QueryError(
      `regular expression not supported: ${value.raw} at position ${value.position} (literals, ., classes, \\d \\w \\s, groups, |, bounded counts like ? and {2,4}, <1-99> intervals, .* and .+ and ^ $ anchors translate to SQL)`,
      value.position,
      value.raw,
    );
  }
  // Keyword regexes match the whole value, as Lucene's do; on text they match anywhere unless anchored.
  const whole = field.type === "keyword";
  const patterns = [
    ...new Set(
      globs.map(({ body, start, end }) => `${whole || start ? "" : "*"}${body}${whole || end ? "" : "*"}`),
    ),
  ].map((pattern) => checkPattern(pattern, value));
  const [only] = patterns;
  if (patterns.length === 1 && only !== undefined) return glob(column, only);
  // Alternatives travel as one JSON array, however many there are.
  return expr(
    `EXISTS (SELECT 1 FROM json_each(?) rx WHERE ${column} GLOB rx.value)`,
    [JSON.stringify(patterns)],
    3,
  );
}

function rangePredicate(field: TypedField, value: RangeValue, column: string, now: number): Expr {
  if (field.type === "boolean") {
    throw new QueryError(
      `ranges do not apply to the boolean field ${quoteToken(field.name)}: ${quoteToken(value.raw)} at position ${value.position}`,
      value.position,
      value.raw,
    );
  }
  const { lower, upper } = value;
  if (!lower && !upper) return expr(`${column} IS NOT NULL`, [], 2);
  const textual = field.type === "keyword" || field.type === "text";
  // Each bound becomes one comparison; an interval bound uses whichever end Elasticsearch would.
  const bound = (side: RangeBound, isLower: boolean): { operator: string; param: SqlParam } => {
    const operator = `${isLower ? ">" : "<"}${side.inclusive ? "=" : ""}`;
    if (textual) return { operator, param: side.value.text };
    const interval = intervalOf(field, side.value, now, true);
    return { operator, param: isLower === side.inclusive ? interval.low : interval.high };
  };
  const low = lower && bound(lower, true);
  const high = upper && bound(upper, false);
  if (low?.operator === ">=" && high?.operator === "<=")
    return expr(`${column} BETWEEN ? AND ?`, [low.param, high.param], 2);
  const parts = [low, high]
    .filter((part) => part !== null)
    .map((part) => compare(column, part.operator, part.param));
  return combine("AND", parts);
}

/** A set value that is one exact SQL value (so the whole set can be `IN (...)`), or null. */
function pointOf(field: TypedField, term: TermValue, now: number): SqlParam | null {
  switch (field.type) {
    case "keyword":
      return term.text;
    case "text":
      return null;
    case "boolean":
      return parseBoolean(field, term);
    default: {
      const interval = intervalOf(field, term, now, false);
      return interval.low === interval.high ? interval.low : null;
    }
  }
}

function setPredicate(field: TypedField, op: MatchOp, value: SetValue, column: string, now: number): Expr {
  const points =
    op === "match" && value.items.every((item) => item.kind === "term")
      ? value.items.map((item) => (item.kind === "term" ? pointOf(field, item, now) : null))
      : null;
  if (points && points.every((point) => point !== null)) {
    return expr(`${column} IN (${points.map(() => "?").join(", ")})`, points, 2);
  }
  return combine(
    "OR",
    value.items.map((item) =>
      item.kind === "term"
        ? termPredicate(field, op, item, column, now)
        : wildcardPredicate(field, op, item, column),
    ),
  );
}

/** The condition `value` puts on `column` (a qualified column of the field's table). */
export function valuePredicate(
  field: TypedField,
  op: MatchOp,
  value: Value,
  column: string,
  now: number,
): Expr {
  switch (value.kind) {
    case "exists":
      return expr(`${column} IS NOT NULL`, [], 2);
    case "term":
      return termPredicate(field, op, value, column, now);
    case "wildcard":
      return wildcardPredicate(field, op, value, column);
    case "regex":
      return regexPredicate(field, value, column);
    case "range":
      return rangePredicate(field, value, column, now);
    case "set":
      return setPredicate(field, op, value, column, now);
  }
}
