import { QueryError } from "./query-error";
import type { IndexRegistry, ScopeDef } from "./registry";
import type { Expr } from "./sql-expr";

/** What the compiler carries down the tree (compiler.ts) into each field's condition (field-conditions.ts). */
export interface Context {
  registry: IndexRegistry;
  root: string;
  now: number;
  maxParams: number;
  /** Field names inside `field: (...)` are relative to this prefix. */
  prefix: string | null;
  /** Inside `services: (...)`: conditions apply to one row of this scope, aliased `alias`. */
  scope: ScopeRow | null;
  /** With `CompileOptions.scopeRow`: that scope's conditions test this row, wherever written. */
  scopeRow: ScopeRow | null;
  paramCount: number;
}

export interface ScopeRow {
  name: string;
  def: ScopeDef;
  alias: string;
}

export const SIDE_ALIAS = "v";
export const SCOPE_ALIAS = "s";
/** The distinct-values table of a `hashed` field. */
export const HASHED_ALIAS = "b";

/** Where in the query a condition came from, for messages. */
export interface Located {
  position: number;
  raw: string;
}

/** Registry names go into SQL text, so they must be plain identifiers (a registry bug otherwise). */
export function sqlIdentifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new Error(`registry identifier ${JSON.stringify(name)} is not a plain SQL name`);
  return name;
}

export function countParams(compiled: Expr, value: Located, context: Context): Expr {
  context.paramCount += compiled.params.length;
  if (context.paramCount > context.maxParams) {
    throw new QueryError(
      `query has too many values: at most ${context.maxParams} (the limit is reached at position ${value.position})`,
      value.position,
      value.raw,
    );
  }
  return compiled;
}
