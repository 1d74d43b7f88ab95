import type { Dialect } from "./ast";
import { compileQuery, type CompileOptions } from "./compiler";
import { parseQuery } from "./parser";
import type { QueryResult } from "./query-error";
import type { IndexRegistry } from "./registry";
import type { SqlFragment } from "./sql-expr";

/** Parse and compile in one step: the WHERE condition for a client's query string. */
export function compileSearch(
  input: string,
  dialect: Dialect,
  registry: IndexRegistry,
  options?: CompileOptions,
): QueryResult<SqlFragment> {
  const parsed = parseQuery(input, dialect);
  return parsed.ok ? compileQuery(parsed.value, registry, options) : parsed;
}
