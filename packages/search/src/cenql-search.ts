import type { QueryNode } from "./ast";
import { cenqlField, cenqlTargetAll } from "./cenql";
import { fieldScope } from "./aggregate";
import { CENQL_SCOPES, type CenqlResource, cenqlPath, knownCenqlNames } from "./cenql-fields";
import { compileQuery, type CompileOptions } from "./compiler";
import { editDistance, findField } from "./field-lookup";
import { parseQuery } from "./parser";
import { QueryError, quoteToken, type QueryResult } from "./query-error";
import type { IndexRegistry } from "./registry";
import type { SqlFragment } from "./sql-expr";

/** Lone surrogate halves (in `u` mode a proper pair is one code point, so it does not match). */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * The first character D1 cannot bind inside a string (it fails on NUL and lone surrogates), as
 * the QueryError that refuses the query before parsing, or null. Every dialect's search asks.
 */
export function unbindableCharacterError(text: string): QueryError | null {
  const nul = text.indexOf("\u0000");
  const lone = LONE_SURROGATE.exec(text);
  const found =
    nul >= 0 && (!lone || nul < lone.index)
      ? { index: nul, char: "\u0000" }
      : lone
        ? { index: lone.index, char: lone[0] }
        : null;
  if (!found) return null;
  const code = (found.char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
  return new QueryError(
    `character U+${code} at position ${found.index} cannot be searched for`,
    found.index,
    found.char,
  );
}

/** The legacy registry each CenQL resource compiles against. */
export type CenqlRegistries = Readonly<Record<CenqlResource, IndexRegistry>>;

/** The CenQL names of a registry's fields (and the table's own), for "did you mean" hints. */
function cenqlNames(resource: CenqlResource, registry: IndexRegistry): string[] {
  const names = new Set(knownCenqlNames(resource));
  for (const legacy of Object.keys(registry.fields)) {
    const path = cenqlPath(resource, legacy);
    if (path !== null) names.add(`${resource}.${path}`);
  }
  return [...names].sort();
}

function nearest(name: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const distance = editDistance(candidate.toLowerCase(), name.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function unknownCenqlField(
  resource: CenqlResource,
  registry: IndexRegistry,
  name: string,
  position?: number,
): QueryError {
  const suggestion = nearest(name, cenqlNames(resource, registry));
  const where = position === undefined ? "" : ` at position ${position}`;
  const hint = suggestion === null ? "" : `; did you mean ${quoteToken(suggestion)}?`;
  return new QueryError(`unknown field ${quoteToken(name)}${where}${hint}`, position ?? 0, name);
}

/** The CenQL field (as written) of the tree at `position`, to name it in an error. */
function writtenFieldAt(node: QueryNode, position: number): string | null {
  switch (node.type) {
    case "and":
    case "or":
      for (const child of node.children) {
        const found = writtenFieldAt(child, position);
        if (found !== null) return found;
      }
      return null;
    case "not":
      return writtenFieldAt(node.child, position);
    case "field":
      return node.position === position ? node.field : null;
    case "group":
      return node.position === position ? node.field : writtenFieldAt(node.body, position);
    default:
      return null;
  }
}

/** A CenQL query compiled for one resource: the WHERE condition over its root table (alias `r`). */
export interface CenqlPart {
  resource: CenqlResource;
  where: SqlFragment;
}

/**
 * Parse a CenQL query, find the resources it searches and compile it against each one's legacy
 * registry: `parts` has one compiled reading per resource (hosts, then certificates, then web
 * properties; see `cenqlTargetAll`), `resource` and `where` are the first. Unknown fields are
 * reported by their CenQL names, with the nearest CenQL name.
 */
export function compileCenqlSearch(
  text: string,
  registries: CenqlRegistries,
  options?: CompileOptions,
): QueryResult<CenqlPart & { parts: CenqlPart[] }> {
  const unbindable = unbindableCharacterError(text);
  if (unbindable) return { ok: false, error: unbindable };
  const parsed = parseQuery(text, "cenql");
  if (!parsed.ok) return parsed;
  const targeted = cenqlTargetAll(parsed.value, {
    hasField: (resource, field) => findField(registries[resource], field) !== null,
    isMap: (resource, field) =>
      registries[resource].maps?.some((map) => map.toLowerCase() === field.toLowerCase()) ?? false,
  });
  if (!targeted.ok) return targeted;
  const parts: CenqlPart[] = [];
  for (const { resource, node } of targeted.value) {
    const registry = registries[resource];
    // A pinned scope row (a host's service) applies to the parts whose resource has that scope.
    const pinned = options?.scopeRow;
    const own =
      pinned && !Object.hasOwn(registry.scopes, pinned.scope) ? { ...options, scopeRow: undefined } : options;
    const compiled = compileQuery(node, registry, own);
    if (!compiled.ok)
      return { ok: false, error: cenqlError(compiled.error, parsed.value, resource, registry) };
    parts.push({ resource, where: compiled.value });
  }
  const [first] = parts;
  if (first === undefined) throw new Error("a CenQL query is read for at least one resource");
  return { ok: true, value: { ...first, parts } };
}

/** An unknown legacy field named back by the CenQL name written in the query. */
function cenqlError(
  error: QueryError,
  parsed: QueryNode,
  resource: CenqlResource,
  registry: IndexRegistry,
): QueryError {
  if (!error.message.startsWith("unknown field")) return error;
  const written = writtenFieldAt(parsed, error.position);
  if (written === null) return error;
  // A name written relative to its group is shown in full, read back from the legacy name.
  const full = /^(host|cert|web)\./i.test(written)
    ? written
    : `${resource}.${cenqlPath(resource, error.token) ?? error.token}`;
  return unknownCenqlField(resource, registry, full, error.position);
}

/** An aggregate's CenQL field, on the legacy registry of its resource. */
export interface CenqlAggregateField {
  resource: CenqlResource;
  /** The legacy field name. */
  field: string;
  /** The legacy nested scope its values live in (`services`), or null for a root field. */
  scope: string | null;
  /** That scope as a CenQL level (`host.services`), or null for a root field. */
  level: string | null;
}

/** An aggregate's CenQL field → its resource, the legacy field of that resource's registry and its nested level. */
export function cenqlAggregateField(
  path: string,
  registries: CenqlRegistries,
): QueryResult<CenqlAggregateField> {
  const mapped = cenqlField(path);
  if (!mapped.ok) return mapped;
  const { resource, field } = mapped.value;
  const registry = registries[resource];
  if (findField(registry, field) === null) {
    return { ok: false, error: unknownCenqlField(resource, registry, path.trim()) };
  }
  const scope = fieldScope(registry, field);
  const cenqlScope = Object.entries(CENQL_SCOPES[resource]).find(([, legacy]) => legacy === scope)?.[0];
  const level = scope === null ? null : `${resource}.${cenqlScope ?? scope}`;
  return { ok: true, value: { resource, field, scope, level } };
}

/**
 * The `count_by_level` values an aggregate of `field` accepts, and what each counts (the
 * Platform's meanings): `""` (the default) counts at the deepest level holding the field,
 * `"."` (or the resource, `host`) counts root documents, and a nested level (`host.services`)
 * counts the records of that level. A root field has only the root level; a service field
 * counts services by default and hosts by `"."`.
 */
export function cenqlCountLevels(field: CenqlAggregateField): ReadonlyMap<string, "document" | "scope"> {
  const levels = new Map<string, "document" | "scope">();
  levels.set("", field.level === null ? "document" : "scope");
  levels.set(".", "document");
  levels.set(field.resource, "document");
  if (field.level !== null) levels.set(field.level, "scope");
  return levels;
}
