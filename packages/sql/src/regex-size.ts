/**
 * The size of the program a regular expression compiles to, estimated from its text alone:
 * compiling is itself the expensive part (`.{0,999}` written a hundred times takes seconds to
 * compile, then as long per value to match), so a pattern is measured before it is compiled.
 *
 * The measure is RE2's own (the parser's size check of Go's regexp/syntax, which re2js ports):
 * a literal character, class or escape is 1, a capture 2 plus its contents, `x*` 2 + x, `x+` and
 * `x?` 1 + x, `x{n,m}` m·x + (m − n), `x{n,}` 1 + n·x, an alternation its branches plus one per
 * branch after the first. Malformed text is measured as far as it can be; compiling it reports
 * the error.
 */

/** Instructions every program has besides its pattern's (start and match). */
const PROGRAM_OVERHEAD = 2;

/** Counts past this mean "too large" already; it keeps the arithmetic exact. */
const CEILING = 1e9;

class SizeReader {
  private i = 0;

  constructor(private readonly text: string) {}

  /** The whole pattern; a stray `)` is read as a character. */
  pattern(): number {
    let size = this.alternation();
    while (this.i < this.text.length) {
      this.i += 1;
      size += 1 + this.alternation();
    }
    return Math.max(1, size) + PROGRAM_OVERHEAD;
  }

  private alternation(): number {
    let size = this.concatenation();
    while (this.text[this.i] === "|") {
      this.i += 1;
      size += 1 + this.concatenation();
    }
    return size;
  }

  private concatenation(): number {
    let size = 0;
    while (this.i < this.text.length && this.text[this.i] !== "|" && this.text[this.i] !== ")") {
      let atom = this.atom();
      for (;;) {
        const repeated = this.repetition(atom);
        if (repeated === null) break;
        atom = repeated;
      }
      size = Math.min(CEILING, size + atom);
    }
    return size;
  }

  private atom(): number {
    const ch = this.text[this.i];
    this.i += 1;
    if (ch === "(") return this.group();
    if (ch === "[") return this.characterClass();
    if (ch === "\\") return this.escape();
    return 1;
  }

  /** After `(`: a flag setting is 0, a non-capturing group its contents, a capture 2 more. */
  private group(): number {
    let capture = true;
    if (this.text[this.i] === "?") {
      const rest = this.text.slice(this.i + 1);
      const named = /^P?<[^>]*>/.exec(rest);
      if (named) {
        this.i += 1 + named[0].length;
      } else {
        const flags = /^[a-zA-Z-]*[:)]/.exec(rest);
        this.i += 1 + (flags?.[0].length ?? 0);
        if (flags?.[0].endsWith(")")) return 0;
        capture = false;
      }
    }
    const inner = this.alternation();
    if (this.text[this.i] === ")") this.i += 1;
    return capture ? 2 + inner : inner;
  }

  /** After `[`: to the closing `]` (a `]` first is literal; escapes and `[:name:]` inside). */
  private characterClass(): number {
    if (this.text[this.i] === "^") this.i += 1;
    if (this.text[this.i] === "]") this.i += 1;
    while (this.i < this.text.length && this.text[this.i] !== "]") {
      if (this.text[this.i] === "\\") this.i += 2;
      else if (this.text.startsWith("[:", this.i)) {
        const end = this.text.indexOf(":]", this.i + 2);
        this.i = end < 0 ? this.i + 1 : end + 2;
      } else this.i += 1;
    }
    this.i += 1;
    return 1;
  }

  /** After `\`: `\Q...\E` is its characters; any other escape is one instruction. */
  private escape(): number {
    const ch = this.text[this.i];
    this.i += 1;
    if (ch === "Q") {
      const end = this.text.indexOf("\\E", this.i);
      const literal = (end < 0 ? this.text.length : end) - this.i;
      this.i = end < 0 ? this.text.length : end + 2;
      return Math.max(1, literal);
    }
    if ((ch === "p" || ch === "P" || ch === "x") && this.text[this.i] === "{") {
      const end = this.text.indexOf("}", this.i);
      this.i = end < 0 ? this.text.length : end + 1;
    } else if (ch === "p" || ch === "P") {
      this.i += 1;
    } else if (ch === "x") {
      this.i += 2;
    }
    return 1;
  }

  /** A repetition operator after an operand of `size`: the repeated size, or null when there is none. */
  private repetition(size: number): number | null {
    const ch = this.text[this.i];
    let repeated: number;
    if (ch === "*") {
      this.i += 1;
      repeated = 2 + size;
    } else if (ch === "+" || ch === "?") {
      this.i += 1;
      repeated = 1 + size;
    } else if (ch === "{") {
      const counted = /^\{(\d+)(,(\d*))?\}/.exec(this.text.slice(this.i, this.i + 24));
      if (!counted) return null;
      this.i += counted[0].length;
      const min = Math.min(CEILING, Number(counted[1]));
      const max =
        counted[2] === undefined ? min : counted[3] === "" ? -1 : Math.min(CEILING, Number(counted[3]));
      repeated = max === -1 ? (min === 0 ? 2 + size : 1 + min * size) : max * size + Math.max(0, max - min);
    } else {
      return null;
    }
    // A non-greedy `?` after the operator changes the order of matching, not the program's size.
    if (this.text[this.i] === "?") this.i += 1;
    return Math.min(CEILING, Math.max(1, repeated));
  }
}

/** The estimated instructions of `source`'s program (re2js `programSize()` for patterns that compile). */
export function estimateRegexProgram(source: string): number {
  return new SizeReader(source).pattern();
}
