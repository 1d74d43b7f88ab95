import type { FieldMode, FieldType, QueryResultRow, SchemaField } from "@scangate/core";

/**
 * A query-result cell typed by its schema field. The wire carries every value as a string
 * (or null); the client converts: STRING → string, INTEGER → number (bigint beyond 2^53),
 * FLOAT → number, BOOLEAN → boolean, TIMESTAMP → Date, REPEATED → an array of those.
 * A value that does not read as its type stays the string it was, so nothing is lost.
 */
export type CellValue = string | number | bigint | boolean | Date | null | CellValue[];
export type TypedRow = Record<string, CellValue>;

export function typeRow(fields: readonly SchemaField[], row: QueryResultRow): TypedRow {
  const typed: TypedRow = {};
  fields.forEach((field, i) => {
    typed[field.name] = typeCell(field.type, field.mode, row.f[i]?.v ?? null);
  });
  return typed;
}

export function typeCell(type: FieldType, mode: FieldMode, value: string | null): CellValue {
  if (value === null) return null;
  if (mode === "REPEATED") {
    const items = parseJsonArray(value);
    if (items)
      return items.map((item) =>
        item === null ? null : typeScalar(type, typeof item === "string" ? item : JSON.stringify(item)),
      );
  }
  return typeScalar(type, value);
}

function typeScalar(type: FieldType, value: string): CellValue {
  switch (type) {
    case "STRING":
      return value;
    case "INTEGER":
      return parseInteger(value);
    case "FLOAT": {
      const n = Number(value);
      return value.trim() === "" || (Number.isNaN(n) && value !== "NaN") ? value : n;
    }
    case "BOOLEAN":
      return parseBoolean(value);
    case "TIMESTAMP":
      return parseTimestamp(value);
  }
}

function parseInteger(value: string): number | bigint | string {
  if (!/^[+-]?\d+$/.test(value.trim())) return value;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : BigInt(value.trim());
}

function parseBoolean(value: string): boolean | string {
  const lower = value.trim().toLowerCase();
  if (lower === "true" || lower === "1") return true;
  if (lower === "false" || lower === "0") return false;
  return value;
}

/**
 * Timestamps arrive as epoch seconds (`"1.7E9"`, as BigQuery sends them), as
 * `YYYY-MM-DD hh:mm:ss[.f] [UTC]` (UTC), or as ISO 8601.
 */
function parseTimestamp(value: string): Date | string {
  const text = value.trim();
  if (/^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return new Date(Number(text) * 1000);
  const spaced = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(?: ?UTC)?$/.exec(text);
  const ms = spaced ? Date.parse(`${spaced[1]}T${spaced[2]}Z`) : Date.parse(text);
  return Number.isNaN(ms) ? value : new Date(ms);
}

function parseJsonArray(value: string): unknown[] | undefined {
  if (!value.trimStart().startsWith("[")) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
