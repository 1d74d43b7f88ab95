import type { Dialect, RangeValue, RegexValue, SetValue, TermValue, WildcardValue } from "./ast";
import { QueryError, quoteToken } from "./query-error";

/** The parser state the value readers need: the text, the cursor and error helpers. */
export interface Cursor {
  readonly input: string;
  readonly dialect: Dialect;
  pos: number;
  peek(offset?: number): string | undefined;
  atEnd(): boolean;
  skipWs(): void;
  tokenAt(pos?: number): string;
  unexpected(pos?: number): QueryError;
}

// Characters that end an unquoted word; escape them (`\(`) to search for them. A backtick is
// an ordinary character in v1 (Lucene gives it no meaning).
const WORD_END = new Set(["(", ")", "[", "]", "{", "}", '"', "`"]);

/**
 * The length of a Lucene boost (`^2`, `^0.5`) at `i` in v1, or 0. A boost only weighs a clause's
 * score, which a filter without ranking has no use for, so v1 reads and drops it.
 */
export function boostLength(cursor: Pick<Cursor, "input" | "dialect">, i: number): number {
  if (cursor.dialect !== "v1") return 0;
  const match = /^\^\d+(\.\d+)?(?=[\s()]|$)/.exec(cursor.input.slice(i, i + 24));
  return match ? match[0].length : 0;
}

// Lucene fuzzy (~) and (outside v1, or not followed by a number) boost (^) operators: refused
// rather than silently searched for.
const UNSUPPORTED = new Set(["~", "^"]);

function shorten(text: string): string {
  return text.length > 30 ? `${text.slice(0, 30)}...` : text;
}

/**
 * An unquoted word: a value, a range bound or a bare term. Backslash escapes any character;
 * unescaped `*` and `?` make it a wildcard. `stopAtComma` inside sets and ranges.
 */
export function readWord(cursor: Cursor, stopAtComma: boolean): TermValue | WildcardValue {
  const { input } = cursor;
  const start = cursor.pos;
  let text = "";
  let pattern = "";
  let wildcard = false;
  let i = start;
  while (i < input.length) {
    const char = input[i] ?? "";
    const ends = WORD_END.has(char) && !(char === "`" && cursor.dialect === "v1");
    if (/\s/.test(char) || ends || (stopAtComma && char === ",")) break;
    if (boostLength(cursor, i) > 0) break;
    if (input.startsWith("&&", i) || input.startsWith("||", i)) break;
    if (char === "\\") {
      const next = input[i + 1];
      if (next === undefined) throw new QueryError(`nothing to escape after "\\" at position ${i}`, i, "\\");
      text += next;
      pattern += next === "*" || next === "?" || next === "\\" ? `\\${next}` : next;
      i += 2;
      continue;
    }
    if (UNSUPPORTED.has(char)) {
      throw new QueryError(
        `unsupported operator "${char}" at position ${i} (fuzzy, proximity and boost are not supported; write \\${char} to search for it)`,
        i,
        char,
      );
    }
    if (char === "*" || char === "?") wildcard = true;
    text += char;
    pattern += char;
    i++;
  }
  if (i === start) throw cursor.unexpected();
  cursor.pos = i;
  const raw = input.slice(start, i);
  if (wildcard) return { kind: "wildcard", pattern, position: start, raw };
  return { kind: "term", text, quoted: false, position: start, raw };
}

/** Quote characters that open a quoted value in a dialect: v2 and CenQL also take backticks and single quotes. */
export function opensQuote(char: string | undefined, dialect: Dialect): boolean {
  if (char === '"') return true;
  return dialect !== "v1" && (char === "`" || char === "'");
}

/** v2 and CenQL read `\r`, `\n` and `\t` in quotes as the control characters banners hold. */
const CONTROL_ESCAPES: Record<string, string> = { r: "\r", n: "\n", t: "\t" };

/**
 * `"a phrase"`, or (v2, CenQL) `` `a literal` `` and `'a value'` (in which `''` stands for one
 * `'`, as CenQL writes it); a backslash escapes the next character, and in v2 and CenQL `\r`,
 * `\n`, `\t` are the control characters (`services.banner="HTTP/1.1 401 Unauthorized\r\n..."`).
 * With `wildcards` (a field's value in v2 or CenQL), an unescaped `*` inside the quotes is a
 * wildcard, as Censys reads `"ntop/*"` and `'*file*'`; anywhere else a quoted `*` is the character.
 */
export function readQuoted(cursor: Cursor): TermValue;
export function readQuoted(cursor: Cursor, wildcards: boolean): TermValue | WildcardValue;
export function readQuoted(cursor: Cursor, wildcards = false): TermValue | WildcardValue {
  const { input } = cursor;
  const start = cursor.pos;
  const quote = input[start];
  let text = "";
  let pattern = "";
  let wildcard = false;
  for (let i = start + 1; i < input.length; i++) {
    const char = input[i] ?? "";
    if (char === "\\" && i + 1 < input.length) {
      const escaped = input[++i] ?? "";
      const next = cursor.dialect === "v1" ? escaped : (CONTROL_ESCAPES[escaped] ?? escaped);
      text += next;
      pattern += next === "*" || next === "?" || next === "\\" ? `\\${next}` : next;
    } else if (char === quote && quote === "'" && input[i + 1] === "'") {
      text += "'";
      pattern += "'";
      i++;
    } else if (char === quote) {
      cursor.pos = i + 1;
      const raw = input.slice(start, i + 1);
      if (wildcards && wildcard && cursor.dialect !== "v1")
        return { kind: "wildcard", pattern, position: start, raw };
      return { kind: "term", text, quoted: true, position: start, raw };
    } else {
      if (char === "*") wildcard = true;
      text += char;
      pattern += char === "?" ? "\\?" : char;
    }
  }
  const what = quote === "`" ? "backtick value" : quote === "'" ? "quoted value" : "quoted phrase";
  throw new QueryError(
    `unterminated ${what} starting at position ${start}: missing closing ${quote}`,
    start,
    shorten(input.slice(start)),
  );
}

/** `/regex/`; `\/` stands for a slash, other escapes are kept for the regex translator. */
export function readRegex(cursor: Cursor): RegexValue {
  const { input } = cursor;
  const start = cursor.pos;
  let source = "";
  for (let i = start + 1; i < input.length; i++) {
    const char = input[i];
    if (char === "\\" && i + 1 < input.length) {
      const next = input[++i] ?? "";
      source += next === "/" ? "/" : `\\${next}`;
    } else if (char === "/") {
      cursor.pos = i + 1;
      const raw = input.slice(start, i + 1);
      if (source === "") throw new QueryError(`empty regular expression at position ${start}`, start, raw);
      return { kind: "regex", source, position: start, raw };
    } else {
      source += char;
    }
  }
  throw new QueryError(
    `unterminated regular expression starting at position ${start}: missing closing /`,
    start,
    shorten(input.slice(start)),
  );
}

function unterminated(cursor: Cursor, start: number, what: string): QueryError {
  const open = cursor.input[start] ?? "[";
  const close = what === "set" ? "}" : `"]" or "}"`;
  return new QueryError(
    `unterminated ${what} starting at position ${start}: missing ${what === "set" ? `"${close}"` : close}`,
    start,
    open,
  );
}

/** A range bound or set item: quoted, a word, or (range only) `*` for an open end (null). */
function readItem(cursor: Cursor, start: number, what: "range" | "set"): TermValue | WildcardValue | null {
  cursor.skipWs();
  const char = cursor.peek();
  if (char === undefined) throw unterminated(cursor, start, what);
  if (opensQuote(char, cursor.dialect)) return what === "set" ? readQuoted(cursor, true) : readQuoted(cursor);
  const next = cursor.peek(1);
  if (what === "range" && char === "*" && (next === undefined || /[\s\]}]/.test(next))) {
    cursor.pos++;
    return null;
  }
  if ("]},".includes(char) || char === "[" || char === "{" || char === "(" || char === ")") {
    const hint = what === "range" ? " (write * for an open end)" : "";
    throw new QueryError(
      `expected a ${what === "range" ? "range bound" : "value"} at position ${cursor.pos}, found ${quoteToken(char)}${hint}`,
      cursor.pos,
      char,
    );
  }
  return readWord(cursor, true);
}

function rangeBound(item: TermValue | WildcardValue | null): TermValue | null {
  if (item?.kind === "wildcard") {
    throw new QueryError(
      `a range bound cannot hold a wildcard: ${quoteToken(item.raw)} at position ${item.position}`,
      item.position,
      item.raw,
    );
  }
  return item;
}

/** `[a TO b]`, `{a TO b}`, mixed brackets, or (v2) a set `{a, b, c}`. */
export function readBracket(cursor: Cursor, field: string): RangeValue | SetValue {
  const { input } = cursor;
  const start = cursor.pos;
  const open = input[start];
  cursor.pos++;
  const first = readItem(cursor, start, "range");
  cursor.skipWs();
  const next = cursor.peek();
  if (open === "{" && cursor.dialect !== "v1" && (next === "," || next === "}"))
    return readSet(cursor, start, first);
  if (next === ",") {
    throw new QueryError(
      `sets like {22, 80} are v2 syntax, at position ${cursor.pos}; in v1 write (${field}: 22 OR ${field}: 80)`,
      cursor.pos,
      ",",
    );
  }
  if (first?.kind === "term" && !first.quoted && first.raw.toUpperCase() === "TO") {
    throw new QueryError(
      `missing lower bound before "TO" at position ${first.position} (write * for an open end)`,
      first.position,
      first.raw,
    );
  }
  const lower = rangeBound(first);
  if (cursor.atEnd()) throw unterminated(cursor, start, "range");
  if (!/^to(?=[\s\]}]|$)/i.test(input.slice(cursor.pos, cursor.pos + 3))) {
    const token = cursor.tokenAt();
    throw new QueryError(
      `expected "TO" in the range at position ${cursor.pos}, found ${quoteToken(token)}`,
      cursor.pos,
      token,
    );
  }
  cursor.pos += 2;
  const upper = rangeBound(readItem(cursor, start, "range"));
  cursor.skipWs();
  const close = cursor.peek();
  if (close === undefined) throw unterminated(cursor, start, "range");
  if (close !== "]" && close !== "}") {
    const token = cursor.tokenAt();
    throw new QueryError(
      `expected "]" or "}" to close the range at position ${cursor.pos}, found ${quoteToken(token)}`,
      cursor.pos,
      token,
    );
  }
  cursor.pos++;
  return {
    kind: "range",
    lower: lower && { value: lower, inclusive: open === "[" },
    upper: upper && { value: upper, inclusive: close === "]" },
    position: start,
    raw: input.slice(start, cursor.pos),
  };
}

function readSet(cursor: Cursor, start: number, first: TermValue | WildcardValue | null): SetValue {
  if (first === null) {
    throw new QueryError(`a set holds values, not "*", at position ${start + 1}`, start + 1, "*");
  }
  const items = [first];
  while (cursor.peek() === ",") {
    cursor.pos++;
    const item = readItem(cursor, start, "set");
    if (item === null) throw cursor.unexpected();
    items.push(item);
    cursor.skipWs();
  }
  if (cursor.atEnd()) throw unterminated(cursor, start, "set");
  if (cursor.peek() !== "}") throw cursor.unexpected();
  cursor.pos++;
  return { kind: "set", items, position: start, raw: cursor.input.slice(start, cursor.pos) };
}
