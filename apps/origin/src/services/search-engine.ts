import { ApiError } from "@scangate/core";
import { compileSearch as compileQueryString, type IndexRegistry, type SqlFragment } from "@scangate/search";

/** A boolean SQL expression over the root table (alias `r`) with its bound values. */
export type CompiledWhere = SqlFragment;

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

/** Lone surrogate halves (in `u` mode a proper pair is one code point, so it does not match). */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** The first character D1 cannot bind inside a string (it fails on NUL and lone surrogates). */
function firstUnbindable(text: string): { index: number; char: string } | null {
  const nul = text.indexOf("\u0000");
  const lone = LONE_SURROGATE.exec(text);
  const candidates = [
    nul >= 0 ? { index: nul, char: "\u0000" } : null,
    lone ? { index: lone.index, char: lone[0] } : null,
  ];
  return candidates.reduce<{ index: number; char: string } | null>(
    (first, next) => (next && (!first || next.index < first.index) ? next : first),
    null,
  );
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
  const unbindable = firstUnbindable(query);
  if (unbindable) {
    const code = (unbindable.char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
    const message = `character U+${code} at position ${unbindable.index} cannot be searched for`;
    throw invalidQuery({ message, position: unbindable.index, token: unbindable.char }, dialect);
  }
  const compiled = compileQueryString(query, dialect, registry, { now });
  if (!compiled.ok) throw invalidQuery(compiled.error, dialect);
  return compiled.value;
}
