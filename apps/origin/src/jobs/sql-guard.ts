import * as sqliteGrammar from "node-sql-parser/build/sqlite";
import { lexicalProblem, tokenizeSqlite } from "./sql-lexer";
import { asNode, isNode, readTables, reject, Rejected, type Node } from "./sql-tree";

/**
 * The guard in front of query and export jobs: a job runs only SQL that a real parser proved
 * to be one read-only SELECT over published snapshot tables.
 *
 * 1. node-sql-parser (SQLite grammar) parses the text into a syntax tree.
 * 2. The tree is regenerated into SQL and parsed again; the *second* tree is the one checked,
 *    and regenerating it must give the same text (so what is checked is what runs, with the
 *    user's comments and odd spellings gone).
 * 3. Every node is checked against an allow-list: statement and expression kinds, functions,
 *    and table references, which must name a published snapshot table or a CTE in scope.
 * 4. Every quoted value must be one SQLite and the parser read alike (no backslash, no lone
 *    quote), and SQLite's own tokenizer must find no comment, semicolon or parameter.
 */

export interface CheckedQuery {
  /** The regenerated SQL: the text that runs. */
  sql: string;
  /** Published snapshot tables the query reads, lowercase. */
  tables: string[];
}

export type GuardResult = { ok: true; query: CheckedQuery } | { ok: false; reason: string };

/** Longer queries are refused before parsing (the parser's time grows with the text). */
export const MAX_QUERY_LENGTH = 20_000;

// The SQLite-only build (about 200 kB) rather than the all-dialects one. It is a CommonJS
// bundle whose named exports some ESM loaders cannot detect, hence the `default` fallback.
const { Parser } = (sqliteGrammar as { default?: typeof sqliteGrammar }).default ?? sqliteGrammar;
const parser = new Parser();
const OPTIONS = { database: "sqlite" };

// ---- leaves ----------------------------------------------------------------------------------

/**
 * Quoted values are emitted between quotes by the regenerator without re-escaping. A value with
 * a backslash (the parser's escape, not SQLite's) or a quote that is not doubled could end its
 * token early in SQLite's reading, so both are refused: a string literal ('...') may hold
 * double quotes and backticks but no lone single quote; any other value (names, identifiers)
 * no lone quote of any kind.
 */
function checkLeaves(value: unknown, singleQuoted = false): void {
  if (typeof value === "string") {
    if (value.includes("\\")) reject("backslashes are not allowed");
    const lone = singleQuoted ? /'/ : /['"`]/;
    if (lone.test(value.replace(/''|""|``/g, ""))) reject("a quote inside a quoted value must be doubled");
  } else if (Array.isArray(value)) {
    for (const item of value) checkLeaves(item);
  } else if (isNode(value)) {
    const literal = value.type === "single_quote_string";
    for (const [key, child] of Object.entries(value)) {
      if (key !== "loc") checkLeaves(child, literal && key === "value");
    }
  }
}

/**
 * SQLite's own reading of the regenerated SQL must find exactly the string literals the
 * parser's tree has, same text: a literal that SQLite would cut short (or run on) fails here.
 */
function checkStringLiterals(sql: string, tree: Node): void {
  const fromTree: string[] = [];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (isNode(value)) {
      if (value.type === "single_quote_string" && typeof value.value === "string")
        fromTree.push(`'${value.value}'`);
      for (const [key, child] of Object.entries(value)) if (key !== "loc") collect(child);
    }
  };
  collect(tree);
  const fromSqlite = (tokenizeSqlite(sql) ?? []).filter((t) => t.kind === "string").map((t) => t.text);
  if (JSON.stringify(fromTree.sort()) !== JSON.stringify(fromSqlite.sort()))
    reject("string literals do not survive regeneration");
}

// ---- entry point -----------------------------------------------------------------------------

function parseOne(sql: string): Node {
  let ast: unknown;
  try {
    ast = parser.astify(sql, OPTIONS);
  } catch {
    reject("syntax error");
  }
  if (Array.isArray(ast)) {
    if (ast.length !== 1) reject("only one statement is allowed");
    ast = ast[0];
  }
  return asNode(ast, "statement");
}

/**
 * Checks `text` and returns the SQL to run, or why it was refused. `published` holds the
 * snapshot table names (lowercase) that may be read.
 */
export function checkSnapshotQuery(text: string, published: ReadonlySet<string>): GuardResult {
  try {
    if (text.length > MAX_QUERY_LENGTH) reject(`query is longer than ${MAX_QUERY_LENGTH} characters`);
    if (text.includes("\\")) reject("backslashes are not allowed");
    const first = parseOne(text);
    checkLeaves(first);
    const sql = parser.sqlify(first as never, OPTIONS);
    const second = parseOne(sql);
    checkLeaves(second);
    // sqlify copies nested statements into their wrappers, so it gets a copy of the tree.
    if (parser.sqlify(structuredClone(second) as never, OPTIONS) !== sql) {
      reject("query does not survive regeneration");
    }
    const problem = lexicalProblem(sql);
    if (problem) reject(problem);
    checkStringLiterals(sql, second);
    const tables = readTables(second, published);
    if (tables.length === 0) reject("the query must read a published snapshot table");
    return { ok: true, query: { sql, tables } };
  } catch (error) {
    if (error instanceof Rejected) return { ok: false, reason: error.message };
    // The parser can overflow the stack on pathological nesting: that is a refusal, not a crash.
    if (error instanceof RangeError) return { ok: false, reason: "query is nested too deeply" };
    throw error;
  }
}
