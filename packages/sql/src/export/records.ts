/**
 * Nesting of flat result columns for exports with `flatten: false`: `location.country` and
 * `location.city` become `{"location": {"country": ..., "city": ...}}`. A column whose dotted
 * prefix is itself a column (`a` beside `a.b`) cannot nest without losing one of them, so it
 * keeps its dotted name as a key.
 */

export type Nested = { [key: string]: unknown };

/** Where each column goes in the nested record: its path of keys. */
export function nestingPlan(columns: readonly string[]): string[][] {
  const names = new Set(columns);
  return columns.map((name) => {
    const path = name.split(".");
    for (let i = 1; i < path.length; i++) {
      if (names.has(path.slice(0, i).join("."))) return [name];
    }
    return path.some((key) => key === "") ? [name] : path;
  });
}

export function nestRecord(plan: readonly string[][], values: readonly unknown[]): Nested {
  const root: Nested = {};
  plan.forEach((path, column) => {
    let target = root;
    for (const key of path.slice(0, -1)) {
      target[key] ??= {};
      target = target[key] as Nested;
    }
    target[path[path.length - 1] ?? ""] = values[column];
  });
  return root;
}

/** Top-level keys of the nested records, in first-seen order (CSV header of unflattened output). */
export function topLevelKeys(plan: readonly string[][]): string[] {
  return [...new Set(plan.map((path) => path[0] ?? ""))];
}
