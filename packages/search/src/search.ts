import type { Dialect } from "./ast";
import { cenqlTarget } from "./cenql";
import { CENQL_INDEX } from "./cenql-fields";
import { compileQuery, type CompileOptions } from "./compiler";
import { parseQuery } from "./parser";
import { QueryError, type QueryResult } from "./query-error";
import type { IndexRegistry } from "./registry";
import type { SqlFragment } from "./sql-expr";

/**
 * Parse and compile in one step: the WHERE condition for a client's query string. A CenQL
 * query is first rewritten onto the legacy names (`cenqlTarget`) and must search the
 * registry's index; `compileCenqlSearch` picks the registry from the query instead.
 */
export function compileSearch(
  input: string,
  dialect: Dialect,
  registry: IndexRegistry,
  options?: CompileOptions,
): QueryResult<SqlFragment> {
  const parsed = parseQuery(input, dialect);
  if (!parsed.ok) return parsed;
  if (dialect !== "cenql") return compileQuery(parsed.value, registry, options);
  const targeted = cenqlTarget(parsed.value);
  if (!targeted.ok) return targeted;
  const { resource, node } = targeted.value;
  if (CENQL_INDEX[resource] !== registry.name) {
    const message = `this query searches ${resource} records (the ${CENQL_INDEX[resource]} index), not ${registry.name}`;
    return { ok: false, error: new QueryError(message, 0, "") };
  }
  return compileQuery(node, registry, options);
}
