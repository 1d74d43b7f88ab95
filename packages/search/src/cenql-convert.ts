import { andOf, orOf, type QueryNode, type TermValue, type Value } from "./ast";
import { type CenqlResource, type LegacyIndex, cenqlPath } from "./cenql-fields";
import {
  certificateTagCondition,
  checkWebsiteField,
  IPV4_NAMES,
  perPortName,
  platformPortValue,
  portPath,
} from "./cenql-convert-v1";
import { printCenql } from "./cenql-print";
import { findField } from "./field-lookup";
import { parseQuery } from "./parser";
import { QueryError, catchQueryError, quoteToken, type QueryResult } from "./query-error";
import { type IndexRegistry, ownEntry } from "./registry";

/**
 * Legacy queries → CenQL, as the origin itself reads them: the v1/v2 parser gives the tree,
 * field names are resolved the way the compiler resolves them (relative inside `field: (...)`
 * first), renamed through the one table of `cenql-fields.ts`, and the tree is printed as CenQL.
 * Converting, parsing the result as CenQL and `cenqlTarget` give a query that compiles to the
 * same condition (the tests check it). What has no CenQL equivalent is an error naming it.
 */
export interface ConvertOptions {
  /**
   * The legacy index's registry: resolves names inside groups exactly as the compiler does and
   * tells keyword from text fields for regexes (keyword regexes match the whole value). Without
   * it names inside a group are read as relative and every field as keyword.
   */
  registry?: IndexRegistry;
}

const RESOURCE_OF: Readonly<Record<LegacyIndex, CenqlResource>> = {
  hosts: "host",
  certificates: "cert",
  websites: "web",
};

const LEGACY_SCOPES: Readonly<Record<LegacyIndex, readonly string[]>> = {
  hosts: ["services"],
  certificates: [],
  websites: [],
};

interface Place {
  /** Legacy name prefix inside `field: (...)`, null at the top. */
  prefix: string | null;
  /** The legacy scope (`services`) of the scope group the place is inside, null outside one. */
  scope: string | null;
}

class Converter {
  readonly resource: CenqlResource;

  constructor(
    readonly dialect: "v1" | "v2",
    readonly index: LegacyIndex,
    readonly registry: IndexRegistry | undefined,
  ) {
    this.resource = RESOURCE_OF[index];
  }

  /** v1 on hosts is the ipv4 index, with its own names. */
  private get ipv4(): boolean {
    return this.index === "hosts" && this.dialect === "v1";
  }

  convert(node: QueryNode, place: Place): QueryNode {
    switch (node.type) {
      case "all":
        return node;
      case "and":
        return andOf(node.children.map((child) => this.convert(child, place)));
      case "or":
        return orOf(node.children.map((child) => this.convert(child, place)));
      case "not":
        return { type: "not", child: this.convert(node.child, place) };
      case "text": {
        if (place.prefix !== null) {
          return this.field(place.prefix, node.value.position, "match", node.value);
        }
        if (node.value.kind === "regex") {
          throw new QueryError(
            `a regular expression needs a field, like field: ${node.value.raw}, at position ${node.value.position}`,
            node.value.position,
            node.value.raw,
          );
        }
        return node;
      }
      case "field":
        return this.field(this.resolve(node.field, place), node.position, node.op, node.value);
      case "group": {
        const full = place.prefix === null ? node.field : `${place.prefix}.${node.field}`;
        const scopes = this.registry ? Object.keys(this.registry.scopes) : LEGACY_SCOPES[this.index];
        const scope = [full, node.field].find((name) => scopes.includes(name));
        if (scope === undefined || place.scope !== null) {
          // A plain group only prefixes names; its conditions read the same written out in full.
          return this.convert(node.body, { prefix: scope ?? full, scope: place.scope });
        }
        const body = this.convert(node.body, { prefix: scope, scope });
        return { type: "group", field: this.cenqlName(scope, node.position), position: node.position, body };
      }
    }
  }

  /** The legacy field a name written at `place` reads (the compiler's order: relative first). */
  private resolve(name: string, place: Place): string {
    if (place.prefix === null) return name;
    const candidates = [`${place.prefix}.${name}`, name];
    if (this.registry) {
      for (const candidate of candidates) {
        const found = findField(this.registry, candidate);
        if (found) return found.name;
      }
      if (ownEntry(this.registry.scopes, name)) return name;
    } else if (place.scope !== null && name.startsWith(`${place.scope}.`)) {
      // `same_service(services.port: 22)`: the index has no `services.services.*`, so the
      // compiler's relative reading finds nothing and it reads the name as written.
      return name;
    }
    return candidates[0] ?? name;
  }

  private cenqlName(legacy: string, position: number): string {
    const path = cenqlPath(this.resource, this.ipv4 ? (ownEntry(IPV4_NAMES, legacy) ?? legacy) : legacy);
    if (path === null) {
      throw new QueryError(
        `${quoteToken(legacy)} at position ${position} is a per-port website field, which has no CenQL equivalent (web properties are one port each: search web.port and web.endpoints.http fields)`,
        position,
        legacy,
      );
    }
    return `${this.resource}.${path}`;
  }

  private field(legacy: string, position: number, op: "match" | "exact", value: Value): QueryNode {
    if (this.ipv4) {
      // `protocols.raw` is the list matched whole: what converting `protocols` reads already.
      if (legacy === "protocols" || legacy === "protocols.raw") return this.protocols(position, value);
      const perPort = perPortName(legacy);
      if (perPort) return this.portField(legacy, perPort, position, op, value);
    }
    if (this.index === "websites" && this.dialect === "v1") {
      const perPort = perPortName(legacy);
      if (perPort) return this.websitePortField(legacy, perPort, position, op, value);
      checkWebsiteField(legacy, position);
    }
    if (this.index === "certificates" && legacy === "tags") return certificateTagCondition(value, position);
    const name = this.cenqlName(legacy, position);
    const written =
      value.kind === "regex" && !this.isText(legacy) ? { ...value, source: whole(value.source) } : value;
    return { type: "field", field: name, position, op, value: written };
  }

  private isText(legacy: string): boolean {
    return this.registry ? findField(this.registry, legacy)?.def.type === "text" : false;
  }

  /** v1 `protocols: "443/https"` → `host.services: (port: 443 and protocol: https)`. */
  private protocols(position: number, value: Value): QueryNode {
    const items = value.kind === "term" ? [value] : value.kind === "set" ? value.items : [];
    const terms = items.filter((item): item is TermValue => item.kind === "term");
    if (terms.length === 0 || terms.length !== items.length) {
      throw new QueryError(
        `protocols takes values like "443/https" to convert, not ${quoteToken(value.raw)} at position ${value.position}`,
        value.position,
        value.raw,
      );
    }
    return orOf(
      terms.map((item) => {
        const match = /^(\d+)\/([A-Za-z0-9_-]+)$/.exec(item.text.trim());
        if (!match?.[1] || !match[2]) {
          throw new QueryError(
            `protocols takes values like "443/https", not ${quoteToken(item.raw)} at position ${item.position}`,
            item.position,
            item.raw,
          );
        }
        const [, port, name] = match;
        // v1's "https" is an HTTP service over TLS: the v2 extended service name says so.
        const nameField = name.toLowerCase() === "https" ? "extended_service_name" : "protocol";
        const at = { position: item.position, raw: item.raw };
        const body = andOf([
          {
            type: "field",
            field: "host.services.port",
            position,
            op: "match",
            value: { kind: "term", text: port, quoted: false, ...at },
          },
          {
            type: "field",
            field: `host.services.${nameField}`,
            position,
            op: "match",
            value: { kind: "term", text: name, quoted: false, ...at },
          },
        ]);
        return { type: "group", field: "host.services", position, body };
      }),
    );
  }

  /** v1 `443.https.get.title: x` → `host.services: (port: 443 and endpoints.http.html_title: x)`. */
  private portField(
    legacy: string,
    perPort: { port: number; rest: string },
    position: number,
    op: "match" | "exact",
    value: Value,
  ): QueryNode {
    const path = portPath(legacy, perPort.rest, position);
    const spelled = platformPortValue(perPort.rest, value);
    const written = spelled.kind === "regex" ? { ...spelled, source: whole(spelled.source) } : spelled;
    const body = andOf([
      portCondition("host.services.port", perPort.port, position),
      { type: "field", field: `host.services.${path}`, position, op, value: written },
    ]);
    return { type: "group", field: "host.services", position, body };
  }

  /**
   * v1 websites `443.https.get.title: x` → `web.port: 443 and web.endpoints.http.html_title: x`:
   * a web property is one port of the site, so both hold on the same property.
   */
  private websitePortField(
    legacy: string,
    perPort: { port: number; protocol: string; rest: string },
    position: number,
    op: "match" | "exact",
    value: Value,
  ): QueryNode {
    if (perPort.protocol !== "http" && perPort.protocol !== "https") {
      throw new QueryError(
        `${quoteToken(legacy)} at position ${position} names a protocol websites do not serve (http or https)`,
        position,
        legacy,
      );
    }
    const path = portPath(legacy, perPort.rest, position);
    const spelled = platformPortValue(perPort.rest, value);
    const written = spelled.kind === "regex" ? { ...spelled, source: whole(spelled.source) } : spelled;
    return andOf([
      portCondition("web.port", perPort.port, position),
      { type: "field", field: `web.${path}`, position, op, value: written },
    ]);
  }
}

function portCondition(field: string, port: number, position: number): QueryNode {
  const text = String(port);
  return {
    type: "field",
    field,
    position,
    op: "match",
    value: { kind: "term", text, quoted: false, position, raw: text },
  };
}

/**
 * The ports an AND of web property conditions needs (`web.port: N` terms, however nested in
 * ANDs); two different ones cannot hold on one property.
 */
function checkOnePortPerProperty(node: QueryNode): void {
  switch (node.type) {
    case "and": {
      const ports = new Map<string, number>();
      const collect = (child: QueryNode) => {
        if (child.type === "and") child.children.forEach(collect);
        else if (child.type === "field" && child.field === "web.port" && child.value.kind === "term")
          ports.set(child.value.text, child.position);
      };
      collect(node);
      if (ports.size > 1) {
        const [first, second] = [...ports];
        const at = second?.[1] ?? 0;
        throw new QueryError(
          `conditions on ports ${first?.[0]} and ${second?.[0]} of one website cannot hold together on the Platform, whose web properties are one port each (at position ${at}); search one port, or either with "or"`,
          at,
          second?.[0] ?? "",
        );
      }
      node.children.forEach(checkOnePortPerProperty);
      return;
    }
    case "or":
      node.children.forEach(checkOnePortPerProperty);
      return;
    case "not":
      checkOnePortPerProperty(node.child);
      return;
    case "group":
      checkOnePortPerProperty(node.body);
      return;
    default:
      return;
  }
}

/** A legacy keyword regex matches the whole value; CenQL's matches anywhere unless anchored. */
function whole(source: string): string {
  const start = source.startsWith("^") ? source : `^${source}`;
  return /(^|[^\\])(\\\\)*\$$/.test(start) ? start : `${start}$`;
}

function hasFullText(node: QueryNode): boolean {
  switch (node.type) {
    case "text":
      return true;
    case "and":
    case "or":
      return node.children.some(hasFullText);
    case "not":
      return hasFullText(node.child);
    default:
      return false;
  }
}

/** Legacy (v1 or v2 dialect) query for an index → CenQL text; errors per the parser's own reading. */
export function convertLegacyQuery(
  text: string,
  dialect: "v1" | "v2",
  index: LegacyIndex,
  options: ConvertOptions = {},
): QueryResult<string> {
  const parsed = parseQuery(text, dialect);
  if (!parsed.ok) return parsed;
  return catchQueryError(() => {
    const converter = new Converter(dialect, index, options.registry);
    const converted = converter.convert(parsed.value, { prefix: null, scope: null });
    if (index === "websites") checkOnePortPerProperty(converted);
    // Bare terms alone search hosts; `cert: (...)` keeps a certificate query's full text on certificates.
    const resource = RESOURCE_OF[index];
    const scoped =
      resource !== "host" && hasFullText(converted)
        ? { type: "group" as const, field: resource, position: 0, body: converted }
        : converted;
    return printCenql(scoped);
  });
}
