/**
 * Turning wildcards, regular expressions and full-text terms into SQLite pattern strings.
 * All of them end up as bound parameters; only the fixed `ESCAPE '\'` appears in SQL text.
 *
 * Wildcard patterns use the AST's form: `*` and `?` are wildcards, `\*`, `\?`, `\\` literals.
 */

/** D1 (workerd's SQLite) refuses LIKE and GLOB patterns longer than this many bytes. */
export const MAX_PATTERN_BYTES = 50;

export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** A literal for LIKE ... ESCAPE '\'. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** A literal for GLOB, which has no escape character: specials go in a one-character class. */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[]/g, (char) => `[${char}]`);
}

function translateWildcards(
  pattern: string,
  literal: (text: string) => string,
  many: string,
  one: string,
): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] ?? "";
    if (char === "\\") out += literal(pattern[++i] ?? "");
    else if (char === "*") out += many;
    else if (char === "?") out += one;
    else out += literal(char);
  }
  return out;
}

export function wildcardToLike(pattern: string): string {
  return translateWildcards(pattern, escapeLike, "%", "_");
}

export function wildcardToGlob(pattern: string): string {
  return translateWildcards(pattern, escapeGlob, "*", "?");
}

/** The literal text of a wildcard pattern with only a trailing `*` (`ngin*`), else null. */
export function trailingWildcardPrefix(pattern: string): string | null {
  if (!pattern.endsWith("*") || pattern.endsWith("\\*")) return null;
  const body = pattern.slice(0, -1);
  if (/(^|[^\\])(\\\\)*[*?]/.test(body)) return null;
  return body.replace(/\\(.)/g, "$1");
}

/** A full-text search term as an FTS5 string: double-quoted, inner quotes doubled. */
export function ftsString(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * The subset of regular expressions SQLite's GLOB can express: literal characters (escaped
 * specials too), `.`, `.*`, `.+`, `.{n}`, `.{n,}`, character classes `[a-z]` / `[^0-9]`,
 * `\d`, `\w`, any of those repeated `{n}` times, and `^` / `$` anchors. Returns the GLOB body
 * and whether each end was anchored, or null when the regex uses anything else.
 */
export function regexToGlob(source: string): { body: string; start: boolean; end: boolean } | null {
  let rest = source;
  const start = rest.startsWith("^");
  if (start) rest = rest.slice(1);
  const end = /(^|[^\\])(\\\\)*\$$/.test(rest);
  if (end) rest = rest.slice(0, -1);
  let body = "";
  let i = 0;
  while (i < rest.length) {
    const atom = readAtom(rest, i);
    if (atom === null) return null;
    i = atom.next;
    const quantifier = /^(?:\*|\+|\?|\{(\d{1,2})(,)?\})/.exec(rest.slice(i));
    if (!quantifier) {
      body += atom.glob;
      continue;
    }
    i += quantifier[0].length;
    const count = quantifier[1] === undefined ? null : Number(quantifier[1]);
    const open = quantifier[0] === "*" || quantifier[0] === "+" || quantifier[2] === ",";
    const minimum = quantifier[0] === "*" ? 0 : quantifier[0] === "+" ? 1 : count;
    // `x?` or `x{n,m}` cannot be written in GLOB; an open repeat only of "any character".
    if (minimum === null || (open && !atom.any)) return null;
    body += atom.glob.repeat(minimum) + (open ? "*" : "");
  }
  return { body, start, end };
}

function readAtom(source: string, i: number): { glob: string; next: number; any: boolean } | null {
  const char = source[i] ?? "";
  if (char === ".") return { glob: "?", next: i + 1, any: true };
  if (char === "\\") {
    const next = source[i + 1];
    if (next === undefined) return null;
    if (next === "d") return { glob: "[0-9]", next: i + 2, any: false };
    if (next === "w") return { glob: "[A-Za-z0-9_]", next: i + 2, any: false };
    // Other letter escapes (\s, \b, \D, ...) have no GLOB form.
    if (/[A-Za-z0-9]/.test(next)) return null;
    return { glob: escapeGlob(next), next: i + 2, any: false };
  }
  if (char === "[") {
    const close = source.indexOf("]", i + 2);
    if (close === -1) return null;
    const inner = source.slice(i + 1, close);
    const negated = inner.startsWith("^");
    const members = (negated ? inner.slice(1) : inner).replace(/\\d/g, "0-9").replace(/\\w/g, "A-Za-z0-9_");
    if (members === "" || /[[\\]/.test(members)) return null;
    return { glob: `[${negated ? "^" : ""}${members}]`, next: close + 1, any: false };
  }
  if ("()|*+?{}^$]".includes(char)) return null;
  return { glob: escapeGlob(char), next: i + 1, any: false };
}
