import {
  andOf,
  isPortablePrefix,
  isPortableRegex,
  orOf,
  type QueryNode,
  type TermValue,
  type Value,
} from "@scangate/search";
import type { ColumnRef, Expr } from "../ast";
import { chainOf, forEachReference } from "../ast-walk";
import type { FieldDef } from "../source";
import { parseTimestamp } from "../values";
import type { PlatformField } from "./fields";

/**
 * The part of a WHERE the Platform's search can apply, as a CenQL tree. The translation keeps
 * one promise: every row the WHERE keeps comes from a document the CenQL query matches (the
 * query may match more; the engine evaluates the whole WHERE over the rows anyway). When the
 * query matches exactly the documents the WHERE keeps, the translation is `exact`, and a count
 * or an aggregate may be read from the Platform instead of the rows.
 *
 * - Leaves: `=`, `!=`, `<` ... on numbers and timestamps, `IN`, `BETWEEN`, `IS [NOT] NULL`,
 *   `CONTAINS`, `LIKE` (a prefix as a wildcard, an IP prefix as a CIDR block, other patterns as
 *   an anchored regex), `REGEXP_MATCH`/`REGEXP_CONTAINS` where the regex is one CenQL engines
 *   read (`isPortableRegex`). Anything else (functions, two columns, subqueries) pushes nothing.
 * - `AND` keeps what pushes (dropping a conjunct only widens the query); `OR` pushes only when
 *   every operand does; `NOT` only over an exact operand, and is exact only when that operand
 *   is never NULL (SQL's NOT of NULL keeps nothing, CenQL's `not` keeps the document).
 * - Repeated fields keep the engine's quantifiers (`repeated.ts`): conditions on the `services`
 *   record placed at one AND/OR chain hold on one service, `host.services: (...)`, and a
 *   condition an empty record's one NULL element satisfies also takes hosts without services.
 *   A top-level repeated field (`protocols`, `parsed.names`) is matched by any value, as CenQL
 *   matches lists; two conditions ANDed on it may then hold on different values (not exact).
 */

export interface Pushed {
  node: QueryNode;
  /** The query matches exactly the documents the condition keeps. */
  exact: boolean;
  /** The condition is never NULL (so NOT of it is exact too). */
  twoValued: boolean;
}

/** What the translation needs to know of a column. */
export interface PushdownField {
  def: FieldDef;
  /** null: the Platform cannot search it. */
  platform: PlatformField | null;
}

export interface PushdownContext {
  resolve(ref: ColumnRef): PushdownField | null;
  /** `protocols` of the ipv4 series (`<port>/<name>`), which has a translation of its own. */
  protocolsField: string | null;
}

type SearchableField = PushdownField & { platform: PlatformField };

/** A repeated group as the engine quantifies it: the `services` record or one top-level repeated field. */
type Group = string;

const term = (text: string, quoted = false): TermValue => ({
  kind: "term",
  text,
  quoted,
  position: 0,
  raw: text,
});
const leaf = (field: string, op: "match" | "exact", value: Value): QueryNode => ({
  type: "field",
  field,
  position: 0,
  op,
  value,
});
const exists = (field: string): QueryNode => leaf(field, "match", { kind: "exists", position: 0, raw: "*" });
/** NOT, with a double negation undone. */
const not = (child: QueryNode): QueryNode => (child.type === "not" ? child.child : { type: "not", child });
const group = (field: string, body: QueryNode): QueryNode => ({ type: "group", field, position: 0, body });

/** A RegExp source matching `text` literally. */
const escapeRegex = (text: string) => text.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);

class Translator {
  constructor(private readonly context: PushdownContext) {}

  /** The groups `expr` reads values of (a record's name, or a top-level repeated field's). */
  private groupsOf(expr: Expr): Set<Group> {
    const groups = new Set<Group>();
    forEachReference(
      expr,
      (ref, asArray) => {
        if (asArray) return;
        const field = this.context.resolve(ref);
        if (!field) return;
        if (field.def.record !== undefined) groups.add(field.def.record);
        else if (field.def.mode === "REPEATED") groups.add(field.def.name);
      },
      new Set(),
    );
    return groups;
  }

  /** `expr` at the document level, its groups still to quantify. */
  translate(expr: Expr): Pushed | null {
    if (expr.kind === "binary" && (expr.op === "AND" || expr.op === "OR")) return this.chain(expr, expr.op);
    const groups = this.groupsOf(expr);
    if (groups.size > 1) return null;
    const [only] = groups;
    if (only !== undefined) return this.quantified(only, [expr], "AND");
    return this.plain(expr, null);
  }

  /** An AND/OR chain: operands on one group are quantified together, as the engine does. */
  private chain(expr: Expr, op: "AND" | "OR"): Pushed | null {
    const operands = chainOf(expr, op);
    const components = new Map<Group | null, Expr[]>();
    const parts: (Pushed | null)[] = [];
    for (const operand of operands) {
      const groups = this.groupsOf(operand);
      if (groups.size > 1) {
        parts.push(null);
        continue;
      }
      const [only] = groups;
      if (only === undefined) parts.push(this.translate(operand));
      else components.set(only, [...(components.get(only) ?? []), operand]);
    }
    for (const [name, members] of components)
      if (name !== null) parts.push(this.quantified(name, members, op));
    return combine(parts, op);
  }

  /** Operands of one chain that read `name`, quantified once (one element for all of them). */
  private quantified(name: Group, members: Expr[], op: "AND" | "OR"): Pushed | null {
    if (name === this.context.protocolsField)
      return combine(
        members.map((m) => this.protocols(m)),
        op,
      );
    const scope = this.scopeOf(name);
    if (scope === null) {
      // A top-level repeated field: CenQL matches any of its values, each condition on its own.
      const parts = members.map((m) => this.plain(m, name));
      const combined = combine(parts, op);
      if (combined && op === "AND" && members.length > 1) combined.exact = false;
      return combined;
    }
    // One service for every operand: the pure ones go in one scope, the others are dropped.
    const inner = members.map((m) => this.plain(m, name));
    const inScope = combine(inner, op);
    if (inScope === null) return null;
    let node = group(scope, inScope.node);
    // The engine quantifies an empty record over one NULL element: a condition that holds on it
    // holds for the hosts without services too.
    if (nullElementValue(members, op) === true) node = orOf([node, not(exists(scope))]);
    return { node, exact: inScope.exact, twoValued: false };
  }

  /** The scope a record is searched in. */
  private scopeOf(name: Group): string | null {
    return name === "services" ? "host.services" : null;
  }

  /**
   * A condition without groups to quantify (`inGroup`: the group it reads is already bound, so
   * NOT stays inside the element). Null when it cannot be pushed.
   */
  private plain(expr: Expr, inGroup: Group | null): Pushed | null {
    switch (expr.kind) {
      case "binary":
        if (expr.op === "AND" || expr.op === "OR") {
          return combine(
            chainOf(expr, expr.op).map((e) => this.plain(e, inGroup)),
            expr.op,
          );
        }
        return this.comparison(expr.op, expr.left, expr.right, inGroup);
      case "unary": {
        if (expr.op !== "NOT") return null;
        const inner = this.plain(expr.operand, inGroup);
        // NOT of a superset would be a subset; `NOT (x IS NULL)` is exact even on a list.
        if (!inner?.exact) return null;
        if (expr.operand.kind === "is_null") return { node: not(inner.node), exact: true, twoValued: true };
        return this.negation(expr.operand, inner);
      }
      case "is_null": {
        const field = this.column(expr.operand, inGroup);
        if (!field) return null;
        const node = exists(field.platform.cenql);
        return { node: expr.negated ? node : not(node), exact: true, twoValued: true };
      }
      case "in": {
        if (!expr.list || expr.list.some((item) => item.kind !== "literal")) return null;
        const any = combine(
          expr.list.map((item) => this.comparison("=", expr.operand, item, inGroup)),
          "OR",
        );
        return expr.negated ? widened(this.negation(expr.operand, any)) : any;
      }
      case "between": {
        const low = this.comparison(">=", expr.operand, expr.low, inGroup);
        const high = this.comparison("<=", expr.operand, expr.high, inGroup);
        const both = combine([low, high], "AND");
        if (!low || !high || !both) return null;
        return expr.negated ? widened(this.negation(expr.operand, both)) : both;
      }
      case "like": {
        const pushed = this.like(expr.operand, expr.pattern, inGroup);
        return expr.negated ? widened(this.negation(expr.operand, pushed)) : pushed;
      }
      case "call": {
        if ((expr.name !== "REGEXP_MATCH" && expr.name !== "REGEXP_CONTAINS") || expr.args.length !== 2)
          return null;
        const [operand, pattern] = expr.args as [Expr, Expr];
        if (pattern.kind !== "literal" || typeof pattern.value !== "string") return null;
        return this.regex(operand, pattern.value, inGroup);
      }
      default:
        return null;
    }
  }

  /**
   * A column the Platform searches, with its field. Inside a record's scope only that record's
   * fields can be named (CenQL reads other names there as the record's own).
   */
  private column(expr: Expr, inGroup: Group | null): SearchableField | null {
    if (expr.kind !== "column") return null;
    const field = this.context.resolve(expr);
    if (!field?.platform) return null;
    if (inGroup !== null && this.scopeOf(inGroup) !== null && field.def.record !== inGroup) return null;
    return field as SearchableField;
  }

  /** Whether `expr` reads a REPEATED value, whose negation is "some value is not", not CenQL's `not`. */
  private readsRepeated(expr: Expr): boolean {
    let repeated = false;
    forEachReference(
      expr,
      (ref) => {
        if (this.context.resolve(ref)?.def.mode === "REPEATED") repeated = true;
      },
      new Set(),
    );
    return repeated;
  }

  /** NOT of a pushed condition: only over one that reads no REPEATED value, and exact only when it is never NULL. */
  private negation(operand: Expr, inner: Pushed | null): Pushed | null {
    // NOT of a superset would be a subset.
    if (!inner?.exact || this.readsRepeated(operand)) return null;
    return { node: not(inner.node), exact: inner.exact && inner.twoValued, twoValued: inner.twoValued };
  }

  private comparison(op: string, left: Expr, right: Expr, inGroup: Group | null): Pushed | null {
    if (op === "CONTAINS")
      return right.kind === "literal" && typeof right.value === "string"
        ? this.regex(left, escapeRegex(right.value), inGroup)
        : null;
    const flipped: Record<string, string> = {
      "<": ">",
      "<=": ">=",
      ">": "<",
      ">=": "<=",
      "=": "=",
      "!=": "!=",
    };
    if (left.kind === "literal" && right.kind === "column" && flipped[op])
      return this.comparison(flipped[op], right, left, inGroup);
    const field = this.column(left, inGroup);
    if (!field || right.kind !== "literal" || right.value === null) return null;
    if (op === "!=") return widened(this.negation(left, this.comparison("=", left, right, inGroup)));
    const { cenql, caseless } = field.platform;
    const value = right.value;
    switch (field.def.type) {
      case "STRING": {
        if (op !== "=" || typeof value !== "string") return null;
        if (caseless) {
          const spelled = caseless.toPlatform(value);
          return spelled === null ? null : exact(leaf(cenql, "match", term(spelled, true)));
        }
        // An address is a term of its own (a CIDR block is one too).
        if (cenql === "host.ip") return exact(leaf(cenql, "match", term(value)));
        return exact(leaf(cenql, "exact", term(value, true)));
      }
      case "INTEGER":
      case "FLOAT":
        if (typeof value !== "number" || !Number.isFinite(value)) return null;
        return exact(
          op === "=" ? leaf(cenql, "match", term(String(value))) : range(cenql, op, String(value), false),
        );
      case "BOOLEAN":
        return op === "=" && typeof value === "boolean"
          ? exact(leaf(cenql, "match", term(String(value))))
          : null;
      case "TIMESTAMP": {
        const ms = typeof value === "string" ? parseTimestamp(value) : null;
        if (ms === null || op === "=") return null;
        return exact(range(cenql, op, new Date(ms).toISOString(), true));
      }
    }
  }

  private like(operand: Expr, pattern: Expr, inGroup: Group | null): Pushed | null {
    const field = this.column(operand, inGroup);
    if (!field || field.def.type !== "STRING" || field.platform.caseless) return null;
    if (pattern.kind !== "literal" || typeof pattern.value !== "string") return null;
    const text = pattern.value;
    const cenql = field.platform.cenql;
    const prefix = /^([^%_\\]*)%$/.exec(text)?.[1];
    if (prefix !== undefined && cenql === "host.ip") {
      // Whole octets of an address: the block they start.
      const octets = /^((?:\d{1,3}\.){1,3})$/.exec(prefix)?.[1]?.split(".").filter(Boolean);
      if (!octets || octets.some((o) => Number(o) > 255)) return null;
      const block = [...octets, ...Array<string>(4 - octets.length).fill("0")].join(".");
      return exact(leaf(cenql, "match", term(`${block}/${octets.length * 8}`)));
    }
    if (prefix !== undefined && prefix !== "" && isPortablePrefix(prefix)) {
      const escaped = prefix.replace(/[\\*?]/g, (c) => `\\${c}`);
      return exact(
        leaf(cenql, "exact", { kind: "wildcard", pattern: `${escaped}*`, position: 0, raw: `${escaped}*` }),
      );
    }
    if (/\\/.test(text)) return null;
    const source = `^${[...text].map((c) => (c === "%" ? ".*" : c === "_" ? "." : escapeRegex(c))).join("")}$`;
    return this.regex(operand, source, inGroup);
  }

  private regex(operand: Expr, source: string, inGroup: Group | null): Pushed | null {
    const field = this.column(operand, inGroup);
    if (
      !field ||
      field.def.type !== "STRING" ||
      field.platform.caseless ||
      field.platform.cenql === "host.ip"
    )
      return null;
    if (!isPortableRegex(source)) return null;
    return exact(leaf(field.platform.cenql, "match", { kind: "regex", source, position: 0, raw: source }));
  }

  /** `protocols = '443/https'` → the service on that port with that protocol. */
  private protocols(expr: Expr): Pushed | null {
    if (expr.kind === "is_null") {
      const node = exists("host.services");
      return { node: expr.negated ? node : not(node), exact: true, twoValued: true };
    }
    const values =
      expr.kind === "binary" && expr.op === "=" && expr.right.kind === "literal"
        ? [expr.right.value]
        : expr.kind === "in" && !expr.negated && expr.list?.every((item) => item.kind === "literal")
          ? expr.list.map((item) => (item.kind === "literal" ? item.value : null))
          : null;
    if (values === null) return null;
    return combine(
      values.map((value) => {
        const match = typeof value === "string" ? /^(\d{1,5})\/([a-z0-9_-]+)$/.exec(value) : null;
        if (!match?.[1] || !match[2]) return null;
        const [, port, name] = match;
        const web = name === "http" || name === "https";
        const body = andOf([
          leaf("host.services.port", "match", term(port)),
          leaf("host.services.protocol", "match", term(web ? "HTTP" : name, true)),
        ]);
        // v1 tells http from https by TLS, which the query does not: it matches both.
        return { node: group("host.services", body), exact: !web, twoValued: false };
      }),
      "OR",
    );
  }
}

function exact(node: QueryNode): Pushed {
  return { node, exact: true, twoValued: false };
}

/** A negation CenQL reads more widely than SQL (`not x: 1` keeps a NULL x): a superset only. */
function widened(pushed: Pushed | null): Pushed | null {
  return pushed && { node: pushed.node, exact: false, twoValued: false };
}

/** `field op bound`; a timestamp is quoted (its `:` would end a word), a number is not. */
function range(field: string, op: string, bound: string, quoted: boolean): QueryNode {
  const end = { value: term(bound, quoted), inclusive: op === "<=" || op === ">=" };
  const lower = op === ">" || op === ">=" ? end : null;
  const upper = op === "<" || op === "<=" ? end : null;
  return leaf(field, "match", { kind: "range", lower, upper, position: 0, raw: bound });
}

/** AND keeps what pushes; OR needs every operand. */
function combine(parts: readonly (Pushed | null)[], op: "AND" | "OR"): Pushed | null {
  const pushed = parts.filter((p): p is Pushed => p !== null);
  if (op === "OR" && pushed.length < parts.length) return null;
  if (pushed.length === 0) return null;
  return {
    node: op === "AND" ? andOf(pushed.map((p) => p.node)) : orOf(pushed.map((p) => p.node)),
    exact: pushed.length === parts.length && pushed.every((p) => p.exact),
    twoValued: pushed.every((p) => p.twoValued),
  };
}

/**
 * The value of a chain of conditions on one record's fields when every field is NULL (the one
 * element of an empty record): true, false, or null (unknown; SQL's NULL keeps nothing).
 */
function nullElementValue(operands: readonly Expr[], op: "AND" | "OR"): boolean | null {
  const values = operands.map(nullValueOf);
  if (op === "AND") return values.includes(false) ? false : values.includes(null) ? null : true;
  return values.includes(true) ? true : values.includes(null) ? null : false;
}

function nullValueOf(expr: Expr): boolean | null {
  switch (expr.kind) {
    case "is_null":
      return !expr.negated;
    case "unary": {
      if (expr.op !== "NOT") return null;
      const inner = nullValueOf(expr.operand);
      return inner === null ? null : !inner;
    }
    case "binary":
      if (expr.op === "AND" || expr.op === "OR") return nullElementValue(chainOf(expr, expr.op), expr.op);
      return null;
    default:
      // Comparisons, IN, LIKE, CONTAINS and regexes of NULL are NULL.
      return null;
  }
}

/** The CenQL of the part of `where` the Platform can apply, or null when none of it can. */
export function pushdown(where: Expr, context: PushdownContext): Pushed | null {
  return new Translator(context).translate(where);
}
