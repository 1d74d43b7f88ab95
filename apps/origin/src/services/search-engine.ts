import { ApiError } from "@scangate/core";
import {
  type CenqlResource,
  compileSearch as compileQueryString,
  type IndexRegistry,
  type SqlFragment,
  unbindableCharacterError,
} from "@scangate/search";

/**
 * A boolean SQL expression over the root table (alias `r`) with its bound values; for a CenQL
 * query spanning several resources, the other resources' readings too (`others`, each over its
 * own root table), which a search answers with hits of each kind.
 */
export type CompiledWhere = SqlFragment & {
  others?: readonly { resource: CenqlResource; where: SqlFragment }[];
};

export type Dialect = "v1" | "v2";

/** Where and why a query was refused (the search package's QueryError has this shape). */
interface QueryProblem {
  message: string;
  position: number;
  token: string;
}

/**
 * A query the language refused, rendered per version (v1 400, v2 422). Both keep the fixed
 * text in `error` (the spec's v1 `query could not be parsed`, DESIGN's v2 text) and say why and
 * where beside it, in `detail`, `position` and `token`.
 */
export function invalidQuery(problem: QueryProblem, _dialect: Dialect): ApiError {
  return new ApiError("invalid_query", undefined, {
    position: problem.position,
    token: problem.token,
    detail: problem.message,
  });
}

/**
 * Compiles a client's search query for `registry` (an empty query matches everything). A query
 * that does not parse or names a field the index does not have is an `invalid_query` error.
 */
export function compileSearch(
  query: string,
  dialect: Dialect,
  registry: IndexRegistry,
  now: Date,
): CompiledWhere {
  const unbindable = unbindableCharacterError(query);
  if (unbindable) throw invalidQuery(unbindable, dialect);
  const compiled = compileQueryString(query, dialect, registry, { now });
  if (!compiled.ok) throw invalidQuery(compiled.error, dialect);
  return compiled.value;
}
