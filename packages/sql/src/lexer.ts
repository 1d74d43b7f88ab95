import { SqlFailure } from "./errors";

/**
 * Tokens of the job dialect: BigQuery legacy SQL plus the standard-SQL spellings users mixed in.
 *
 * - Comments: `-- ...`, `# ...` (legacy SQL; also carries `#legacySQL`/`#standardSQL`) and `/* ... *\/`.
 * - Strings in single or double quotes (legacy SQL allowed both) with BigQuery's backslash
 *   escapes, triple-quoted strings, and raw strings `r'...'` whose backslashes are kept.
 * - Quoted names: backticks (standard SQL) and brackets (legacy `[ipv4.20261031]`).
 */

export type TokenKind = "word" | "quoted" | "string" | "number" | "symbol" | "end";

export interface Token {
  kind: TokenKind;
  /** word: as written; quoted: the name inside the quotes; string: the value; symbol: the operator. */
  text: string;
  /** Upper-cased text of a word, for keyword tests. */
  upper: string;
  /** The numeric value of a number token. */
  number: number;
  start: number;
  end: number;
}

const SYMBOLS = [
  "<>",
  "!=",
  "<=",
  ">=",
  "||",
  "=",
  "<",
  ">",
  "+",
  "-",
  "*",
  "/",
  "%",
  "(",
  ")",
  ",",
  ".",
  ";",
];

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  v: "\v",
  a: "\x07",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "`": "`",
  "?": "?",
};

function isWordStart(c: string): boolean {
  return /[A-Za-z_]/.test(c);
}

function isWordPart(c: string): boolean {
  return /[A-Za-z0-9_]/.test(c);
}

function token(kind: TokenKind, text: string, start: number, end: number, number = 0): Token {
  return { kind, text, upper: kind === "word" ? text.toUpperCase() : "", number, start, end };
}

/** A string literal starting at `start` (the opening quote); raw strings keep backslashes. */
function readString(text: string, start: number, raw: boolean): { value: string; end: number } {
  const quote = text.charAt(start);
  const triple = text.startsWith(quote.repeat(3), start);
  const close = triple ? quote.repeat(3) : quote;
  let i = start + close.length;
  let value = "";
  while (i < text.length) {
    if (text.startsWith(close, i)) return { value, end: i + close.length };
    const c = text.charAt(i);
    if (!triple && c === "\n") break;
    if (c === "\\") {
      const next = text.charAt(i + 1);
      if (raw) {
        value += c + next;
        i += 2;
        continue;
      }
      const escaped = Object.hasOwn(ESCAPES, next) ? ESCAPES[next] : undefined;
      if (escaped !== undefined) {
        value += escaped;
        i += 2;
        continue;
      }
      if (next === "x" && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 2, i + 4))) {
        value += String.fromCharCode(parseInt(text.slice(i + 2, i + 4), 16));
        i += 4;
        continue;
      }
      if (next === "u" && /^[0-9A-Fa-f]{4}$/.test(text.slice(i + 2, i + 6))) {
        value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
        continue;
      }
      throw new SqlFailure(`Syntax error: Illegal escape sequence: \\${next}`, i);
    }
    value += c;
    i += 1;
  }
  throw new SqlFailure("Syntax error: Unclosed string literal", start);
}

/** A quoted name: backticks (with backslash escapes) or legacy brackets. */
function readQuotedName(text: string, start: number): { value: string; end: number } {
  const close = text.charAt(start) === "[" ? "]" : "`";
  let i = start + 1;
  let value = "";
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === close) {
      if (value === "") throw new SqlFailure("Syntax error: Empty identifier", start);
      return { value, end: i + 1 };
    }
    if (c === "\n") break;
    if (c === "\\" && close === "`") {
      const next = text.charAt(i + 1);
      value += Object.hasOwn(ESCAPES, next) ? (ESCAPES[next] ?? next) : next;
      i += 2;
      continue;
    }
    value += c;
    i += 1;
  }
  throw new SqlFailure(`Syntax error: Unclosed identifier literal`, start);
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    if (text.startsWith("--", i) || c === "#") {
      const newline = text.indexOf("\n", i);
      i = newline === -1 ? text.length : newline + 1;
      continue;
    }
    if (text.startsWith("/*", i)) {
      const close = text.indexOf("*/", i + 2);
      if (close === -1) throw new SqlFailure("Syntax error: Unclosed comment", i);
      i = close + 2;
      continue;
    }
    const start = i;
    if ((c === "r" || c === "R") && (text.charAt(i + 1) === "'" || text.charAt(i + 1) === '"')) {
      const { value, end } = readString(text, i + 1, true);
      tokens.push(token("string", value, start, end));
      i = end;
      continue;
    }
    if ((c === "b" || c === "B") && (text.charAt(i + 1) === "'" || text.charAt(i + 1) === '"')) {
      throw new SqlFailure("Syntax error: Bytes literals are not supported", i);
    }
    if (isWordStart(c)) {
      while (i < text.length && isWordPart(text.charAt(i))) i += 1;
      tokens.push(token("word", text.slice(start, i), start, i));
      continue;
    }
    // A number, unless it follows a "." (then it is a name part, e.g. ipv4.20261031 or p443).
    if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(text.charAt(i + 1)) && !afterName(tokens, i))) {
      if (afterDot(tokens)) {
        while (i < text.length && isWordPart(text.charAt(i))) i += 1;
        tokens.push(token("word", text.slice(start, i), start, i));
        continue;
      }
      const match = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i));
      const literal = match?.[0] ?? c;
      i += literal.length;
      if (i < text.length && isWordStart(text.charAt(i)))
        throw new SqlFailure(`Syntax error: Unexpected "${text.slice(start, i + 1)}"`, start);
      tokens.push(token("number", literal, start, i, Number(literal)));
      continue;
    }
    if (c === "'" || c === '"') {
      const { value, end } = readString(text, i, false);
      tokens.push(token("string", value, start, end));
      i = end;
      continue;
    }
    if (c === "`" || c === "[") {
      const { value, end } = readQuotedName(text, i);
      tokens.push(token("quoted", value, start, end));
      i = end;
      continue;
    }
    if (c === "?" || c === "@") throw new SqlFailure("Syntax error: Query parameters are not supported", i);
    const symbol = SYMBOLS.find((s) => text.startsWith(s, i));
    if (!symbol) throw new SqlFailure(`Syntax error: Illegal input character "${c}"`, i);
    tokens.push(token("symbol", symbol === "<>" ? "!=" : symbol, start, i + symbol.length));
    i += symbol.length;
  }
  tokens.push(token("end", "", text.length, text.length));
  return tokens;
}

/** Whether the last token is a name ending right at `offset`, so a "." there separates name parts. */
function afterName(tokens: readonly Token[], offset: number): boolean {
  const last = tokens[tokens.length - 1];
  return last !== undefined && (last.kind === "word" || last.kind === "quoted") && last.end === offset;
}

/** Whether the last token is a "." directly joined to a name, so digits after it are a name part. */
function afterDot(tokens: readonly Token[]): boolean {
  const last = tokens[tokens.length - 1];
  const before = tokens[tokens.length - 2];
  return (
    last?.kind === "symbol" &&
    last.text === "." &&
    before !== undefined &&
    (before.kind === "word" || before.kind === "quoted") &&
    before.end === last.start
  );
}
