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

/** A wildcard pattern cut at its unescaped `*`s (each piece keeps its escapes). */
export function wildcardSegments(pattern: string): string[] {
  const segments = [""];
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] ?? "";
    const last = segments.length - 1;
    if (char === "\\") segments[last] += `${char}${pattern[++i] ?? ""}`;
    else if (char === "*") segments.push("");
    else segments[last] += char;
  }
  return segments;
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
