/**
 * Every pattern a query matches with, compiled to RE2 (the `re2js` port): matching is linear in
 * the input, so no pattern a user writes can make one row expensive. BigQuery itself uses RE2,
 * so the syntax users wrote for it is the syntax accepted here.
 */
import { RE2JS } from "re2js";
import { SqlFailure } from "./errors";
import { SQL_LIMITS } from "./limits";
import { limitExceeded } from "./run-error";

export type Pattern = RE2JS;

/** A regular expression from a query, or a SqlFailure at `offset` in BigQuery's words. */
export function compileRegex(source: string, offset: number): Pattern {
  if (source.length > SQL_LIMITS.maxRegexLength) {
    throw new SqlFailure(
      `Cannot parse regular expression: longer than ${SQL_LIMITS.maxRegexLength} characters (SQL_LIMITS.maxRegexLength)`,
      offset,
    );
  }
  try {
    return RE2JS.compile(source);
  } catch (error) {
    const detail =
      error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : String(error);
    throw new SqlFailure(`Cannot parse regular expression: ${detail}`, offset);
  }
}

/**
 * `LIKE` as an anchored RE2 pattern: `%` any run of characters, `_` one character, a backslash
 * takes the next character literally (BigQuery's escape), everything else matches itself.
 */
export function compileLike(pattern: string, offset: number): Pattern {
  let source = "";
  let wildcards = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] ?? "";
    if (ch === "\\" && i + 1 < pattern.length) {
      i += 1;
      source += RE2JS.quote(pattern[i] ?? "");
    } else if (ch === "%") {
      wildcards += 1;
      source += "(?s:.*)";
    } else if (ch === "_") {
      wildcards += 1;
      source += "(?s:.)";
    } else {
      source += RE2JS.quote(ch);
    }
  }
  if (wildcards > SQL_LIMITS.maxLikeWildcards) {
    throw new SqlFailure(
      `LIKE pattern has more than ${SQL_LIMITS.maxLikeWildcards} wildcards (SQL_LIMITS.maxLikeWildcards)`,
      offset,
    );
  }
  return compileRegex(`^${source}$`, offset);
}

/** REGEXP_EXTRACT: the first capturing group's text (or the whole match without one), or null. */
export function extractFirst(pattern: Pattern, input: string): string | null {
  const matcher = pattern.matcher(input);
  if (!matcher.find()) return null;
  return pattern.groupCount() === 0 ? matcher.group(0) : matcher.group(1);
}

type TemplatePart = string | number;

/** A REGEXP_REPLACE replacement: `\1`..`\9` a group, `\0` the match, `\\` a backslash. */
export function parseReplacement(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let text = "";
  for (let i = 0; i < template.length; i++) {
    const ch = template[i] ?? "";
    const next = template[i + 1];
    if (ch === "\\" && next !== undefined && next >= "0" && next <= "9") {
      if (text) parts.push(text);
      text = "";
      parts.push(Number(next));
      i += 1;
    } else if (ch === "\\" && next === "\\") {
      text += "\\";
      i += 1;
    } else {
      text += ch;
    }
  }
  if (text) parts.push(text);
  return parts;
}

export function replaceAll(pattern: Pattern, input: string, template: readonly TemplatePart[]): string {
  const groups = pattern.groupCount();
  const result = pattern.matcher(input).replaceAll((...args: unknown[]) => {
    let out = "";
    for (const part of template) {
      if (typeof part === "string") out += part;
      else if (part <= groups) {
        const group = args[part];
        out += typeof group === "string" ? group : "";
      }
    }
    return out;
  });
  if (result.length > SQL_LIMITS.maxStringLength) {
    throw limitExceeded("characters in one string", SQL_LIMITS.maxStringLength, "maxStringLength");
  }
  return result;
}
