import type { QueryNode, RangeBound, TermValue, Value, WildcardValue } from "../src/index";

/**
 * A compact S-expression of a parsed query, so parser tests read as one line each:
 * `(and services.port:22 (not text(ssh)))`. Unquoted words print as written when they hold no
 * spaces or quotes; quoted values print as JSON strings.
 */
function showTerm(term: TermValue | WildcardValue): string {
  if (term.kind === "wildcard") return `wild(${term.pattern})`;
  return term.quoted || /[\s"()]/.test(term.text) || term.text === "" ? JSON.stringify(term.text) : term.text;
}

function showBound(bound: RangeBound | null, lower: boolean): string {
  if (bound === null) return lower ? "[*" : "*]";
  const text = showTerm(bound.value);
  if (lower) return `${bound.inclusive ? "[" : "{"}${text}`;
  return `${text}${bound.inclusive ? "]" : "}"}`;
}

function showValue(value: Value): string {
  switch (value.kind) {
    case "term":
    case "wildcard":
      return showTerm(value);
    case "regex":
      return `/${value.source}/`;
    case "exists":
      return "exists";
    case "range":
      return `${showBound(value.lower, true)} TO ${showBound(value.upper, false)}`;
    case "set":
      return `{${value.items.map(showTerm).join(", ")}}`;
  }
}

export function showQuery(node: QueryNode): string {
  switch (node.type) {
    case "all":
      return "*";
    case "and":
    case "or":
      return `(${node.type} ${node.children.map(showQuery).join(" ")})`;
    case "not":
      return `(not ${showQuery(node.child)})`;
    case "field":
      return `${node.field}${node.op === "exact" ? "=" : ":"}${showValue(node.value)}`;
    case "text":
      return `text(${showValue(node.value)})`;
    case "group":
      return `(group ${node.field} ${showQuery(node.body)})`;
  }
}
