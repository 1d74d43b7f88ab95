/**
 * Repeated fields, with BigQuery's meaning. This is the heart of the engine's semantics.
 *
 * A *repeated group* is either a top-level REPEATED field (`protocols`, `parsed.names`: its own
 * group) or a repeated record: all its fields (`services.port`, `services.service_name`) share
 * the group `services`. A field REPEATED inside one element (`services.tls.certificate.names`)
 * is a nested group under its record's group.
 *
 * 1. Flattening. When the SELECT list, GROUP BY or ORDER BY (aggregate arguments included,
 *    e.g. COUNT(services.port), also in HAVING) reads a group, the rows are flattened over it:
 *    one row per element, and a row whose group is empty gives one row with NULL for the
 *    group's fields (legacy FLATTEN). Flattening two different groups of one table is
 *    refused: `Cannot query the cross product of repeated fields a and b`. WHERE then filters
 *    the element rows.
 * 2. Existential conditions. A group read only in WHERE or ON is not flattened: the condition
 *    holds for the row when it holds for one element, every field of the group bound to that
 *    same element (`services.port = 443 AND services.service_name = 'HTTP'` needs one service
 *    with both). An empty group is one NULL element. The quantifier is placed at the smallest
 *    AND/OR chain holding all references to the group, so conditions on different groups are
 *    quantified separately (each group walked once per row, never their cross product);
 *    a single comparison or NOT that mixes two unrelated groups is refused with the
 *    cross-product error, as it could only be evaluated over their product.
 * 3. Nested repeated fields (REPEATED inside an element) are never flattened. In a condition
 *    they match existentially like a group (`services.tls.certificate.names = 'a'` holds when
 *    any name is 'a'); selected, they give the array (mode REPEATED); their record's group is
 *    flattened as in rule 1.
 * 4. A group's whole array is read by ARRAY_LENGTH(x) and UNNEST(x): that neither flattens
 *    nor quantifies.
 * 5. Explicit `FROM t, UNNEST(services) AS s` (CROSS JOIN / JOIN UNNEST too) gives one row per
 *    element, dropping rows whose array is empty (LEFT JOIN UNNEST keeps them with NULLs);
 *    `s.port` is the element's field and `services.port` then means the same element.
 *    Legacy FLATTEN(t, services) is flattening (rule 1) asked for explicitly.
 */
import type { ColumnRef, Expr } from "./ast";
import { AGGREGATE_FUNCTIONS } from "./aggregates";
import { chainFrom, chainOf, forEachReference } from "./ast-walk";
import { SqlFailure } from "./errors";
import { and3, or3, type ExpressionCompiler } from "./expressions";
import type { Compiled, Evaluate, ExpandNode } from "./plan-nodes";
import type { GroupBinding, Relation, Scope } from "./scope";

function crossProduct(a: GroupBinding, b: GroupBinding, at: number): SqlFailure {
  return new SqlFailure(`Cannot query the cross product of repeated fields ${a.name} and ${b.name}`, at);
}

/**
 * Rule 1: flattens the top-level groups that `references` read (value references; array
 * references read the whole array). Returns the expansion each newly flattened group needs,
 * by relation.
 */
export function flattenReferencedGroups(
  scope: Scope,
  references: readonly { ref: ColumnRef; asArray: boolean }[],
): Map<Relation, ExpandNode[]> {
  const firstUse = new Map<GroupBinding, number>();
  for (const { ref, asArray } of references) {
    const resolved = scope.resolve(ref, asArray ? "array" : "value");
    for (const group of resolved.groups) {
      if (group.parent === null && group.state === "existential" && !firstUse.has(group))
        firstUse.set(group, ref.span.start);
    }
  }
  const expansions = new Map<Relation, ExpandNode[]>();
  for (const [group, at] of firstUse) {
    const relation = group.relation;
    const other = [...relation.groups.values()].find(
      (g) => g !== group && g.parent === null && g.state !== "existential",
    );
    if (other) throw crossProduct(other, group, at);
    group.state = "flattened";
    const list = expansions.get(relation) ?? [];
    list.push({ slot: group.slot, offsetSlot: null, array: group.array, keepEmpty: true, filter: null });
    expansions.set(relation, list);
  }
  return expansions;
}

/** The column references of `exprs` that decide flattening (see rule 1). */
export function flatteningReferences(
  exprs: readonly Expr[],
  onlyInsideAggregates: boolean,
  skip: (ref: ColumnRef) => boolean = () => false,
): { ref: ColumnRef; asArray: boolean }[] {
  const found: { ref: ColumnRef; asArray: boolean }[] = [];
  for (const expr of exprs) {
    forEachReference(
      expr,
      (ref, asArray, insideAggregate) => {
        if ((!onlyInsideAggregates || insideAggregate) && !skip(ref)) found.push({ ref, asArray });
      },
      AGGREGATE_FUNCTIONS,
    );
  }
  return found;
}

/** Rule 2: `inner` holds for the row when it holds with `group` bound to one of its elements. */
function exists(group: GroupBinding, inner: Evaluate): Evaluate {
  const slot = group.slot;
  const arrayOf = group.array;
  return (row, env) => {
    const elements = arrayOf(row, env) as unknown[];
    const saved = row[slot];
    try {
      if (elements.length === 0) {
        row[slot] = null;
        const value = inner(row, env);
        return value === true ? true : value === false ? false : null;
      }
      let sawNull = false;
      for (const element of elements) {
        row[slot] = element;
        const value = inner(row, env);
        if (value === true) return true;
        if (value !== false) sawNull = true;
      }
      return sawNull ? null : false;
    } finally {
      row[slot] = saved;
    }
  };
}

/**
 * A condition (WHERE, ON) compiled with its existential quantifiers placed (rule 2). The
 * compiler must resolve in "condition" mode.
 */
export function compileCondition(compiler: ExpressionCompiler, expr: Expr): Compiled {
  const memo = new Map<Expr, GroupBinding[]>();
  const groupsOf = (node: Expr): GroupBinding[] => {
    const known = memo.get(node);
    if (known) return known;
    const groups = new Set<GroupBinding>();
    forEachReference(
      node,
      (ref, asArray) => {
        if (asArray) return;
        for (const group of compiler.scope.resolve(ref, "condition", compiler.options.visible).groups) {
          if (group.state === "existential") groups.add(group);
        }
      },
      AGGREGATE_FUNCTIONS,
    );
    const list = [...groups];
    memo.set(node, list);
    return list;
  };

  const boolean = (compiled: Compiled, at: number): Compiled => compiler.checkCondition(compiled, at);

  const quantify = (root: GroupBinding, node: Expr, pending: ReadonlySet<GroupBinding>): Compiled => {
    const rest = new Set(pending);
    rest.delete(root);
    const inner = boolean(place(node, rest), node.span.start);
    return { type: inner.type, array: false, evaluate: exists(root, inner.evaluate) };
  };

  const place = (node: Expr, pending: ReadonlySet<GroupBinding>): Compiled => {
    const groups = groupsOf(node).filter((g) => pending.has(g));
    if (groups.length === 0) return compiler.compile(node);
    if (node.kind === "binary" && (node.op === "AND" || node.op === "OR")) {
      const op = node.op;
      const operands = chainOf(node, op);
      const components = componentsOf(
        operands,
        (operand) => groupsOf(operand).filter((g) => pending.has(g)),
        pending,
      );
      const parts = components.map(({ operands: members, root }) => {
        const first = members[0] as Expr;
        if (members.length === 1) return boolean(place(first, pending), first.span.start);
        return quantify(root as GroupBinding, chainFrom(members, op), pending);
      });
      const combine = op === "AND" ? and3 : or3;
      const evaluate = parts
        .slice(1)
        .reduce((acc, part) => combine(acc, part.evaluate), (parts[0] as Compiled).evaluate);
      return { type: "BOOLEAN", array: false, evaluate };
    }
    const roots = groups.filter((g) => !g.parent || !groups.includes(g.parent));
    if (roots.length > 1)
      throw crossProduct(roots[0] as GroupBinding, roots[1] as GroupBinding, node.span.start);
    return quantify(roots[0] as GroupBinding, node, pending);
  };

  const all = new Set(groupsOf(expr));
  return compiler.checkCondition(place(expr, all), expr.span.start);
}

/**
 * Operands of an AND/OR chain, grouped so that operands reading one group (or groups nested in
 * it) are together, each component with its one root group. A component that would need two
 * root groups at once is their cross product (rule 2).
 */
function componentsOf(
  operands: readonly Expr[],
  groupsOf: (operand: Expr) => GroupBinding[],
  pending: ReadonlySet<GroupBinding>,
): { operands: Expr[]; root: GroupBinding | null }[] {
  const rootOf = (g: GroupBinding): GroupBinding =>
    g.parent && pending.has(g.parent) ? rootOf(g.parent) : g;
  const components: { operands: Expr[]; roots: Set<GroupBinding> }[] = [];
  for (const operand of operands) {
    const roots = new Set(groupsOf(operand).map(rootOf));
    const merged = { operands: [operand], roots };
    if (roots.size > 0) {
      for (const component of components.filter((c) => [...roots].some((r) => c.roots.has(r)))) {
        merged.operands.unshift(...component.operands);
        for (const g of component.roots) merged.roots.add(g);
        components.splice(components.indexOf(component), 1);
      }
    }
    components.push(merged);
  }
  return components.map((component) => {
    const roots = [...component.roots];
    if (component.operands.length > 1 && roots.length > 1) {
      throw crossProduct(
        roots[0] as GroupBinding,
        roots[1] as GroupBinding,
        (component.operands[0] as Expr).span.start,
      );
    }
    return { operands: component.operands, root: roots[0] ?? null };
  });
}
