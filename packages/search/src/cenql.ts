import { andOf, orOf, type QueryNode, type RegexValue, type Value } from "./ast";
import {
  CENQL_SCOPES,
  type CenqlResource,
  legacyFieldNames,
  missingResourceMessage,
  splitResource,
} from "./cenql-fields";
import { QueryError, catchQueryError, quoteToken, type QueryResult } from "./query-error";
import { ownEntry } from "./registry";

/**
 * A parsed CenQL query (`parseQuery(text, "cenql")`) rewritten onto the legacy registries'
 * names, so the existing compiler runs it unchanged:
 *
 * - every field names its resource (`host.`, `cert.`, `web.`); a query reads one resource, and
 *   one mixing them is refused (the Platform's search mixes result types; ours answers one
 *   index per query). A query of bare terms only searches hosts.
 * - inside `field: (...)` names are relative to `field`; `host.services: (...)` stays a scope
 *   group (every condition on one service), other groups are only a name prefix and dissolve,
 *   their bare terms becoming values of the group's field;
 * - `field =~ "re"` matches anywhere in the value unless the regex brings its own `^`/`$` (the
 *   Platform's rule); it is rewritten into an anchored regex, which the compiler reads the same
 *   way on keyword and text fields.
 */
export interface CenqlTargetOptions {
  /**
   * Whether the legacy index has a field: per-port web fields expand only to the ports the
   * index has (without it, to every port of the table).
   */
  hasField?: (resource: CenqlResource, legacyField: string) => boolean;
}

interface Scope {
  resource: CenqlResource | null;
  /** CenQL path (after the resource) the names inside are relative to; null at the top. */
  path: string | null;
  /** Inside a scope group: its CenQL path. */
  scope: string | null;
}

class Targeting {
  resource: { value: CenqlResource; name: string; position: number } | null = null;

  constructor(private readonly options: CenqlTargetOptions) {}

  note(resource: CenqlResource, name: string, position: number): void {
    if (this.resource === null) {
      this.resource = { value: resource, name, position };
      return;
    }
    if (this.resource.value === resource) return;
    const first = this.resource;
    throw new QueryError(
      `a query searches one resource: ${quoteToken(name)} (${resource}) at position ${position} cannot be combined with ${quoteToken(first.name)} (${first.value}) at position ${first.position}`,
      position,
      name,
    );
  }

  /** The resource and CenQL path a name written inside `scope` stands for. */
  resolve(name: string, position: number, scope: Scope): { resource: CenqlResource; path: string } {
    if (scope.resource !== null) {
      // Relative to the group, unless written out in full (`host.services: (host.services.port: 22)`).
      const resourcePrefix = `${scope.resource}.`;
      const full = scope.path === null ? resourcePrefix : `${resourcePrefix}${scope.path}.`;
      if (name.toLowerCase().startsWith(full.toLowerCase()))
        return { resource: scope.resource, path: name.slice(resourcePrefix.length) };
      return { resource: scope.resource, path: scope.path === null ? name : `${scope.path}.${name}` };
    }
    const split = splitResource(name);
    if (split === null || split.path === "")
      throw new QueryError(missingResourceMessage(name, position), position, name);
    return split;
  }

  rewrite(node: QueryNode, scope: Scope): QueryNode {
    switch (node.type) {
      case "all":
        return node;
      case "and":
        return andOf(node.children.map((child) => this.rewrite(child, scope)));
      case "or":
        return orOf(node.children.map((child) => this.rewrite(child, scope)));
      case "not":
        return { type: "not", child: this.rewrite(node.child, scope) };
      case "text":
        if (scope.path === null) {
          if (scope.resource !== null) this.note(scope.resource, scope.resource, node.value.position);
          return node;
        }
        if (scope.path === scope.scope) {
          const { position, raw } = node.value;
          throw new QueryError(
            `the bare term ${quoteToken(raw)} at position ${position} needs a field inside ${scope.resource}.${scope.path}: (...), like ${scope.resource}.${scope.path}: (port: ${raw})`,
            position,
            raw,
          );
        }
        return this.field(node.value.position, scope.resource ?? "host", scope.path, "match", node.value);
      case "field": {
        const { resource, path } = this.resolve(node.field, node.position, scope);
        this.note(resource, `${resource}.${path}`, node.position);
        return this.field(node.position, resource, path, node.op, node.value);
      }
      case "group": {
        if (scope.resource === null) {
          const bare = splitResource(node.field);
          if (bare !== null && bare.path === "") {
            // `host: (...)`: names inside are relative to the resource.
            return this.rewrite(node.body, { resource: bare.resource, path: null, scope: null });
          }
        }
        const { resource, path } = this.resolve(node.field, node.position, scope);
        this.note(resource, `${resource}.${path}`, node.position);
        const legacyScope = ownEntry(CENQL_SCOPES[resource], path);
        const inner: Scope = {
          resource,
          path,
          scope: legacyScope === undefined ? scope.scope : path,
        };
        const body = this.rewrite(node.body, inner);
        if (legacyScope === undefined) return body;
        return { type: "group", field: legacyScope, position: node.position, body };
      }
    }
  }

  /** `path` (a CenQL path of `resource`) compared with `value`, on legacy names. */
  private field(
    position: number,
    resource: CenqlResource,
    path: string,
    op: "match" | "exact",
    value: Value,
  ): QueryNode {
    let names = legacyFieldNames(resource, path);
    if (names.length > 1 && this.options.hasField) {
      const present = names.filter((name) => this.options.hasField?.(resource, name));
      names = present.length > 0 ? present : names.slice(0, 1);
    }
    const target = value.kind === "regex" ? anchored(value) : value;
    return orOf(names.map((field) => ({ type: "field", field, position, op, value: target })));
  }
}

/** The Platform's regex matches anywhere unless anchored: spell that out with `^.*` / `.*$`. */
function anchored(value: RegexValue): RegexValue {
  let source = value.source;
  source = source.startsWith("^") ? source : `^.*${source}`;
  source = /(^|[^\\])(\\\\)*\$$/.test(source) ? source : `${source}.*$`;
  return { ...value, source };
}

/** Which resource a parsed CenQL query searches, and the query rewritten onto legacy registry names. */
export function cenqlTarget(
  node: QueryNode,
  options: CenqlTargetOptions = {},
): QueryResult<{ resource: CenqlResource; node: QueryNode }> {
  return catchQueryError(() => {
    const targeting = new Targeting(options);
    const rewritten = targeting.rewrite(node, { resource: null, path: null, scope: null });
    return { resource: targeting.resource?.value ?? "host", node: rewritten };
  });
}

/**
 * The resources a parsed CenQL query's fields name: one, or none for a query of bare terms
 * only (the convert route's `targets`, which leave out what full-text search may return).
 */
export function cenqlTargets(node: QueryNode): QueryResult<CenqlResource[]> {
  return catchQueryError(() => {
    const targeting = new Targeting({});
    targeting.rewrite(node, { resource: null, path: null, scope: null });
    return targeting.resource === null ? [] : [targeting.resource.value];
  });
}

/** A CenQL field path → { resource, legacy field } (for aggregate's `field`), or an error naming the nearest field. */
export function cenqlField(path: string): QueryResult<{ resource: CenqlResource; field: string }> {
  return catchQueryError(() => {
    const name = path.trim();
    const split = splitResource(name);
    if (split === null || split.path === "") throw new QueryError(missingResourceMessage(name), 0, name);
    const names = legacyFieldNames(split.resource, split.path);
    const [field] = names;
    if (names.length > 1 || field === undefined) {
      throw new QueryError(
        `${quoteToken(name)} reads one field per port of the websites index and cannot be aggregated; aggregate ${quoteToken("web.port")} or filter with it instead`,
        0,
        name,
      );
    }
    return { resource: split.resource, field };
  });
}
