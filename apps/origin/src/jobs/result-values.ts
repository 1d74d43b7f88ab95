import type { FieldType, SchemaField } from "@scangate/core";
import type { ColumnDefinition } from "../snapshots/catalog";

/**
 * How result values leave the database: as query-page cells (`rows[].f[].v`: a string or
 * null), as JSON export values, and which schema type a result column gets. A column whose
 * name is a snapshot column keeps that column's type and mode; any other column (an alias, an
 * aggregate) gets the type its values have: INTEGER, FLOAT, else STRING.
 */

function hex(bytes: ArrayBuffer | ArrayLike<number>): string {
  const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : Array.from(bytes);
  let out = "";
  for (const byte of view) out += byte.toString(16).padStart(2, "0");
  return out;
}

function isBlob(value: unknown): value is ArrayBuffer | number[] {
  return value instanceof ArrayBuffer || Array.isArray(value);
}

/** The page cell of a value: numbers and timestamps as strings, booleans as "true"/"false". */
export function cellText(value: unknown, definition?: ColumnDefinition): string | null {
  if (value === null || value === undefined) return null;
  if (definition?.type === "BOOLEAN" && definition.mode !== "REPEATED" && (value === 0 || value === 1)) {
    return value === 1 ? "true" : "false";
  }
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean")
    return String(value);
  if (isBlob(value)) return hex(value);
  return JSON.stringify(value);
}

/** The JSON export value: numbers stay numbers, BOOLEAN columns are booleans, REPEATED arrays. */
export function jsonValue(value: unknown, definition?: ColumnDefinition): unknown {
  if (value === null || value === undefined) return null;
  if (definition?.mode === "REPEATED" && typeof value === "string") {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  if (definition?.type === "BOOLEAN" && (value === 0 || value === 1)) return value === 1;
  if (isBlob(value)) return hex(value);
  return value;
}

/** Infers the schema of result columns while rows stream past. */
export class ResultSchema {
  private readonly observed: FieldType[];
  private readonly seen: boolean[];

  constructor(
    readonly columns: readonly string[],
    private readonly definitions: ReadonlyMap<string, ColumnDefinition>,
  ) {
    this.observed = columns.map(() => "INTEGER");
    this.seen = columns.map(() => false);
  }

  definitionOf(index: number): ColumnDefinition | undefined {
    const name = this.columns[index];
    return name === undefined ? undefined : this.definitions.get(name.toLowerCase());
  }

  observe(row: readonly unknown[]): void {
    row.forEach((value, i) => {
      if (value === null || value === undefined) return;
      this.seen[i] = true;
      const current = this.observed[i];
      if (typeof value === "number" && Number.isInteger(value)) return;
      if (typeof value === "number") {
        if (current === "INTEGER") this.observed[i] = "FLOAT";
        return;
      }
      this.observed[i] = "STRING";
    });
  }

  fields(): SchemaField[] {
    return this.columns.map((name, i) => {
      const definition = this.definitionOf(i);
      if (definition)
        return {
          name,
          type: definition.type,
          mode: definition.mode === "REQUIRED" ? "NULLABLE" : definition.mode,
        };
      return { name, type: this.seen[i] ? (this.observed[i] ?? "STRING") : "STRING", mode: "NULLABLE" };
    });
  }
}
