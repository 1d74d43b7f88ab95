import { quoteToken } from "./query-error";
import { type FieldDef, type IndexRegistry, ownEntry } from "./registry";

/** The searchable field names of an index, sorted (for error messages and docs). */
export function fieldNames(registry: IndexRegistry): string[] {
  return Object.keys(registry.fields).sort();
}

export interface FoundField {
  name: string;
  def: FieldDef;
  /** Named by its v1 `.raw` sub-field: the whole value, as stored (case-sensitive). */
  raw?: true;
}

function listedField(registry: IndexRegistry, name: string): FoundField | null {
  const exact = ownEntry(registry.fields, name);
  if (exact) return { name, def: exact };
  const lower = name.toLowerCase();
  for (const [candidate, def] of Object.entries(registry.fields)) {
    if (candidate.toLowerCase() === lower) return { name: candidate, def };
  }
  const family = registry.families?.find((f) => f.pattern.test(lower));
  return family ? { name: lower, def: { type: family.type, storage: { kind: "absent" } } } : null;
}

/**
 * A field by its dotted name; names match case-insensitively when there is no exact one, and a
 * name of one of the registry's families is an `absent` field. The v1 `.raw` sub-field of a
 * field (`protocols.raw`, `autonomous_system.name.raw`: Elasticsearch's unanalysed copy) is
 * the field itself, matched whole.
 */
export function findField(registry: IndexRegistry, name: string): FoundField | null {
  const found = listedField(registry, name);
  if (found || !name.toLowerCase().endsWith(".raw")) return found;
  const base = listedField(registry, name.slice(0, -4));
  return base ? { ...base, raw: true } : null;
}

export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The closest field name within a couple of typos, for "did you mean" hints. */
export function suggestField(registry: IndexRegistry, name: string): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of fieldNames(registry)) {
    const distance = editDistance(candidate.toLowerCase(), name.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * `unknown field "x" at position 3`, or with the nearest known field:
 * `unknown field "services.tls.cipher_selectd"; did you mean "services.tls.cipher_selected"? (at position 0)`.
 * Without a position (an aggregate's field parameter) the position is left out.
 */
export function unknownFieldMessage(registry: IndexRegistry, name: string, position?: number): string {
  const suggestion = suggestField(registry, name);
  const where = position === undefined ? "" : `at position ${position}`;
  if (suggestion === null) return `unknown field ${quoteToken(name)}${where ? ` ${where}` : ""}`;
  return `unknown field ${quoteToken(name)}; did you mean ${quoteToken(suggestion)}?${where ? ` (${where})` : ""}`;
}
