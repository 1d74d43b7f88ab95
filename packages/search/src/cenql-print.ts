import type { QueryNode, RangeValue, TermValue, Value, WildcardValue } from "./ast";

/**
 * CenQL text of a tree whose field names are full CenQL names (`host.services.port`). Inside a
 * group, names under the group's path print relative to it. The text parses back
 * (`parseQuery(text, "cenql")`) to the same tree, positions aside.
 */
export function printCenql(node: QueryNode): string {
  return print(node, null);
}

// Characters that end or change an unquoted word, escaped with a backslash when a word holds them.
const VALUE_SPECIAL = /[\s()[\]{}"`,\\*?~^&|]/;
const TEXT_SPECIAL = /[\s()[\]{}"`,\\*?~^&|:=<>!]/;
const OPERATOR_WORD = /^(and|or|not)$/i;

function escapeChars(text: string, special: RegExp): string {
  return [...text].map((char) => (special.test(char) ? `\\${char}` : char)).join("");
}

/** An unquoted word as written: specials escaped, and a leading character that would start something else. */
function word(text: string, bareTerm: boolean): string {
  if (text === "") return '""';
  const special = bareTerm ? TEXT_SPECIAL : VALUE_SPECIAL;
  const out = escapeChars(text, special);
  // `field: >5` is a comparison, and `-x` / `+x` as a bare term are Lucene's prefix operators.
  // A leading `'` would open a quoted value.
  const leading = OPERATOR_WORD.test(text) || /^[<>']/.test(text) || (bareTerm && /^[-+]/.test(text));
  return leading && !special.test(text.charAt(0)) ? `\\${out}` : out;
}

/** A quoted string. A value escapes `*` too: an unescaped one inside a value's quotes is a wildcard. */
function quoted(text: string, value = true): string {
  return `"${text.replace(value ? /[\\"*]/g : /[\\"]/g, (char) => `\\${char}`)}"`;
}

function term(value: TermValue, bareTerm = false): string {
  return value.quoted ? quoted(value.text) : word(value.text, bareTerm);
}

/** A wildcard pattern keeps its `*` / `?` and its `\*`, `\?`, `\\` literals; other specials are escaped. */
function wildcard(value: WildcardValue, bareTerm = false): string {
  let out = "";
  for (let i = 0; i < value.pattern.length; i++) {
    const char = value.pattern[i] ?? "";
    if (char === "\\") {
      out += `\\${value.pattern[i + 1] ?? ""}`;
      i++;
    } else if (char === "*" || char === "?") {
      out += char;
    } else {
      out += escapeChars(char, bareTerm ? TEXT_SPECIAL : VALUE_SPECIAL);
    }
  }
  return /^[<>']/.test(out) || (bareTerm && /^[-+!]/.test(out)) ? `\\${out}` : out;
}

function item(value: TermValue | WildcardValue): string {
  return value.kind === "wildcard" ? wildcard(value) : term(value);
}

function range(name: string, value: RangeValue): string {
  const { lower, upper } = value;
  if (lower && !upper) return `${name} ${lower.inclusive ? ">=" : ">"} ${term(lower.value)}`;
  if (upper && !lower) return `${name} ${upper.inclusive ? "<=" : "<"} ${term(upper.value)}`;
  // A lower bound reading "to" would be taken for the range's own TO: escape it.
  const low = !lower
    ? "*"
    : /^to$/i.test(lower.value.text) && !lower.value.quoted
      ? `\\${term(lower.value)}`
      : term(lower.value);
  const high = upper ? term(upper.value) : "*";
  return `${name}: ${lower?.inclusive === false ? "{" : "["}${low} to ${high}${upper?.inclusive === false ? "}" : "]"}`;
}

function field(name: string, op: "match" | "exact", value: Value): string {
  const operator = op === "exact" ? " = " : ": ";
  switch (value.kind) {
    case "term":
      return `${name}${operator}${term(value)}`;
    case "wildcard":
      return `${name}${operator}${wildcard(value)}`;
    case "regex":
      return `${name} =~ ${quoted(value.source, false)}`;
    case "exists":
      return `${name}: *`;
    case "range":
      return range(name, value);
    case "set":
      return `${name}${operator}{${value.items.map(item).join(", ")}}`;
  }
}

function relative(name: string, group: string | null): string {
  if (group !== null && name.startsWith(`${group}.`)) return name.slice(group.length + 1);
  return name;
}

function print(node: QueryNode, group: string | null): string {
  switch (node.type) {
    case "all":
      return "*";
    case "or":
      return node.children.map((child) => print(child, group)).join(" or ");
    case "and":
      return node.children
        .map((child) => (child.type === "or" ? `(${print(child, group)})` : print(child, group)))
        .join(" and ");
    case "not": {
      const inner = print(node.child, group);
      return node.child.type === "and" || node.child.type === "or" ? `not (${inner})` : `not ${inner}`;
    }
    case "field":
      return field(relative(node.field, group), node.op, node.value);
    case "text": {
      const { value } = node;
      if (value.kind === "term") return term(value, true);
      if (value.kind === "wildcard") return wildcard(value, true);
      return quoted(value.source, false);
    }
    case "group":
      return `${relative(node.field, group)}: (${print(node.body, node.field)})`;
  }
}
