import { andOf, orOf, type Dialect, type QueryNode, type TermValue, type Value } from "./ast";
import { QueryError, catchQueryError, quoteToken, type QueryResult } from "./query-error";
import {
  boostLength,
  opensQuote,
  readBracket,
  readQuoted,
  readRegex,
  readWord,
  type Cursor,
} from "./value-reader";

/** Longer queries are refused before parsing (the SQL they compile to has limits too). */
export const MAX_QUERY_LENGTH = 8192;
/** Parentheses, groups and negations nest at most this deep (D1 caps SQL expression depth). */
export const MAX_NESTING = 20;

/**
 * Parse a query of any dialect. Empty (or blank) input and `*` / `*:*` mean "match all".
 * Returns a result value; a QueryError names the position and token where parsing failed.
 *
 * CenQL (the Platform's language) reads like v2 (adjacent terms AND, `=` exact, sets,
 * backticks) with its own differences: `field =~ "regex"` instead of `/regex/` (a `/` starts
 * an ordinary word, as in paths), no `same_service(...)` alias, and `!=` refused with a hint.
 * Its field names keep their resource prefix (`host.`, `cert.`, `web.`); `cenqlTarget`
 * resolves them.
 */
export function parseQuery(input: string, dialect: Dialect): QueryResult<QueryNode> {
  return catchQueryError(() => new Parser(input, dialect).parse());
}

/** How a clause takes part in a v1 sequence of adjacent clauses (Lucene's occurrence). */
type Occur = "must" | "must_not" | "should";
interface Clause {
  node: QueryNode;
  occur: Occur;
}

const FIELD_CHAR = /[A-Za-z0-9_.]/;
const FIELD_NAME = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;
const WORD_OPERATOR = /^(and|or|not)(?=[\s()"`]|$)/i;

/** Whether a bare term holds anything a full-text analyzer keeps (a letter or digit). */
function analyzable(node: QueryNode): boolean {
  if (node.type !== "text" || node.value.kind === "regex") return true;
  const text = node.value.kind === "term" ? node.value.text : node.value.pattern;
  return /[\p{L}\p{N}]/u.test(text);
}

/**
 * v1 clauses without the bare terms Lucene's analyzer reduces to nothing (`""`, a lone
 * backtick), which it leaves out of the query rather than failing on; all of them when that
 * would leave none, so the query still says what is wrong with it.
 */
function withoutEmptyTerms(clauses: Clause[]): Clause[] {
  const kept = clauses.filter((clause) => analyzable(clause.node));
  return kept.length > 0 ? kept : clauses;
}

class Parser implements Cursor {
  pos = 0;
  private nesting = 0;

  constructor(
    readonly input: string,
    readonly dialect: Dialect,
  ) {}

  parse(): QueryNode {
    if (this.input.length > MAX_QUERY_LENGTH) {
      throw new QueryError(
        `query is too long: at most ${MAX_QUERY_LENGTH} characters (it ends at position ${MAX_QUERY_LENGTH})`,
        MAX_QUERY_LENGTH,
        "",
      );
    }
    this.skipWs();
    if (this.atEnd()) return { type: "all" };
    const node = this.parseOr();
    this.skipWs();
    if (!this.atEnd()) throw this.unexpected();
    return node;
  }

  // ---- cursor helpers (shared with value-reader) ------------------------------------------

  peek(offset = 0): string | undefined {
    return this.input[this.pos + offset];
  }

  atEnd(): boolean {
    return this.pos >= this.input.length;
  }

  skipWs(): void {
    while (!this.atEnd() && /\s/.test(this.input[this.pos] ?? "")) this.pos++;
  }

  /** The token at the cursor, as shown in a message: an operator, a word, or one character. */
  tokenAt(pos = this.pos): string {
    const rest = this.input.slice(pos);
    const match = /^(&&|\|\||[^\s()[\]{}",`]+)/.exec(rest);
    return match?.[1] ?? rest.charAt(0);
  }

  unexpected(pos = this.pos): QueryError {
    if (pos >= this.input.length)
      return new QueryError(`unexpected end of query at position ${pos}`, pos, "");
    const token = this.tokenAt(pos);
    return new QueryError(`unexpected ${quoteToken(token)} at position ${pos}`, pos, token);
  }

  // ---- boolean structure ------------------------------------------------------------------

  /** The boolean operator word or symbol at the cursor, without consuming it. */
  private operatorAt(): { kind: "and" | "or" | "not"; text: string } | null {
    if (this.input.startsWith("&&", this.pos)) return { kind: "and", text: "&&" };
    if (this.input.startsWith("||", this.pos)) return { kind: "or", text: "||" };
    const match = WORD_OPERATOR.exec(this.input.slice(this.pos, this.pos + 4));
    if (!match?.[1]) return null;
    return { kind: match[1].toLowerCase() as "and" | "or" | "not", text: match[1] };
  }

  /** After a binary or prefix operator something must follow. */
  private expectOperand(operator: string, operatorPos: number): void {
    this.skipWs();
    if (this.atEnd()) {
      throw new QueryError(
        `expected a term after ${quoteToken(operator)} at position ${operatorPos}, but the query ends`,
        operatorPos,
        operator,
      );
    }
  }

  private nested<T>(pos: number, token: string, parse: () => T): T {
    if (++this.nesting > MAX_NESTING) {
      throw new QueryError(
        `query nests too deeply at position ${pos}: at most ${MAX_NESTING} levels of parentheses and negations`,
        pos,
        token,
      );
    }
    const result = parse();
    this.nesting--;
    return result;
  }

  private parseOr(): QueryNode {
    const branches = [this.parseSequence()];
    for (;;) {
      this.skipWs();
      const operator = this.operatorAt();
      if (operator?.kind !== "or") break;
      const operatorPos = this.pos;
      this.pos += operator.text.length;
      this.expectOperand(operator.text, operatorPos);
      branches.push(this.parseSequence());
    }
    return orOf(branches);
  }

  /** Clauses written next to each other: OR in v1, AND in v2 and CenQL. */
  private parseSequence(): QueryNode {
    let clauses = [this.parseAnd()];
    while (this.startsClause()) clauses.push(this.parseAnd());
    if (this.dialect === "v1") clauses = withoutEmptyTerms(clauses);
    if (clauses.length === 1 && clauses[0]) return clauses[0].node;
    if (this.dialect !== "v1") return andOf(clauses.map((clause) => clause.node));
    // v1 follows Lucene: `+` clauses are required, `-`/NOT clauses excluded, and the plain
    // clauses are alternatives, of which one must match unless a required clause is present.
    const must = clauses.filter((clause) => clause.occur === "must").map((clause) => clause.node);
    const should = clauses.filter((clause) => clause.occur === "should").map((clause) => clause.node);
    const mustNot = clauses.filter((clause) => clause.occur === "must_not").map((clause) => clause.node);
    const parts = [...must];
    if (must.length === 0 && should.length > 0) parts.push(orOf(should));
    return andOf([...parts, ...mustNot]);
  }

  private startsClause(): boolean {
    this.skipWs();
    if (this.atEnd() || this.peek() === ")") return false;
    const operator = this.operatorAt();
    return operator === null || operator.kind === "not";
  }

  private parseAnd(): Clause {
    const first = this.parseUnary();
    const items = [first];
    for (;;) {
      this.skipWs();
      const operator = this.operatorAt();
      if (operator?.kind !== "and") break;
      const operatorPos = this.pos;
      this.pos += operator.text.length;
      this.expectOperand(operator.text, operatorPos);
      items.push(this.parseUnary());
    }
    if (items.length === 1) return first;
    const kept = this.dialect === "v1" ? withoutEmptyTerms(items) : items;
    if (kept.length === 1 && kept[0])
      return { node: kept[0].node, occur: this.dialect === "v1" ? "must" : "should" };
    // Lucene's AND makes both sides required, beside which plain adjacent terms are optional.
    return { node: andOf(kept.map((item) => item.node)), occur: this.dialect === "v1" ? "must" : "should" };
  }

  private parseUnary(): Clause {
    this.skipWs();
    const start = this.pos;
    const operator = this.operatorAt();
    const char = this.peek();
    if (operator?.kind === "not" || char === "!") {
      const text = operator?.kind === "not" ? operator.text : "!";
      this.pos += text.length;
      this.expectOperand(text, start);
      const inner = this.nested(start, text, () => this.parseUnary());
      return { node: { type: "not", child: inner.node }, occur: "must_not" };
    }
    if (char === "-" || char === "+") {
      const next = this.peek(1);
      if (next === undefined || /\s/.test(next)) {
        throw new QueryError(`expected a term right after "${char}" at position ${start}`, start, char);
      }
      this.pos++;
      const inner = this.nested(start, char, () => this.parseUnary());
      if (char === "+") return { node: inner.node, occur: "must" };
      return { node: { type: "not", child: inner.node }, occur: "must_not" };
    }
    const node = this.parsePrimary();
    this.pos += boostLength(this, this.pos);
    return { node, occur: "should" };
  }

  private parsePrimary(): QueryNode {
    this.skipWs();
    const start = this.pos;
    const char = this.peek();
    if (char === undefined) throw this.unexpected();
    if (char === "(") {
      this.pos++;
      return this.nested(start, "(", () => this.parseGroupBody(start));
    }
    if (opensQuote(char, this.dialect)) return { type: "text", value: readQuoted(this) };
    if (char === "/" && this.dialect !== "cenql") return { type: "text", value: readRegex(this) };
    if (char === "*" && this.isDelimiter(start + 1)) {
      this.pos++;
      return { type: "all" };
    }
    if (this.input.startsWith("*:*", start) && this.isDelimiter(start + 3)) {
      this.pos += 3;
      return { type: "all" };
    }
    if (char === ":") {
      throw new QueryError(
        `a field name is missing before ":" at position ${start} (to search for a colon, quote it: ":")`,
        start,
        ":",
      );
    }
    if (char === "[" || char === "{") {
      throw new QueryError(
        `a range or set needs a field, like port: [1 TO 1024], at position ${start}`,
        start,
        this.tokenAt(),
      );
    }
    if (")]},".includes(char) || this.operatorAt() !== null) throw this.unexpected();
    return this.parseFieldClause() ?? { type: "text", value: readWord(this, false) };
  }

  /** `isDelimiter` for a lone `*`: it is "everything" only when nothing is glued to it. */
  private isDelimiter(pos: number): boolean {
    const char = this.input[pos];
    return char === undefined || char === ")" || /\s/.test(char);
  }

  private parseGroupBody(openPos: number): QueryNode {
    const body = this.parseOr();
    this.skipWs();
    if (this.atEnd()) {
      throw new QueryError(
        `unbalanced "(" at position ${openPos}: missing ")" before the end of the query`,
        openPos,
        "(",
      );
    }
    if (this.peek() !== ")") throw this.unexpected();
    this.pos++;
    return body;
  }

  // ---- field clauses ------------------------------------------------------------------------

  /** `name:`, `name =`, `name >` ... or `same_service(`; null (cursor unmoved) for a bare term. */
  private parseFieldClause(): QueryNode | null {
    const start = this.pos;
    let end = start;
    while (end < this.input.length && FIELD_CHAR.test(this.input[end] ?? "")) end++;
    if (end === start) return null;
    const name = this.input.slice(start, end);
    let next = end;
    while (next < this.input.length && /\s/.test(this.input[next] ?? "")) next++;
    const operator = this.input[next];
    if (name.toLowerCase() === "same_service" && operator === "(") {
      if (this.dialect === "cenql") {
        throw new QueryError(
          `same_service(...) is legacy syntax, at position ${start}; in CenQL write host.services: (...)`,
          start,
          name,
        );
      }
      this.pos = next + 1;
      // Censys's alias for `services: (...)`: every condition applies to one service.
      const body = this.nested(start, name, () => this.parseGroupBody(next));
      return { type: "group", field: "services", position: start, body };
    }
    if (operator === "!" && this.input[next + 1] === "=" && this.dialect === "cenql") {
      throw new QueryError(`"!=" is not CenQL, at position ${next}; write not ${name} = value`, next, "!=");
    }
    if (operator !== ":" && operator !== "=" && operator !== "<" && operator !== ">") return null;
    if (!FIELD_NAME.test(name)) {
      throw new QueryError(`invalid field name ${quoteToken(name)} at position ${start}`, start, name);
    }
    this.pos = next;
    if (operator === "<" || operator === ">") return this.parseComparison(name, start);
    if (operator === "=" && this.input[next + 1] === "~") return this.parseRegexMatch(name, start);
    this.pos++;
    if (operator === "=" && this.dialect === "v1") {
      throw new QueryError(
        `"=" (exact match) is v2 syntax at position ${next}; in v1 write ${name}: value`,
        next,
        "=",
      );
    }
    this.skipWs();
    // `field:>5` (Elasticsearch style) means the same as `field > 5`.
    if (operator === ":" && (this.peek() === ">" || this.peek() === "<"))
      return this.parseComparison(name, start);
    return this.parseFieldValue(name, start, operator === "=" ? "exact" : "match");
  }

  /**
   * CenQL's `field =~ "regex"`: the pattern is a quoted string (its escapes resolved, so `\\.`
   * in the query is the regex `\.`). Elsewhere `=~` is not an operator.
   */
  private parseRegexMatch(field: string, fieldPos: number): QueryNode {
    const opPos = this.pos;
    if (this.dialect !== "cenql") {
      throw new QueryError(
        `"=~" is CenQL syntax at position ${opPos}; here write ${field}: /regex/`,
        opPos,
        "=~",
      );
    }
    this.pos += 2;
    this.skipWs();
    const char = this.peek();
    if (!opensQuote(char, this.dialect)) {
      if (char === undefined || ")]},".includes(char) || this.operatorAt() !== null)
        throw this.expectedValue(field);
      const token = this.tokenAt();
      throw new QueryError(
        `a regular expression after "=~" is a quoted string, like ${field} =~ "ab.*", at position ${this.pos}, found ${quoteToken(token)}`,
        this.pos,
        token,
      );
    }
    const quoted = readQuoted(this);
    if (quoted.text === "") {
      throw new QueryError(
        `empty regular expression at position ${quoted.position}`,
        quoted.position,
        quoted.raw,
      );
    }
    const value: Value = { kind: "regex", source: quoted.text, position: quoted.position, raw: quoted.raw };
    return { type: "field", field, position: fieldPos, op: "match", value };
  }

  /** `field > 5`, `field >= 2020-01-01`, `field < now-1d`, `field <= 9`: one-sided ranges. */
  private parseComparison(field: string, fieldPos: number): QueryNode {
    const opPos = this.pos;
    const operator = this.input.startsWith("=", opPos + 1) ? this.input.slice(opPos, opPos + 2) : this.peek();
    this.pos += operator?.length ?? 1;
    this.skipWs();
    const bound = this.readComparisonBound(field);
    const inclusive = operator?.endsWith("=") ?? false;
    const side = { value: bound, inclusive };
    const raw = this.input.slice(opPos, this.pos);
    const value: Value = operator?.startsWith(">")
      ? { kind: "range", lower: side, upper: null, position: opPos, raw }
      : { kind: "range", lower: null, upper: side, position: opPos, raw };
    return { type: "field", field, position: fieldPos, op: "match", value };
  }

  private readComparisonBound(field: string): TermValue {
    const char = this.peek();
    if (opensQuote(char, this.dialect)) return readQuoted(this);
    if (char === undefined || "()[]{},".includes(char) || this.operatorAt() !== null)
      throw this.expectedValue(field);
    const word = readWord(this, false);
    if (word.kind === "wildcard") {
      throw new QueryError(
        `a comparison takes a single value, not the wildcard ${quoteToken(word.raw)} at position ${word.position}`,
        word.position,
        word.raw,
      );
    }
    return word;
  }

  expectedValue(field: string): QueryError {
    const pos = this.pos;
    if (this.atEnd()) {
      return new QueryError(
        `expected a value for ${quoteToken(field)} at position ${pos}, but the query ends`,
        pos,
        "",
      );
    }
    const token = this.tokenAt();
    return new QueryError(
      `expected a value for ${quoteToken(field)} at position ${pos}, found ${quoteToken(token)}`,
      pos,
      token,
    );
  }

  private parseFieldValue(field: string, fieldPos: number, op: "match" | "exact"): QueryNode {
    const start = this.pos;
    const char = this.peek();
    if (char === "(" && op === "match") {
      this.pos++;
      const body = this.nested(start, "(", () => this.parseGroupBody(start));
      return { type: "group", field, position: fieldPos, body };
    }
    if (char === undefined || "()]},".includes(char) || this.operatorAt() !== null)
      throw this.expectedValue(field);
    let value: Value;
    if (char === "*" && this.isDelimiter(start + 1)) {
      this.pos++;
      value = { kind: "exists", position: start, raw: "*" };
    } else if (char === "[" || char === "{") {
      value = readBracket(this, field);
    } else if (char === "/" && this.dialect !== "cenql") {
      value = readRegex(this);
    } else if (opensQuote(char, this.dialect)) {
      value = readQuoted(this, true);
    } else {
      value = readWord(this, false);
    }
    if (field === "_exists_") return this.existsClause(value);
    return { type: "field", field, position: fieldPos, op, value };
  }

  /** Lucene's `_exists_: field` is `field: *`. */
  private existsClause(value: Value): QueryNode {
    if (value.kind !== "term" || value.quoted || !FIELD_NAME.test(value.text)) {
      throw new QueryError(
        `_exists_ takes a field name, not ${quoteToken(value.raw)} at position ${value.position}`,
        value.position,
        value.raw,
      );
    }
    return {
      type: "field",
      field: value.text,
      position: value.position,
      op: "match",
      value: { kind: "exists", position: value.position, raw: value.raw },
    };
  }
}
