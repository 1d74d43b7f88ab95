import {
  andOf,
  orOf,
  type QueryNode,
  type RegexValue,
  type TermValue,
  type Value,
  type WildcardValue,
} from "./ast";
import {
  CENQL_RESOURCES,
  CENQL_SCOPES,
  type CenqlResource,
  legacyFieldNames,
  legacyValue,
  missingResourceMessage,
  splitResource,
} from "./cenql-fields";
import { QueryError, catchQueryError, quoteToken, type QueryResult } from "./query-error";
import { ownEntry } from "./registry";

/**
 * A parsed CenQL query (`parseQuery(text, "cenql")`) rewritten onto the legacy registries'
 * names, so the existing compiler runs it unchanged:
 *
 * - every field names its resource (`host.`, `cert.`, `web.`). A query naming several is read
 *   once per resource, as the Platform reads it: a document of one resource holds no field of
 *   another, so there those conditions match nothing (`host.services.threats.name = "Sliver"
 *   or web.threats.name = "Sliver"` finds hosts by the first and web properties by the second).
 *   `cenqlTargetAll` gives one rewritten query per resource; `cenqlTarget` reads queries of
 *   one resource and refuses the others. A query of bare terms only searches hosts.
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
  /**
   * Whether a legacy name is a key/value map of the index (`IndexRegistry.maps`): a group on it
   * (`headers: (key: Server and value: nginx)`) is kept, so its key and value hold for one entry.
   */
  isMap?: (resource: CenqlResource, legacyField: string) => boolean;
}

/** What a condition on another resource's field is in a query read for one resource: nothing. */
const NOTHING: QueryNode = { type: "not", child: { type: "all" } };

interface Scope {
  resource: CenqlResource | null;
  /** CenQL path (after the resource) the names inside are relative to; null at the top. */
  path: string | null;
  /** Inside a scope group: its CenQL path. */
  scope: string | null;
}

interface Mention {
  value: CenqlResource;
  name: string;
  position: number;
}

class Targeting {
  /** Each resource the query names, in the order first named. */
  readonly resources: Mention[] = [];

  /**
   * @param only the resource being read: conditions on other resources' fields are NOTHING;
   *   null to refuse a second resource (`cenqlTarget`).
   */
  constructor(
    private readonly options: CenqlTargetOptions,
    private readonly only: CenqlResource | null = null,
    private readonly several = false,
  ) {}

  get resource(): Mention | null {
    return this.resources[0] ?? null;
  }

  note(resource: CenqlResource, name: string, position: number): void {
    if (this.resources.some((mention) => mention.value === resource)) return;
    const first = this.resource;
    if (first !== null && !this.several) {
      throw new QueryError(
        `a query searches one resource: ${quoteToken(name)} (${resource}) at position ${position} cannot be combined with ${quoteToken(first.name)} (${first.value}) at position ${first.position}`,
        position,
        name,
      );
    }
    this.resources.push({ value: resource, name, position });
  }

  /** Whether conditions on `resource` are read (false: they are NOTHING for this reading). */
  private reads(resource: CenqlResource): boolean {
    return this.only === null || this.only === resource;
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
        if (!this.reads(scope.resource ?? "host")) return NOTHING;
        return this.field(node.value.position, scope.resource ?? "host", scope.path, "match", node.value);
      case "field": {
        const { resource, path } = this.resolve(node.field, node.position, scope);
        this.note(resource, `${resource}.${path}`, node.position);
        if (!this.reads(resource)) return NOTHING;
        return this.field(node.position, resource, path, node.op, node.value);
      }
      case "group": {
        if (scope.resource === null) {
          const bare = splitResource(node.field);
          if (bare !== null && bare.path === "") {
            // `host: (...)`: names inside are relative to the resource.
            const body = this.rewrite(node.body, { resource: bare.resource, path: null, scope: null });
            return this.reads(bare.resource) ? body : NOTHING;
          }
        }
        const { resource, path } = this.resolve(node.field, node.position, scope);
        this.note(resource, `${resource}.${path}`, node.position);
        if (!this.reads(resource)) {
          this.rewrite(node.body, { resource, path, scope: scope.scope });
          return NOTHING;
        }
        const mapName = legacyFieldNames(resource, path);
        const [legacyMap] = mapName;
        if (mapName.length === 1 && legacyMap !== undefined && this.options.isMap?.(resource, legacyMap)) {
          // A key/value map keeps its group: its key and value conditions hold for one entry.
          const inner: Scope = { resource, path, scope: scope.scope };
          return {
            type: "group",
            field: legacyMap,
            position: node.position,
            body: this.rewrite(node.body, inner),
          };
        }
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
    const spelled = respelled(value, legacyValue(resource, path));
    const target = spelled.kind === "regex" ? anchored(spelled) : spelled;
    return orOf(names.map((field) => ({ type: "field", field, position, op, value: target })));
  }
}

/** A value as the legacy field spells it (`legacyValue`): its terms and wildcard patterns respelled. */
function respelled(value: Value, spell: ((text: string) => string) | null): Value {
  if (spell === null) return value;
  const item = (part: TermValue | WildcardValue): TermValue | WildcardValue =>
    part.kind === "term" ? { ...part, text: spell(part.text) } : { ...part, pattern: spell(part.pattern) };
  switch (value.kind) {
    case "term":
    case "wildcard":
      return item(value);
    case "set":
      return { ...value, items: value.items.map(item) };
    default:
      return value;
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
 * The query read once per resource it names (hosts, then certificates, then web properties),
 * each rewritten onto that resource's legacy names with the other resources' conditions
 * matching nothing; one reading, of hosts, for a query of bare terms only.
 */
export function cenqlTargetAll(
  node: QueryNode,
  options: CenqlTargetOptions = {},
): QueryResult<{ resource: CenqlResource; node: QueryNode }[]> {
  return catchQueryError(() => {
    const survey = new Targeting(options, null, true);
    survey.rewrite(node, { resource: null, path: null, scope: null });
    const named = CENQL_RESOURCES.filter((resource) => survey.resources.some((m) => m.value === resource));
    const resources: CenqlResource[] = named.length === 0 ? ["host"] : named;
    return resources.map((resource) => ({
      resource,
      node: new Targeting(options, resource, true).rewrite(node, { resource: null, path: null, scope: null }),
    }));
  });
}

/**
 * The resources a parsed CenQL query's fields name, hosts first, or none for a query of bare
 * terms only (the convert route's `targets`, which leave out what full-text search may return).
 */
export function cenqlTargets(node: QueryNode): QueryResult<CenqlResource[]> {
  return catchQueryError(() => {
    const targeting = new Targeting({}, null, true);
    targeting.rewrite(node, { resource: null, path: null, scope: null });
    return CENQL_RESOURCES.filter((resource) => targeting.resources.some((m) => m.value === resource));
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
