/**
 * The names a SELECT can see, and what each resolves to: a slot of the frame and a way to read
 * the value from it.
 *
 * Bindings come from FROM: relations (tables, derived tables), UNNEST aliases and their
 * `WITH OFFSET` names. Repeated data is read through groups (see `repeated.ts` for the rules):
 * a group is a top-level REPEATED field, or a repeated record whose fields all share it, or a
 * field REPEATED inside one element of a record (a nested group under the record's group).
 * Whatever iterates a group (flattening, an UNNEST, an existential condition) puts the current
 * element in the group's slot; a reference to one of its fields reads that slot.
 *
 * Names match case-insensitively. A name's leading parts may be an UNNEST alias, a relation's
 * alias or table name; what remains is a field path.
 */
import type { ColumnRef } from "./ast";
import { SqlFailure } from "./errors";
import type { Evaluate, Row } from "./plan-nodes";
import type { ResultColumn } from "./plan";
import type { FieldDef, FieldType, ResolvedTable } from "./source";
import { readSourceArray, readSourceValue, type ValueType } from "./values";

/** How a reference is used: as one value, inside a condition, or as a whole array (ARRAY_LENGTH, UNNEST). */
export type ResolveMode = "value" | "condition" | "array";

export type GroupState = "existential" | "flattened" | "unnested";

export interface GroupBinding {
  /** Full path: `services`, `protocols`, `services.tls.certificate.names`. */
  name: string;
  relation: Relation;
  parent: GroupBinding | null;
  /** Elements are record objects (else values). */
  record: boolean;
  slot: number;
  state: GroupState;
  /** The FROM entry whose step binds the element. */
  entry: number;
  /** The group's array in a frame (the parent's element must be bound for a nested group). */
  array: Evaluate;
}

export interface Relation {
  entry: number;
  slot: number;
  /** Lower-case names that qualify its columns. */
  qualifiers: string[];
  table: ResolvedTable | null;
  derived: readonly ResultColumn[] | null;
  fields: Map<string, FieldDef>;
  groups: Map<string, GroupBinding>;
  /** Top-level columns and record names the query reads (the scan's `columns`). */
  columnsRead: Set<string>;
}

export interface UnnestBinding {
  entry: number;
  alias: string | null;
  slot: number;
  offsetAlias: string | null;
  offsetSlot: number | null;
  /** The table group it iterates: references to the group by path mean this element too. */
  group: GroupBinding | null;
  /** The element's fields when elements are records (lower-case key → field). */
  elementFields: Map<string, FieldDef> | null;
  elementType: ValueType;
}

export interface Resolved {
  evaluate: Evaluate;
  type: ValueType;
  array: boolean;
  /** The output column name of a bare reference. */
  name: string;
  /** The groups whose element the value reads. */
  groups: GroupBinding[];
  /** The FROM entries the value depends on. */
  entries: number[];
  /** What it names, equal for two references to the same thing (GROUP BY matching). */
  id: string;
  /** The table field it reads, if it reads one. */
  field?: FieldDef;
  relation?: Relation;
}

function elementKey(field: FieldDef): string {
  return field.record ? field.name.slice(field.record.length + 1) : field.name;
}

export class Scope {
  readonly relations: Relation[] = [];
  readonly unnests: UnnestBinding[] = [];
  /** USING columns: unqualified, they mean the left relation's column. */
  readonly using = new Map<string, Relation>();
  private slotCount = 0;

  constructor(readonly outer: Scope | null) {}

  get slots(): number {
    return this.slotCount;
  }

  allocateSlot(): number {
    return this.slotCount++;
  }

  addRelation(relation: Omit<Relation, "slot" | "groups" | "columnsRead" | "fields">): Relation {
    const fields = new Map<string, FieldDef>();
    for (const field of relation.table?.schema.fields ?? []) fields.set(field.name.toLowerCase(), field);
    const added: Relation = {
      ...relation,
      slot: this.allocateSlot(),
      fields,
      groups: new Map(),
      columnsRead: new Set(),
    };
    this.relations.push(added);
    return added;
  }

  /** The group of a relation's field (created on first use). */
  groupOf(relation: Relation, field: FieldDef, parent: GroupBinding | null): GroupBinding {
    const name = parent ? field.name : (field.record ?? field.name);
    const existing = relation.groups.get(name.toLowerCase());
    if (existing) return existing;
    const record = !parent && field.record !== undefined;
    const key = elementKey(field);
    const group: GroupBinding = {
      name,
      relation,
      parent,
      record,
      slot: this.allocateSlot(),
      state: "existential",
      entry: relation.entry,
      array: parent
        ? (row: Row) => {
            const element = row[parent.slot] as Record<string, unknown> | null;
            return element ? readSourceArray(element[key], field.type) : [];
          }
        : (row: Row) => {
            const source = row[relation.slot] as Record<string, unknown> | null;
            // A record's elements are objects, read field by field later; a repeated value is read now.
            return source ? readSourceArray(source[name], record ? "STRING" : field.type) : [];
          },
    };
    relation.groups.set(name.toLowerCase(), group);
    return group;
  }

  /** What `ref` names, or a SqlFailure in BigQuery's words. `visible` hides FROM entries after it (ON). */
  resolve(ref: ColumnRef, mode: ResolveMode, visible = Number.POSITIVE_INFINITY): Resolved {
    const parts = ref.parts.map((part) => part.toLowerCase());
    const written = ref.parts.join(".");
    const at = ref.span.start;

    for (const unnest of this.unnests) {
      if (unnest.entry > visible) continue;
      if (unnest.offsetAlias === parts[0] && parts.length === 1) {
        const slot = unnest.offsetSlot as number;
        return {
          evaluate: (row) => row[slot],
          type: "INTEGER",
          array: false,
          name: ref.parts[0] as string,
          groups: [],
          entries: [unnest.entry],
          id: `offset:${slot}`,
        };
      }
      if (unnest.alias === parts[0]) return this.resolveInUnnest(unnest, ref, parts.slice(1), mode);
    }

    const qualified = this.qualifiedRelation(parts, visible, at);
    if (qualified) {
      const [relation, rest] = qualified;
      const found = this.resolveInRelation(relation, rest, ref, mode);
      if (found) return found;
      this.refuseRecord(relation, rest, ref);
      throw new SqlFailure(`Unrecognized name: ${written}`, at);
    }

    const usingRelation = parts.length === 1 ? this.using.get(parts[0] as string) : undefined;
    if (usingRelation) {
      const found = this.resolveInRelation(usingRelation, parts, ref, mode);
      if (found) return found;
    }

    const matches: Resolved[] = [];
    for (const relation of this.relations) {
      if (relation.entry > visible) continue;
      const found = this.resolveInRelation(relation, parts, ref, mode);
      if (found) matches.push(found);
    }
    if (matches.length > 1) throw new SqlFailure(`Column name ${written} is ambiguous`, at);
    if (matches[0]) return matches[0];
    for (const relation of this.relations)
      if (relation.entry <= visible) this.refuseRecord(relation, parts, ref);
    if (this.outer?.names(ref)) throw new SqlFailure("correlated subqueries are not supported", at);
    throw new SqlFailure(`Unrecognized name: ${written}`, at);
  }

  /** The repeated record `ref` names (`services`, `a.services`), or null when it names none. */
  findRecord(ref: ColumnRef, visible: number): { relation: Relation; record: string } | null {
    const parts = ref.parts.map((part) => part.toLowerCase());
    const qualified = this.qualifiedRelation(parts, visible, ref.span.start);
    const candidates: [Relation, string][] = qualified
      ? [[qualified[0], qualified[1].join(".")]]
      : this.relations.filter((r) => r.entry <= visible).map((r): [Relation, string] => [r, parts.join(".")]);
    const found = candidates.flatMap(([relation, path]) =>
      (relation.table?.schema.records ?? [])
        .filter((record) => record.toLowerCase() === path)
        .map((record) => ({ relation, record })),
    );
    if (found.length > 1)
      throw new SqlFailure(`Column name ${ref.parts.join(".")} is ambiguous`, ref.span.start);
    return found[0] ?? null;
  }

  /** `ref` as a column of `relation` alone (USING's right side). */
  resolveIn(relation: Relation, ref: ColumnRef, mode: ResolveMode): Resolved | null {
    return this.resolveInRelation(
      relation,
      ref.parts.map((part) => part.toLowerCase()),
      ref,
      mode,
    );
  }

  /** Whether `ref` names something here or further out (used to tell a correlated reference apart). */
  private names(ref: ColumnRef): boolean {
    try {
      this.resolve(ref, "value");
      return true;
    } catch (error) {
      if (!(error instanceof SqlFailure)) throw error;
      return !error.message.startsWith("Unrecognized name");
    }
  }

  private qualifiedRelation(parts: string[], visible: number, at: number): [Relation, string[]] | null {
    for (let k = parts.length - 1; k >= 1; k--) {
      const qualifier = parts.slice(0, k).join(".");
      const found = this.relations.filter((r) => r.entry <= visible && r.qualifiers.includes(qualifier));
      if (found.length > 1) throw new SqlFailure(`Table name ${qualifier} is ambiguous`, at);
      if (found[0]) return [found[0], parts.slice(k)];
    }
    return null;
  }

  private refuseRecord(relation: Relation, parts: string[], ref: ColumnRef): void {
    const path = parts.join(".");
    const inside =
      relation.table?.schema.fields.filter((f) => f.name.toLowerCase().startsWith(`${path}.`)) ?? [];
    if (inside[0]) {
      throw new SqlFailure(
        `Cannot select the record ${ref.parts.join(".")} itself; name its fields, for example ${inside[0].name}`,
        ref.span.start,
      );
    }
  }

  private resolveInUnnest(
    unnest: UnnestBinding,
    ref: ColumnRef,
    rest: string[],
    mode: ResolveMode,
  ): Resolved {
    const groups = unnest.group ? [unnest.group] : [];
    const slot = unnest.slot;
    if (rest.length === 0) {
      if (unnest.elementFields) {
        const example = [...unnest.elementFields.keys()][0] ?? "";
        throw new SqlFailure(
          `Cannot select the record ${ref.parts.join(".")} itself; name its fields, for example ${ref.parts[0]}.${example}`,
          ref.span.start,
        );
      }
      return {
        evaluate: (row) => row[slot],
        type: unnest.elementType,
        array: false,
        name: ref.parts[0] as string,
        groups,
        entries: [unnest.entry],
        id: `element:${slot}`,
      };
    }
    const field = unnest.elementFields?.get(rest.join("."));
    if (!field || !unnest.group)
      throw new SqlFailure(`Unrecognized name: ${ref.parts.join(".")}`, ref.span.start);
    const found = this.resolveInRelation(
      unnest.group.relation,
      field.name.toLowerCase().split("."),
      ref,
      mode,
    ) as Resolved;
    return { ...found, name: elementKey(field).replaceAll(".", "_") };
  }

  private resolveInRelation(
    relation: Relation,
    parts: string[],
    ref: ColumnRef,
    mode: ResolveMode,
  ): Resolved | null {
    const path = parts.join(".");
    const slot = relation.slot;
    if (relation.derived) {
      const index = relation.derived.findIndex((column) => column.name.toLowerCase() === path);
      const column = relation.derived[index];
      if (!column) return null;
      return {
        evaluate: (row) => (row[slot] as unknown[] | null)?.[index] ?? null,
        type: column.type,
        array: column.mode === "REPEATED",
        name: column.name,
        groups: [],
        entries: [relation.entry],
        id: `derived:${slot}:${index}`,
      };
    }
    const field = relation.fields.get(path);
    if (!field) return null;
    const name = field.name.replaceAll(".", "_");
    const type: FieldType = field.type;
    relation.columnsRead.add(field.record ?? field.name);
    const base = {
      type,
      name,
      entries: [relation.entry],
      field,
      relation,
      id: `${mode === "array" ? "array" : "field"}:${slot}:${field.name}`,
    };

    if (!field.record) {
      const column = field.name;
      if (field.mode !== "REPEATED") {
        return {
          ...base,
          array: false,
          groups: [],
          evaluate: (row) => readSourceValue((row[slot] as Record<string, unknown> | null)?.[column], type),
        };
      }
      if (mode === "array") {
        return {
          ...base,
          array: true,
          groups: [],
          evaluate: (row) => readSourceArray((row[slot] as Record<string, unknown> | null)?.[column], type),
        };
      }
      const group = this.groupOf(relation, field, null);
      return {
        ...base,
        array: false,
        groups: [group],
        entries: [group.entry],
        evaluate: (row) => row[group.slot] ?? null,
      };
    }

    const key = elementKey(field);
    const record = field.record;
    if (mode === "array" && field.mode !== "REPEATED") {
      return {
        ...base,
        array: true,
        groups: [],
        evaluate: (row) => {
          const elements = (row[slot] as Record<string, unknown> | null)?.[record];
          return Array.isArray(elements)
            ? elements.map((e) => readSourceValue((e as Record<string, unknown> | null)?.[key], type))
            : [];
        },
      };
    }
    const group = this.groupOf(relation, field, null);
    const read = (row: Row) => (row[group.slot] as Record<string, unknown> | null)?.[key];
    if (field.mode !== "REPEATED") {
      return {
        ...base,
        array: false,
        groups: [group],
        entries: [group.entry],
        evaluate: (row) => readSourceValue(read(row), type),
      };
    }
    if (mode === "condition") {
      const nested = this.groupOf(relation, field, group);
      return {
        ...base,
        array: false,
        groups: [group, nested],
        entries: [group.entry],
        evaluate: (row) => row[nested.slot] ?? null,
      };
    }
    return {
      ...base,
      array: true,
      groups: [group],
      entries: [group.entry],
      evaluate: (row) => readSourceArray(read(row), type),
    };
  }
}
