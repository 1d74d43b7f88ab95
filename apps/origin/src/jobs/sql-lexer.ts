/**
 * A tokenizer that follows SQLite's own lexing rules (tokenize.c): strings are '...' with ''
 * as the only escape (a backslash is an ordinary character), identifiers are "...", `...` or
 * [...], comments are `--` to end of line and `/* ... *\/` (an unclosed one runs to the end).
 *
 * The guard parses queries with node-sql-parser, whose lexer is not SQLite's (it honours
 * backslash escapes and `#` comments). This second, independent view of the SQL that will
 * actually run catches any place where the two disagree about where a token ends.
 */

export type SqlTokenKind =
  | "space"
  | "comment"
  | "string"
  | "identifier"
  | "word"
  | "number"
  | "blob"
  | "punct";

export interface SqlToken {
  kind: SqlTokenKind;
  text: string;
}

/** Reads a quoted token whose closing quote is escaped by doubling; -1 when unterminated. */
function endOfQuoted(sql: string, start: number, close: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === close) {
      if (sql[i + 1] === close && close !== "]") {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return -1;
}

const SPACE = /\s/;
const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const DIGIT = /[0-9]/;

/** Tokens of `sql`, or null when SQLite would find an unterminated string or identifier. */
export function tokenizeSqlite(sql: string): SqlToken[] | null {
  const tokens: SqlToken[] = [];
  let i = 0;
  const push = (kind: SqlTokenKind, end: number) => {
    tokens.push({ kind, text: sql.slice(i, end) });
    i = end;
  };
  while (i < sql.length) {
    const ch = sql[i] ?? "";
    const next = sql[i + 1] ?? "";
    if (SPACE.test(ch)) {
      let end = i + 1;
      while (end < sql.length && SPACE.test(sql[end] ?? "")) end++;
      push("space", end);
    } else if (ch === "-" && next === "-") {
      const newline = sql.indexOf("\n", i);
      push("comment", newline === -1 ? sql.length : newline);
    } else if (ch === "/" && next === "*") {
      const close = sql.indexOf("*/", i + 2);
      push("comment", close === -1 ? sql.length : close + 2);
    } else if (ch === "'" || ch === '"' || ch === "`" || ch === "[") {
      const end = endOfQuoted(sql, i, ch === "[" ? "]" : ch);
      if (end === -1) return null;
      push(ch === "'" ? "string" : "identifier", end);
    } else if ((ch === "x" || ch === "X") && next === "'") {
      const end = endOfQuoted(sql, i + 1, "'");
      if (end === -1) return null;
      push("blob", end);
    } else if (DIGIT.test(ch) || (ch === "." && DIGIT.test(next))) {
      let end = i + 1;
      while (end < sql.length && /[0-9A-Za-z_.]/.test(sql[end] ?? "")) {
        // exponent sign: 1e-5
        if (/[eE]/.test(sql[end] ?? "") && /[+-]/.test(sql[end + 1] ?? "")) end++;
        end++;
      }
      push("number", end);
    } else if (WORD_START.test(ch)) {
      let end = i + 1;
      while (end < sql.length && WORD_PART.test(sql[end] ?? "")) end++;
      push("word", end);
    } else {
      push("punct", i + 1);
    }
  }
  return tokens;
}

/**
 * Why SQLite could read `sql` as something other than one comment-free statement, or null.
 * Applied to the regenerated SQL, which never legitimately holds a comment or a semicolon.
 */
export function lexicalProblem(sql: string): string | null {
  const tokens = tokenizeSqlite(sql);
  if (tokens === null) return "unterminated string or identifier";
  if (tokens.some((t) => t.kind === "comment")) return "comments are not allowed";
  if (tokens.some((t) => t.kind === "punct" && t.text === ";")) return "only one statement is allowed";
  if (tokens.some((t) => t.kind === "punct" && /[?:@$#\\]/.test(t.text))) return "parameters are not allowed";
  return null;
}
