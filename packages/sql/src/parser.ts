import type {
  BinaryOperator,
  ColumnRef,
  Expr,
  FromItem,
  JoinType,
  OrderItem,
  Query,
  Select,
  SelectItem,
  Span,
} from "./ast";
import { SqlFailure, type SqlResult } from "./errors";
import { tokenize, type Token } from "./lexer";
import { SQL_LIMITS } from "./limits";

/**
 * The parser of the job dialect: recursive descent over `tokenize`'s tokens into the tree of
 * `ast.ts`. No published JavaScript parser reads BigQuery legacy SQL (`[ipv4.20261031]`,
 * `x CONTAINS 'y'`, numeric table suffixes, `GROUP EACH BY`), so this one does; it reads one
 * query (`WITH` CTEs are expanded into derived tables) and enforces the text bounds of
 * SQL_LIMITS, so every place that checks the same text gives the same answer.
 *
 * Precedence, lowest first (BigQuery's): OR; AND; NOT; comparisons (`=`, `!=`, `<`, `LIKE`,
 * `IN`, `BETWEEN`, `IS`, `CONTAINS`); `+ -`; `* / % ||`; unary `- +`.
 */

/** Words that end an expression or a FROM item, so they cannot be implicit aliases. */
const RESERVED = new Set(
  (
    "ALL AND AS ASC BETWEEN BY CASE CAST CONTAINS CROSS DESC DISTINCT EACH ELSE END EXCEPT EXISTS " +
    "FALSE FLATTEN FROM FULL GROUP HAVING IGNORE IN INNER INTERSECT IS JOIN LEFT LIKE LIMIT NOT NULL " +
    "NULLS OFFSET OMIT ON OR ORDER OUTER OVER RIGHT SELECT THEN TRUE UNION UNNEST USING WHEN WHERE " +
    "WINDOW WITH"
  ).split(" "),
);

const COMPARISONS: Record<string, BinaryOperator> = {
  "=": "=",
  "!=": "!=",
  "<": "<",
  "<=": "<=",
  ">": ">",
  ">=": ">=",
};

class Parser {
  private pos = 0;
  private depth = 0;
  private nodes = 0;
  private selects = 0;
  /** Common table expressions in scope, by lower-case name. */
  private readonly ctes = new Map<string, Query>();

  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
  ) {}

  // ---- token helpers -------------------------------------------------------------------------

  private get current(): Token {
    return this.tokens[this.pos] ?? (this.tokens[this.tokens.length - 1] as Token);
  }

  private peek(offset = 1): Token {
    return this.tokens[this.pos + offset] ?? (this.tokens[this.tokens.length - 1] as Token);
  }

  private next(): Token {
    const token = this.current;
    if (token.kind !== "end") this.pos += 1;
    return token;
  }

  private isWord(word: string, token = this.current): boolean {
    return token.kind === "word" && token.upper === word;
  }

  private isSymbol(symbol: string, token = this.current): boolean {
    return token.kind === "symbol" && token.text === symbol;
  }

  private acceptWord(word: string): boolean {
    if (!this.isWord(word)) return false;
    this.pos += 1;
    return true;
  }

  private acceptSymbol(symbol: string): boolean {
    if (!this.isSymbol(symbol)) return false;
    this.pos += 1;
    return true;
  }

  private describe(token: Token): string {
    switch (token.kind) {
      case "end":
        return "end of input";
      case "word":
        return RESERVED.has(token.upper) ? `keyword ${token.upper}` : `identifier ${token.text}`;
      case "quoted":
        return `identifier \`${token.text}\``;
      case "string":
        return `string literal "${token.text.length > 40 ? token.text.slice(0, 40) + "..." : token.text}"`;
      case "number":
        return `integer literal "${token.text}"`;
      case "symbol":
        return `"${token.text}"`;
    }
  }

  private fail(expected: string, token = this.current): never {
    throw new SqlFailure(`Syntax error: Expected ${expected} but got ${this.describe(token)}`, token.start);
  }

  private expectWord(word: string): Token {
    if (!this.isWord(word)) this.fail(`keyword ${word}`);
    return this.next();
  }

  private expectSymbol(symbol: string): Token {
    if (!this.isSymbol(symbol)) this.fail(`"${symbol}"`);
    return this.next();
  }

  private span(start: number): Span {
    const last = this.tokens[this.pos - 1];
    return { start, end: last ? Math.max(last.end, start) : start };
  }

  private node(): void {
    this.nodes += 1;
    if (this.nodes > SQL_LIMITS.maxNodes)
      throw new SqlFailure(`query has more than ${SQL_LIMITS.maxNodes} expressions`, this.current.start);
  }

  private nest<T>(read: () => T): T {
    this.depth += 1;
    if (this.depth > SQL_LIMITS.maxDepth)
      throw new SqlFailure(
        `query is nested more than ${SQL_LIMITS.maxDepth} levels deep`,
        this.current.start,
      );
    try {
      return read();
    } finally {
      this.depth -= 1;
    }
  }

  /** A name: a word that is not reserved, or a quoted name. */
  private isName(token = this.current): boolean {
    return (token.kind === "word" && !RESERVED.has(token.upper)) || token.kind === "quoted";
  }

  private name(what = "identifier"): string {
    if (!this.isName()) this.fail(what);
    return this.next().text;
  }

  /** `[AS] alias`, where the alias may be omitted. */
  private alias(): string | null {
    if (this.acceptWord("AS")) return this.name("alias");
    return this.isName() ? this.next().text : null;
  }

  // ---- statements ----------------------------------------------------------------------------

  parseStatement(): Query {
    if (this.isWord("OMIT")) throw new SqlFailure("OMIT RECORD IF is not supported", this.current.start);
    const query = this.query();
    while (this.acceptSymbol(";")) {
      /* trailing semicolons */
    }
    if (this.current.kind !== "end") {
      if (this.isWord("SELECT") || this.isWord("WITH"))
        throw new SqlFailure("only one statement is allowed", this.current.start);
      this.fail("end of input");
    }
    return query;
  }

  private query(): Query {
    return this.nest(() => {
      const start = this.current.start;
      const saved = new Map(this.ctes);
      try {
        if (this.acceptWord("WITH")) this.withClause();
        return this.setOperation(start);
      } finally {
        this.ctes.clear();
        for (const [k, v] of saved) this.ctes.set(k, v);
      }
    });
  }

  private withClause(): void {
    if (this.isWord("RECURSIVE")) throw new SqlFailure("WITH RECURSIVE is not supported", this.current.start);
    do {
      const name = this.name("a name for the WITH clause");
      this.expectWord("AS");
      this.expectSymbol("(");
      const query = this.query();
      this.expectSymbol(")");
      this.ctes.set(name.toLowerCase(), query);
    } while (this.acceptSymbol(","));
  }

  private setOperation(start: number): Query {
    const first = this.selectOrParenthesised();
    if (!this.isWord("UNION")) {
      if (this.isWord("INTERSECT") || this.isWord("EXCEPT"))
        throw new SqlFailure(`${this.current.upper} is not supported`, this.current.start);
      return first;
    }
    const queries: Query[] = [first];
    let distinct: boolean | null = null;
    while (this.acceptWord("UNION")) {
      const isDistinct = this.acceptWord("ALL") ? false : (this.acceptWord("DISTINCT"), true);
      if (distinct !== null && distinct !== isDistinct)
        throw new SqlFailure(
          "UNION ALL and UNION DISTINCT cannot be mixed without parentheses",
          this.current.start,
        );
      distinct = isDistinct;
      queries.push(this.selectOrParenthesised());
    }
    // The last member's ORDER BY and LIMIT belong to the whole union, as in BigQuery.
    const last = queries[queries.length - 1];
    let orderBy = this.orderBy();
    let { limit, offset } = this.limit();
    if (last?.kind === "select" && orderBy.length === 0 && limit === null && offset === null) {
      ({ orderBy, limit, offset } = last);
      queries[queries.length - 1] = { ...last, orderBy: [], limit: null, offset: null };
    }
    return {
      kind: "union",
      distinct: distinct ?? false,
      queries,
      orderBy,
      limit,
      offset,
      span: this.span(start),
    };
  }

  private selectOrParenthesised(): Query {
    if (this.isSymbol("(")) {
      this.next();
      const inner = this.query();
      this.expectSymbol(")");
      return inner;
    }
    return this.select();
  }

  private select(): Select {
    const start = this.current.start;
    this.expectWord("SELECT");
    this.selects += 1;
    if (this.selects > SQL_LIMITS.maxSelects)
      throw new SqlFailure(`query has more than ${SQL_LIMITS.maxSelects} SELECTs`, start);
    const distinct = this.acceptWord("DISTINCT") ? true : (this.acceptWord("ALL"), false);
    const items: SelectItem[] = [];
    do {
      // Legacy SQL tolerates a trailing comma before FROM.
      if (items.length > 0 && this.isWord("FROM")) break;
      items.push(this.selectItem());
    } while (this.acceptSymbol(","));
    const from = this.acceptWord("FROM") ? this.fromClause() : null;
    if (this.isWord("OMIT")) throw new SqlFailure("OMIT RECORD IF is not supported", this.current.start);
    const where = this.acceptWord("WHERE") ? this.expr() : null;
    const groupBy: Expr[] = [];
    if (this.acceptWord("GROUP")) {
      this.acceptWord("EACH");
      this.expectWord("BY");
      do groupBy.push(this.expr());
      while (this.acceptSymbol(","));
    }
    const having = this.acceptWord("HAVING") ? this.expr() : null;
    if (this.isWord("WINDOW") || this.isWord("QUALIFY"))
      throw new SqlFailure(`${this.current.upper} is not supported`, this.current.start);
    const orderBy = this.orderBy();
    const { limit, offset } = this.limit();
    return {
      kind: "select",
      distinct,
      items,
      from,
      where,
      groupBy,
      having,
      orderBy,
      limit,
      offset,
      span: this.span(start),
    };
  }

  private selectItem(): SelectItem {
    const start = this.current.start;
    if (this.isSymbol("*")) {
      this.next();
      this.exceptOrReplace();
      return { kind: "all", qualifier: null, span: this.span(start) };
    }
    // alias.* / a.b.*
    if (this.isName()) {
      let look = 0;
      const parts: string[] = [];
      while (this.isName(this.peek(look)) && this.isSymbol(".", this.peek(look + 1))) {
        parts.push(this.peek(look).text);
        look += 2;
      }
      if (parts.length > 0 && this.isSymbol("*", this.peek(look))) {
        this.pos += look + 1;
        this.exceptOrReplace();
        return { kind: "all", qualifier: parts, span: this.span(start) };
      }
    }
    const expr = this.expr();
    const alias = this.alias();
    return { kind: "expr", expr, alias, span: this.span(start) };
  }

  private exceptOrReplace(): void {
    if (this.isWord("EXCEPT") || this.isWord("REPLACE"))
      throw new SqlFailure(`SELECT * ${this.current.upper} is not supported`, this.current.start);
  }

  private orderBy(): OrderItem[] {
    const items: OrderItem[] = [];
    if (!this.acceptWord("ORDER")) return items;
    this.expectWord("BY");
    do {
      const expr = this.expr();
      const descending = this.acceptWord("DESC") ? true : (this.acceptWord("ASC"), false);
      let nulls: OrderItem["nulls"] = null;
      if (this.acceptWord("NULLS")) {
        if (this.acceptWord("FIRST")) nulls = "FIRST";
        else if (this.acceptWord("LAST")) nulls = "LAST";
        else this.fail("FIRST or LAST");
      }
      items.push({ expr, descending, nulls });
    } while (this.acceptSymbol(","));
    return items;
  }

  private count(what: string): number {
    const token = this.current;
    if (token.kind !== "number" || !/^\d+$/.test(token.text) || !Number.isSafeInteger(token.number))
      this.fail(`an integer ${what}`);
    this.next();
    return token.number;
  }

  private limit(): { limit: number | null; offset: number | null } {
    let limit: number | null = null;
    let offset: number | null = null;
    if (this.acceptWord("LIMIT")) {
      limit = this.count("LIMIT");
      if (this.acceptSymbol(",")) {
        // MySQL/SQLite `LIMIT offset, count`.
        offset = limit;
        limit = this.count("LIMIT");
      }
    }
    if (this.acceptWord("OFFSET")) offset = this.count("OFFSET");
    return { limit, offset };
  }

  // ---- FROM ----------------------------------------------------------------------------------

  private fromClause(): FromItem {
    const start = this.current.start;
    let left = this.fromPrimary();
    let tables = countTables(left);
    for (;;) {
      let type: JoinType | null = null;
      const joinStart = this.current.start;
      if (this.acceptSymbol(",")) type = "COMMA";
      else if (this.acceptWord("JOIN")) type = "INNER";
      else if (this.acceptWord("INNER")) type = "INNER";
      else if (this.acceptWord("CROSS")) type = "CROSS";
      else if (this.acceptWord("LEFT")) type = "LEFT";
      else if (this.acceptWord("RIGHT")) type = "RIGHT";
      else if (this.acceptWord("FULL")) type = "FULL";
      if (type === null) break;
      if (type !== "COMMA" && this.tokens[this.pos - 1]?.upper !== "JOIN") {
        if (type === "LEFT" || type === "RIGHT" || type === "FULL") this.acceptWord("OUTER");
        this.expectWord("JOIN");
      }
      if (type !== "COMMA") this.acceptWord("EACH");
      const right = this.fromPrimary();
      tables += countTables(right);
      if (tables > SQL_LIMITS.maxJoinedTables)
        throw new SqlFailure(`a query may join at most ${SQL_LIMITS.maxJoinedTables} tables`, joinStart);
      let on: Expr | null = null;
      let using: string[] | null = null;
      if (type !== "COMMA" && type !== "CROSS") {
        if (this.acceptWord("ON")) on = this.expr();
        else if (this.acceptWord("USING")) {
          this.expectSymbol("(");
          using = [];
          do using.push(this.name("a column name"));
          while (this.acceptSymbol(","));
          this.expectSymbol(")");
        } else if (right.kind !== "unnest") this.fail("keyword ON or USING");
      }
      this.node();
      left = { kind: "join", type, left, right, on, using, span: this.span(start) };
    }
    return left;
  }

  private fromPrimary(): FromItem {
    const start = this.current.start;
    if (this.isSymbol("(")) {
      this.next();
      if (this.isWord("SELECT") || this.isWord("WITH") || this.isSymbol("(")) {
        const query = this.query();
        this.expectSymbol(")");
        return { kind: "derived", query, alias: this.alias(), span: this.span(start) };
      }
      const inner = this.nest(() => this.fromClause());
      this.expectSymbol(")");
      return inner;
    }
    if (this.acceptWord("UNNEST")) {
      this.expectSymbol("(");
      const path = this.columnPath();
      this.expectSymbol(")");
      const alias = this.alias();
      let offsetAlias: string | null = null;
      if (this.acceptWord("WITH")) {
        this.expectWord("OFFSET");
        offsetAlias = this.alias() ?? "offset";
      }
      return { kind: "unnest", path, alias, offsetAlias, span: this.span(start) };
    }
    if (this.acceptWord("FLATTEN")) {
      this.expectSymbol("(");
      const source = this.nest(() => this.fromPrimary());
      this.expectSymbol(",");
      const field = this.columnPath();
      this.expectSymbol(")");
      return { kind: "flatten", source, field, alias: this.alias(), span: this.span(start) };
    }
    const name = this.tableName();
    if (this.isSymbol("(")) throw new SqlFailure(`Table-valued function not found: ${name}`, start);
    const alias = this.alias();
    const cte = this.ctes.get(name.toLowerCase());
    if (cte) return { kind: "derived", query: cte, alias: alias ?? name, span: this.span(start) };
    return { kind: "table", name, alias, span: this.span(start) };
  }

  /** `ipv4.20261031`, `[ipv4.20261031]`, `` `ipv4.20261031` ``, `"ipv4.20261031"`, `ipv4`. */
  private tableName(): string {
    const token = this.current;
    if (token.kind === "string" || token.kind === "quoted") {
      this.next();
      let name = token.text;
      while (this.isSymbol(".") && this.peek().start === this.current.end) {
        this.next();
        name += "." + this.next().text;
      }
      return name;
    }
    if (token.kind !== "word" || RESERVED.has(token.upper)) this.fail("a table name");
    let name = this.next().text;
    // Dashes appear in project names (`censys-io.ipv4`); keep them when written without spaces.
    while (
      (this.isSymbol(".") || this.isSymbol("-")) &&
      this.current.start === this.tokens[this.pos - 1]?.end &&
      (this.peek().kind === "word" || this.peek().kind === "quoted" || this.peek().kind === "number") &&
      this.peek().start === this.current.end
    ) {
      name += this.next().text + this.next().text;
    }
    return name;
  }

  // ---- expressions ---------------------------------------------------------------------------

  expr(): Expr {
    return this.nest(() => this.or());
  }

  private binary(op: BinaryOperator, left: Expr, right: Expr): Expr {
    this.node();
    return { kind: "binary", op, left, right, span: { start: left.span.start, end: right.span.end } };
  }

  private or(): Expr {
    let left = this.and();
    while (this.acceptWord("OR")) left = this.binary("OR", left, this.and());
    return left;
  }

  private and(): Expr {
    let left = this.not();
    while (this.acceptWord("AND")) left = this.binary("AND", left, this.not());
    return left;
  }

  private not(): Expr {
    const start = this.current.start;
    if (this.acceptWord("NOT")) {
      const operand = this.nest(() => this.not());
      this.node();
      return { kind: "unary", op: "NOT", operand, span: this.span(start) };
    }
    return this.comparison();
  }

  private comparison(): Expr {
    const left = this.additive();
    const start = left.span.start;
    const token = this.current;
    if (token.kind === "symbol" && Object.hasOwn(COMPARISONS, token.text)) {
      this.next();
      return this.binary(COMPARISONS[token.text] as BinaryOperator, left, this.additive());
    }
    if (this.acceptWord("CONTAINS")) return this.binary("CONTAINS", left, this.additive());
    if (this.acceptWord("IS")) {
      const negated = this.acceptWord("NOT");
      if (this.acceptWord("TRUE") || this.acceptWord("FALSE")) {
        const value = this.tokens[this.pos - 1]?.upper === "TRUE";
        const literal: Expr = {
          kind: "literal",
          value,
          span: this.span(this.tokens[this.pos - 1]?.start ?? start),
        };
        return this.binary(negated ? "!=" : "=", left, literal);
      }
      this.expectWord("NULL");
      this.node();
      return { kind: "is_null", operand: left, negated, span: this.span(start) };
    }
    const negated = this.isWord("NOT") && ["IN", "LIKE", "BETWEEN", "CONTAINS"].includes(this.peek().upper);
    if (negated) this.next();
    if (negated && this.acceptWord("CONTAINS")) {
      const contains = this.binary("CONTAINS", left, this.additive());
      this.node();
      return { kind: "unary", op: "NOT", operand: contains, span: this.span(start) };
    }
    if (this.acceptWord("IN")) return this.inList(left, negated, start);
    if (this.acceptWord("LIKE")) {
      const pattern = this.additive();
      this.node();
      return { kind: "like", operand: left, pattern, negated, span: this.span(start) };
    }
    if (this.acceptWord("BETWEEN")) {
      const low = this.additive();
      this.expectWord("AND");
      const high = this.additive();
      this.node();
      return { kind: "between", operand: left, low, high, negated, span: this.span(start) };
    }
    if (negated) this.fail("IN, LIKE or BETWEEN");
    return left;
  }

  private inList(operand: Expr, negated: boolean, start: number): Expr {
    if (this.isWord("UNNEST")) throw new SqlFailure("IN UNNEST is not supported", this.current.start);
    this.expectSymbol("(");
    if (this.isWord("SELECT") || this.isWord("WITH")) {
      const query = this.query();
      this.expectSymbol(")");
      this.node();
      return { kind: "in", operand, list: null, query, negated, span: this.span(start) };
    }
    const list: Expr[] = [];
    do {
      list.push(this.additive());
      if (list.length > SQL_LIMITS.maxInList)
        throw new SqlFailure(
          `an IN list may hold at most ${SQL_LIMITS.maxInList} values`,
          this.current.start,
        );
    } while (this.acceptSymbol(","));
    this.expectSymbol(")");
    this.node();
    return { kind: "in", operand, list, query: null, negated, span: this.span(start) };
  }

  private additive(): Expr {
    let left = this.multiplicative();
    for (;;) {
      if (this.acceptSymbol("+")) left = this.binary("+", left, this.multiplicative());
      else if (this.acceptSymbol("-")) left = this.binary("-", left, this.multiplicative());
      else return left;
    }
  }

  private multiplicative(): Expr {
    let left = this.unary();
    for (;;) {
      const token = this.current;
      if (token.kind === "symbol" && ["*", "/", "%", "||"].includes(token.text)) {
        this.next();
        left = this.binary(token.text as BinaryOperator, left, this.unary());
      } else return left;
    }
  }

  private unary(): Expr {
    const start = this.current.start;
    if (this.isSymbol("-") || this.isSymbol("+")) {
      const op = this.next().text as "-" | "+";
      const operand = this.nest(() => this.unary());
      if (operand.kind === "literal" && typeof operand.value === "number") {
        return {
          kind: "literal",
          value: op === "-" ? -operand.value : operand.value,
          span: this.span(start),
        };
      }
      this.node();
      return { kind: "unary", op, operand, span: this.span(start) };
    }
    return this.primary();
  }

  private primary(): Expr {
    const token = this.current;
    const start = token.start;
    this.node();
    switch (token.kind) {
      case "number":
        this.next();
        return { kind: "literal", value: token.number, span: this.span(start) };
      case "string":
        this.next();
        return { kind: "literal", value: token.text, span: this.span(start) };
      case "symbol":
        if (token.text === "(") {
          this.next();
          if (this.isWord("SELECT") || this.isWord("WITH")) {
            const query = this.query();
            this.expectSymbol(")");
            return { kind: "subquery", query, span: this.span(start) };
          }
          const inner = this.expr();
          this.expectSymbol(")");
          return inner;
        }
        if (token.text === "*") this.fail("an expression");
        break;
      case "quoted":
        return this.columnPath();
      case "word":
        return this.wordExpression(token);
      case "end":
        break;
    }
    this.fail("an expression");
  }

  private wordExpression(token: Token): Expr {
    const start = token.start;
    switch (token.upper) {
      case "NULL":
        this.next();
        return { kind: "literal", value: null, span: this.span(start) };
      case "TRUE":
      case "FALSE":
        this.next();
        return { kind: "literal", value: token.upper === "TRUE", span: this.span(start) };
      case "CASE":
        return this.caseExpression();
      case "CAST":
      case "SAFE_CAST":
        return this.cast();
      case "EXISTS": {
        this.next();
        this.expectSymbol("(");
        const query = this.query();
        this.expectSymbol(")");
        return { kind: "exists", query, span: this.span(start) };
      }
      case "INTERVAL":
        throw new SqlFailure("INTERVAL literals are not supported", start);
    }
    // Typed literals: TIMESTAMP '2020-01-01', DATE '2020-01-01'.
    if ((token.upper === "TIMESTAMP" || token.upper === "DATE") && this.peek().kind === "string") {
      this.next();
      const value = this.next();
      const arg: Expr = { kind: "literal", value: value.text, span: { start: value.start, end: value.end } };
      return {
        kind: "call",
        name: token.upper,
        args: [arg],
        distinct: false,
        star: false,
        over: false,
        span: this.span(start),
      };
    }
    // LEFT(s, n) and RIGHT(s, n) are functions although their names are join keywords.
    const callable = !RESERVED.has(token.upper) || token.upper === "LEFT" || token.upper === "RIGHT";
    if (callable && this.isSymbol("(", this.peek())) return this.call();
    if (RESERVED.has(token.upper)) this.fail("an expression");
    const path = this.columnPath();
    if (this.isSymbol("(")) throw new SqlFailure(`Function not found: ${path.parts.join(".")}`, start);
    return path;
  }

  private call(): Expr {
    const nameToken = this.next();
    const start = nameToken.start;
    this.expectSymbol("(");
    const args: Expr[] = [];
    let distinct = false;
    let star = false;
    if (this.isSymbol("*")) {
      this.next();
      star = true;
    } else if (!this.isSymbol(")")) {
      distinct = this.acceptWord("DISTINCT") ? true : (this.acceptWord("ALL"), false);
      do args.push(this.expr());
      while (this.acceptSymbol(","));
      if (this.isWord("ORDER") || this.isWord("IGNORE") || this.isWord("RESPECT") || this.isWord("LIMIT"))
        throw new SqlFailure(
          `${this.current.upper} inside ${nameToken.upper}() is not supported`,
          this.current.start,
        );
    }
    this.expectSymbol(")");
    let over = false;
    if (this.acceptWord("OVER")) {
      over = true;
      this.skipParenthesised();
    }
    return { kind: "call", name: nameToken.upper, args, distinct, star, over, span: this.span(start) };
  }

  /** Skips a balanced `( ... )` (an OVER clause, refused later by the planner with its name). */
  private skipParenthesised(): void {
    if (this.isName()) {
      this.next();
      return;
    }
    this.expectSymbol("(");
    let level = 1;
    while (level > 0) {
      const token = this.next();
      if (token.kind === "end") this.fail('")"', token);
      if (this.isSymbol("(", token)) level += 1;
      if (this.isSymbol(")", token)) level -= 1;
    }
  }

  private caseExpression(): Expr {
    const start = this.next().start;
    const operand = this.isWord("WHEN") ? null : this.expr();
    const whens: { when: Expr; then: Expr }[] = [];
    while (this.acceptWord("WHEN")) {
      const when = this.expr();
      this.expectWord("THEN");
      whens.push({ when, then: this.expr() });
    }
    if (whens.length === 0) this.fail("keyword WHEN");
    const otherwise = this.acceptWord("ELSE") ? this.expr() : null;
    this.expectWord("END");
    return { kind: "case", operand, whens, otherwise, span: this.span(start) };
  }

  private cast(): Expr {
    const keyword = this.next();
    this.expectSymbol("(");
    const operand = this.expr();
    this.expectWord("AS");
    if (this.current.kind !== "word") this.fail("a type name");
    const type = this.next().upper;
    this.expectSymbol(")");
    return {
      kind: "cast",
      operand,
      type,
      safe: keyword.upper === "SAFE_CAST",
      span: this.span(keyword.start),
    };
  }

  /** A dotted name: words and quoted names (a quoted name holding dots is split at them). */
  private columnPath(): ColumnRef {
    const start = this.current.start;
    const parts: string[] = [];
    const part = () => {
      const token = this.current;
      if (token.kind === "quoted") {
        this.next();
        parts.push(...token.text.split("."));
      } else if (token.kind === "word") {
        this.next();
        parts.push(token.text);
      } else this.fail("a column name");
    };
    part();
    while (this.isSymbol(".") && !this.isSymbol("*", this.peek())) {
      this.next();
      part();
    }
    if (parts.some((p) => p === "")) throw new SqlFailure("Syntax error: Empty name part", start);
    return { kind: "column", parts, span: this.span(start) };
  }
}

function countTables(item: FromItem): number {
  switch (item.kind) {
    case "table":
    case "derived":
      return 1;
    case "unnest":
      return 0;
    case "flatten":
      return countTables(item.source);
    case "join":
      return countTables(item.left) + countTables(item.right);
  }
}

/** Parses one query of the job dialect, or says why and where it cannot. */
export function parseQuery(text: string): SqlResult<Query> {
  try {
    if (text.length > SQL_LIMITS.maxLength)
      throw new SqlFailure(`query is longer than ${SQL_LIMITS.maxLength} characters`);
    if (text.trim() === "") throw new SqlFailure("query is empty");
    const parser = new Parser(text, tokenize(text));
    return { ok: true, value: parser.parseStatement() };
  } catch (error) {
    if (error instanceof SqlFailure) return { ok: false, error: error.toError(text) };
    // Nesting is bounded well below the stack's limit; a RangeError here is still a refusal.
    if (error instanceof RangeError)
      return { ok: false, error: { message: "query is nested too deeply", position: null } };
    throw error;
  }
}
