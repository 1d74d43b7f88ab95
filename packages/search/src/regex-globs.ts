import { escapeGlob } from "./patterns";

/**
 * Regular expressions as the GLOB patterns SQLite can run (D1 has no REGEXP): a regex becomes
 * the list of GLOB patterns whose union matches what it matches. A pattern is a literal run,
 * `?` (one character), `*` (any run) and character classes, so a regex translates when every
 * repetition it makes is of "any character" (`.*`, `.+`, `.{2,}`) or bounded (`x?`, `x{2,4}`),
 * and its alternatives (`a|b`, `(co|llc)?`, Lucene's numeric interval `<1001-9999>`) are few
 * enough to list. Anything else (`x+` on a literal, back references, look-arounds) is refused.
 */

/** The most patterns one regular expression may expand to. */
export const MAX_REGEX_PATTERNS = 256;

export interface GlobPattern {
  body: string;
  /** The regex began with `^` / ended with `$` (it then matches from the value's start / to its end). */
  start: boolean;
  end: boolean;
}

class Unsupported extends Error {}

/** One way a piece of the regex can match: its GLOB text, and whether it is "any run" (`*`). */
type Alternatives = string[];

interface Piece {
  alternatives: Alternatives;
  /** A single "any character" (`.`), which alone may repeat without bound. */
  any: boolean;
}

function product(left: Alternatives, right: Alternatives): Alternatives {
  if (left.length * right.length > MAX_REGEX_PATTERNS) throw new Unsupported();
  return left.flatMap((a) => right.map((b) => a + b));
}

function union(lists: Alternatives[]): Alternatives {
  const out = [...new Set(lists.flat())];
  if (out.length > MAX_REGEX_PATTERNS) throw new Unsupported();
  return out;
}

/** GLOB patterns of the integers `low`..`high` written without leading zeros (Lucene's `<low-high>`). */
export function numericRangeGlobs(low: number, high: number): string[] {
  if (low > high) return [];
  const lowText = String(low);
  const highText = String(high);
  if (lowText.length < highText.length) {
    const top = 10 ** lowText.length - 1;
    return [...numericRangeGlobs(low, top), ...numericRangeGlobs(top + 1, high)];
  }
  return digitRange(lowText, highText);
}

const digitClass = (low: number, high: number): string => (low === high ? String(low) : `[${low}-${high}]`);

/** GLOB patterns of the equal-width digit strings `low`..`high`. */
function digitRange(low: string, high: string): string[] {
  if (low.length === 0) return [""];
  if (/^0*$/.test(low) && /^9*$/.test(high)) return ["[0-9]".repeat(low.length)];
  const lowDigit = Number(low[0]);
  const highDigit = Number(high[0]);
  if (low.length === 1) return [digitClass(lowDigit, highDigit)];
  const lowRest = low.slice(1);
  const highRest = high.slice(1);
  if (lowDigit === highDigit) return digitRange(lowRest, highRest).map((tail) => `${lowDigit}${tail}`);
  const width = lowRest.length;
  const lowFull = /^0*$/.test(lowRest);
  const highFull = /^9*$/.test(highRest);
  // The low digit's numbers from lowRest up, whole runs of the digits between, the high digit's.
  const first = lowFull ? lowDigit : lowDigit + 1;
  const last = highFull ? highDigit : highDigit - 1;
  const out: string[] = [];
  if (!lowFull) out.push(...digitRange(lowRest, "9".repeat(width)).map((tail) => `${lowDigit}${tail}`));
  if (first <= last) out.push(`${digitClass(first, last)}${"[0-9]".repeat(width)}`);
  if (!highFull) out.push(...digitRange("0".repeat(width), highRest).map((tail) => `${highDigit}${tail}`));
  return out;
}

class RegexReader {
  private pos = 0;

  constructor(private readonly source: string) {}

  read(): Alternatives {
    const result = this.alternation();
    if (this.pos < this.source.length) throw new Unsupported();
    return result;
  }

  private peek(offset = 0): string | undefined {
    return this.source[this.pos + offset];
  }

  private alternation(): Alternatives {
    const branches = [this.sequence()];
    while (this.peek() === "|") {
      this.pos++;
      branches.push(this.sequence());
    }
    return union(branches);
  }

  private sequence(): Alternatives {
    let out: Alternatives = [""];
    while (this.pos < this.source.length && this.peek() !== "|" && this.peek() !== ")") {
      const piece = this.atom();
      out = product(out, this.quantified(piece));
    }
    return out;
  }

  /** The piece with the quantifier that follows it applied (a lazy `?` after it changes nothing). */
  private quantified(piece: Piece): Alternatives {
    const rest = this.source.slice(this.pos);
    const match = /^(?:\*|\+|\?|\{(\d{1,3})(?:(,)(\d{0,3}))?\})/.exec(rest);
    if (!match) return piece.alternatives;
    this.pos += match[0].length;
    if (this.peek() === "?") this.pos++;
    const [token, exact, comma, upper] = match;
    const min = token === "*" || token === "?" ? 0 : token === "+" ? 1 : Number(exact);
    const max =
      token === "*" || token === "+" || (comma !== undefined && upper === "")
        ? Infinity
        : token === "?"
          ? 1
          : comma === undefined
            ? min
            : Number(upper);
    if (max < min) throw new Unsupported();
    if (max === Infinity) {
      if (!piece.any) throw new Unsupported();
      return ["?".repeat(min) + "*"];
    }
    if (max - min > 8) throw new Unsupported();
    const counts: Alternatives[] = [];
    for (let count = min; count <= max; count++) {
      let repeated: Alternatives = [""];
      for (let i = 0; i < count; i++) repeated = product(repeated, piece.alternatives);
      counts.push(repeated);
    }
    return union(counts);
  }

  private atom(): Piece {
    const char = this.peek() ?? "";
    if (char === "(") {
      this.pos++;
      if (this.source.startsWith("?:", this.pos)) this.pos += 2;
      else if (this.peek() === "?") throw new Unsupported();
      const inner = this.alternation();
      if (this.peek() !== ")") throw new Unsupported();
      this.pos++;
      return { alternatives: inner, any: false };
    }
    if (char === ".") {
      this.pos++;
      return { alternatives: ["?"], any: true };
    }
    if (char === "[") return { alternatives: [this.characterClass()], any: false };
    if (char === "<") {
      const interval = /^<(\d{1,9})-(\d{1,9})>/.exec(this.source.slice(this.pos));
      if (interval) {
        this.pos += interval[0].length;
        const globs = numericRangeGlobs(Number(interval[1]), Number(interval[2]));
        if (globs.length === 0 || globs.length > MAX_REGEX_PATTERNS) throw new Unsupported();
        return { alternatives: globs, any: false };
      }
    }
    if (char === "\\") {
      const next = this.peek(1);
      if (next === undefined) throw new Unsupported();
      this.pos += 2;
      if (next === "d") return { alternatives: ["[0-9]"], any: false };
      if (next === "w") return { alternatives: ["[A-Za-z0-9_]"], any: false };
      if (next === "s") return { alternatives: ["[ \t\r\n]"], any: false };
      // Other letter escapes (\b, \D, \W, \S, back references) have no GLOB form.
      if (/[A-Za-z0-9]/.test(next)) throw new Unsupported();
      return { alternatives: [escapeGlob(next)], any: false };
    }
    if ("*+?{}^$|)]".includes(char)) throw new Unsupported();
    this.pos++;
    return { alternatives: [escapeGlob(char)], any: false };
  }

  private characterClass(): string {
    const close = this.source.indexOf("]", this.pos + 2);
    if (close === -1) throw new Unsupported();
    const inner = this.source.slice(this.pos + 1, close);
    this.pos = close + 1;
    const negated = inner.startsWith("^");
    const members = (negated ? inner.slice(1) : inner)
      .replace(/\\d/g, "0-9")
      .replace(/\\w/g, "A-Za-z0-9_")
      .replace(/\\s/g, " \t\r\n")
      .replace(/\\([^A-Za-z0-9])/g, "$1");
    if (members === "" || /[[\\]/.test(members)) throw new Unsupported();
    return `[${negated ? "^" : ""}${members}]`;
  }
}

/**
 * The GLOB patterns a regular expression expands to, with its anchors, or null when it uses
 * anything GLOB cannot express or expands past MAX_REGEX_PATTERNS.
 */
export function regexToGlobs(source: string): GlobPattern[] | null {
  let rest = source;
  const start = rest.startsWith("^");
  if (start) rest = rest.slice(1);
  const end = /(^|[^\\])(\\\\)*\$$/.test(rest);
  if (end) rest = rest.slice(0, -1);
  try {
    return new RegexReader(rest).read().map((body) => ({ body, start, end }));
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}
