/**
 * Every pattern a query matches with (regular expressions and LIKE), compiled to RE2 (the
 * `re2js` port). BigQuery itself uses RE2, so the syntax users wrote for it is the syntax
 * accepted here, and what RE2 refuses (backreferences, lookaround) is refused with its message.
 *
 * RE2 matches in time linear in the input, but the factor is the program's size: a pattern is
 * measured before it is compiled (SQL_LIMITS.maxRegexProgram), and every match charges its
 * worst case, the value's length times the program's instructions, before it runs, so one
 * value can never hold the engine for longer than SQL_LIMITS.maxRowSteps allows.
 */
import { RE2JS } from "re2js";
import { SqlFailure } from "./errors";
import { SQL_LIMITS } from "./limits";
import type { WorkMeter } from "./plan-nodes";
import { estimateRegexProgram } from "./regex-size";
import { checkStringLength, SqlRunError } from "./run-error";

type TemplatePart = string | number;

export class Pattern {
  constructor(
    private readonly re: RE2JS,
    /** The function or operator that uses it, for messages (`REGEXP_MATCH`, `LIKE`). */
    private readonly user: string,
    /** The compiled program's instructions. */
    readonly instructions: number,
  ) {}

  /** Capturing groups. */
  get groups(): number {
    return this.re.groupCount();
  }

  test(text: string, meter: WorkMeter): boolean {
    this.charge(text, meter);
    return this.re.test(text);
  }

  /** REGEXP_EXTRACT: the first capturing group's text (or the whole match without one), or null. */
  extract(text: string, meter: WorkMeter): string | null {
    this.charge(text, meter);
    const matcher = this.re.matcher(text);
    if (!matcher.find()) return null;
    const found = this.groups === 0 ? matcher.group(0) : matcher.group(1);
    meter.charge(found?.length ?? 0);
    return found;
  }

  /**
   * REGEXP_REPLACE of every match by `template` (parseReplacement). The result is bounded while
   * it is built: an empty pattern matches between every two characters, so a long replacement
   * would otherwise multiply the input before any check could see it.
   */
  replace(text: string, template: readonly TemplatePart[], meter: WorkMeter): string {
    this.charge(text, meter);
    const groups = this.groups;
    let built = text.length;
    const result = this.re.matcher(text).replaceAll((...args: unknown[]) => {
      let out = "";
      for (const part of template) {
        if (typeof part === "string") out += part;
        else if (part <= groups) {
          const group = args[part];
          out += typeof group === "string" ? group : "";
        }
      }
      built += out.length;
      checkStringLength(built);
      return out;
    });
    meter.charge(result.length);
    checkStringLength(result.length);
    return result;
  }

  /** The worst case of one match over `text`, counted before it runs. */
  private charge(text: string, meter: WorkMeter): void {
    const steps = (text.length + 1) * this.instructions;
    if (steps > SQL_LIMITS.maxRowSteps) {
      throw new SqlRunError(
        `${this.user} over a value of ${text.length} characters with a pattern of ${this.instructions} instructions ` +
          `needs more than ${SQL_LIMITS.maxRowSteps} steps of work (SQL_LIMITS.maxRowSteps); narrow the input or simplify the pattern`,
      );
    }
    meter.charge(steps);
  }
}

function tooLarge(what: string, instructions: number, offset: number): SqlFailure {
  return new SqlFailure(
    `${what}: pattern too large - compile failed (${instructions} instructions, more than ${SQL_LIMITS.maxRegexProgram}: SQL_LIMITS.maxRegexProgram)`,
    offset,
  );
}

/** A regular expression from a query, or a SqlFailure at `offset` in BigQuery's words. */
export function compileRegex(source: string, offset: number, user: string): Pattern {
  const what = "Cannot parse regular expression";
  if (source.length > SQL_LIMITS.maxRegexLength) {
    throw new SqlFailure(
      `${what}: longer than ${SQL_LIMITS.maxRegexLength} characters (SQL_LIMITS.maxRegexLength)`,
      offset,
    );
  }
  const estimate = estimateRegexProgram(source);
  if (estimate > SQL_LIMITS.maxRegexProgram) throw tooLarge(what, estimate, offset);
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (error) {
    const detail =
      error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : String(error);
    throw new SqlFailure(`${what}: ${detail}`, offset);
  }
  const instructions = re.programSize();
  if (instructions > SQL_LIMITS.maxRegexProgram) throw tooLarge(what, instructions, offset);
  return new Pattern(re, user, instructions);
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
  const estimate = estimateRegexProgram(source);
  if (estimate > SQL_LIMITS.maxRegexProgram) throw tooLarge("LIKE pattern", estimate, offset);
  const re = RE2JS.compile(`^${source}$`);
  return new Pattern(re, "LIKE", re.programSize());
}

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
