import type { FieldType, SourceRow } from "../source";
import type { Json, SeriesDefinition } from "./definitions";

/**
 * A series row in the engine's form (`SourceRow`) from the source a definition reads: every
 * top-level field under its full name, every repeated record under its name as a list of
 * element objects. The origin stores its snapshot tables with the same value rules; an edge
 * builds rows straight from documents with `seriesRow`.
 */

/** A value in SourceRow form for a field of `type`, or null when it has none of that type. */
export function sourceValue(value: unknown, type: FieldType): string | number | boolean | null {
  switch (type) {
    case "STRING":
      return typeof value === "string" ? value : null;
    case "INTEGER":
      return typeof value === "number" && Number.isSafeInteger(value) ? value : null;
    case "FLOAT":
      return typeof value === "number" && Number.isFinite(value) ? value : null;
    case "BOOLEAN":
      return typeof value === "boolean" ? value : null;
    case "TIMESTAMP": {
      if (typeof value !== "string") return null;
      const date = new Date(value);
      return Number.isNaN(date.getTime()) ? null : date.toISOString();
    }
  }
}

/** A REPEATED value in SourceRow form: an array of the values of the type (others dropped). */
export function sourceList(value: unknown, type: FieldType): (string | number | boolean)[] {
  const items = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
  return items.map((item) => sourceValue(item, type)).filter((item) => item !== null);
}

/** The element objects of each record of `definition` for one source. */
export function recordElements<S>(definition: SeriesDefinition<S>, source: S): Json[][] {
  return definition.records.map((record) =>
    record.elements(source).map((element) => {
      const out: Json = {};
      for (const field of record.fields) {
        const raw = field.read(element, source);
        if (field.mode === "REPEATED") out[field.key] = sourceList(raw, field.type);
        else {
          const value = sourceValue(raw, field.type);
          if (value !== null) out[field.key] = value;
        }
      }
      return out;
    }),
  );
}

/** The row of one source. */
export function seriesRow<S>(definition: SeriesDefinition<S>, source: S): SourceRow {
  const row: SourceRow = {};
  for (const field of definition.fields) {
    const raw = field.read(source);
    row[field.name] = field.mode === "REPEATED" ? sourceList(raw, field.type) : sourceValue(raw, field.type);
  }
  const elements = recordElements(definition, source);
  definition.records.forEach((record, i) => {
    row[record.name] = elements[i] ?? [];
  });
  return row;
}
