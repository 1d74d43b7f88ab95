/**
 * Values as the engine holds them, and BigQuery's rules for comparing, hashing and converting
 * them.
 *
 * Inside the engine a value is a JS primitive: STRING string, INTEGER and FLOAT number, BOOLEAN
 * boolean, NULL null, TIMESTAMP a number of epoch milliseconds (so comparisons are numeric), and
 * an array value (a REPEATED field not flattened, SPLIT's result) a JS array. The static type of
 * an expression says how to render its value; values themselves carry no type tag.
 */
import type { FieldType } from "./source";
import { SqlRunError } from "./run-error";

/** A static type: a column's type, NULL for the NULL literal, ANY where the planner cannot tell. */
export type ValueType = FieldType | "NULL" | "ANY";

export interface TypeInfo {
  type: ValueType;
  /** True for an array value (REPEATED output). */
  array: boolean;
}

/** BigQuery's name of a type in error messages (`INT64`, `ARRAY<STRING>`). */
export function typeName(info: TypeInfo): string {
  const names: Record<ValueType, string> = {
    STRING: "STRING",
    INTEGER: "INT64",
    FLOAT: "FLOAT64",
    BOOLEAN: "BOOL",
    TIMESTAMP: "TIMESTAMP",
    NULL: "INT64",
    ANY: "ANY",
  };
  return info.array ? `ARRAY<${names[info.type]}>` : names[info.type];
}

export function isNumeric(type: ValueType): boolean {
  return type === "INTEGER" || type === "FLOAT";
}

/** Whether two static types may be compared (`=`, `<`, IN, BETWEEN) without a cast. */
export function comparable(a: TypeInfo, b: TypeInfo): boolean {
  if (a.array || b.array) return false;
  if (a.type === "NULL" || b.type === "NULL" || a.type === "ANY" || b.type === "ANY") return true;
  if (a.type === b.type) return true;
  if (isNumeric(a.type) && isNumeric(b.type)) return true;
  // Legacy SQL compares a TIMESTAMP with text by reading the text as a timestamp.
  return (a.type === "TIMESTAMP" && b.type === "STRING") || (a.type === "STRING" && b.type === "TIMESTAMP");
}

/** The type both of two values take (CASE branches, COALESCE, UNION columns), or null when none. */
export function commonType(a: ValueType, b: ValueType): ValueType | null {
  if (a === b) return a;
  if (a === "NULL") return b;
  if (b === "NULL") return a;
  if (a === "ANY" || b === "ANY") return "ANY";
  if (isNumeric(a) && isNumeric(b)) return "FLOAT";
  return null;
}

function kindRank(value: unknown): number {
  switch (typeof value) {
    case "boolean":
      return 0;
    case "number":
      return 1;
    case "string":
      return 2;
    default:
      return 3;
  }
}

/** Orders two non-null values of one type (mixed kinds, which the planner keeps apart, order by kind). */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "boolean" && typeof b === "boolean") return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareNullable(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  return kindRank(a) - kindRank(b);
}

/** compareValues with NULL lowest. */
export function compareNullable(a: unknown, b: unknown): number {
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : -1;
  if (b === null || b === undefined) return 1;
  return compareValues(a, b);
}

/** A string that is equal for equal values (GROUP BY, DISTINCT, join keys, IN sets). */
export function valueKey(value: unknown): string {
  if (value === null || value === undefined) return "n";
  switch (typeof value) {
    case "number":
      return `d${value}`;
    case "string":
      return `s${value}`;
    case "boolean":
      return value ? "t" : "f";
    default:
      return Array.isArray(value) ? `a${JSON.stringify(value.map(valueKey))}` : `o${JSON.stringify(value)}`;
  }
}

export function rowKey(values: readonly unknown[]): string {
  if (values.length === 1) return valueKey(values[0]);
  return JSON.stringify(values.map(valueKey));
}

// ---- three-valued logic ----------------------------------------------------------------------

export function truthOf(value: unknown): boolean | null {
  return value === null || value === undefined ? null : value === true;
}

// ---- timestamps ------------------------------------------------------------------------------

const TIMESTAMP_TEXT =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|UTC|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Reads `2026-10-01`, `2026-10-01 12:00:00[.fff]`, RFC 3339 (`...T12:00:00Z`, `+02:00`) as epoch ms. */
export function parseTimestamp(text: string): number | null {
  const m = TIMESTAMP_TEXT.exec(text.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((part) =>
    Number(part ?? 0),
  ) as [number, number, number, number, number, number];
  const millis = Number((m[7] ?? "").padEnd(3, "0").slice(0, 3));
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  let ms = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  if (new Date(ms).getUTCDate() !== day) return null;
  const zone = m[8];
  if (zone && zone.toUpperCase() !== "Z" && zone.toUpperCase() !== "UTC") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0)) * 60_000;
  }
  return ms;
}

export function formatTimestampIso(ms: number): string {
  return new Date(ms).toISOString();
}

/** `2026-10-31 12:00:00[.fff]` followed by `suffix` (`+00` for CAST, ` UTC` for legacy STRING()). */
export function formatTimestampText(ms: number, suffix: string): string {
  const iso = new Date(ms).toISOString();
  const fraction = iso.slice(19, 23) === ".000" ? "" : iso.slice(19, 23);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction}${suffix}`;
}

export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

// ---- reading and writing ---------------------------------------------------------------------

/** A value as a source row holds it, in the engine's form (timestamps read from text). */
export function readSourceValue(raw: unknown, type: FieldType): unknown {
  if (raw === undefined || raw === null) return null;
  if (type === "TIMESTAMP") {
    if (typeof raw === "number") return raw;
    return typeof raw === "string" ? parseTimestamp(raw) : null;
  }
  return raw;
}

export function readSourceArray(raw: unknown, type: FieldType): unknown[] {
  if (!Array.isArray(raw)) return [];
  return type === "TIMESTAMP" ? raw.map((value) => readSourceValue(value, type)) : raw;
}

/** A value as a result row carries it (see `runPlan`). */
export function toOutputValue(value: unknown, type: FieldType): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((element) => toOutputValue(element, type));
  switch (type) {
    case "TIMESTAMP":
      return typeof value === "number" ? formatTimestampIso(value) : value;
    case "STRING":
      return typeof value === "string" ? value : castToString(value, "ANY", " UTC");
    default:
      return value;
  }
}

// ---- casts -----------------------------------------------------------------------------------

export type CastTarget = "STRING" | "INTEGER" | "FLOAT" | "BOOLEAN" | "TIMESTAMP";

const CAST_TARGETS: Record<string, CastTarget> = {
  STRING: "STRING",
  INT64: "INTEGER",
  INTEGER: "INTEGER",
  INT: "INTEGER",
  FLOAT64: "FLOAT",
  FLOAT: "FLOAT",
  NUMERIC: "FLOAT",
  BOOL: "BOOLEAN",
  BOOLEAN: "BOOLEAN",
  TIMESTAMP: "TIMESTAMP",
};

export function castTarget(name: string): CastTarget | null {
  return Object.hasOwn(CAST_TARGETS, name) ? (CAST_TARGETS[name] ?? null) : null;
}

function castToString(value: unknown, from: ValueType, timestampSuffix: string): string {
  if (from === "TIMESTAMP" && typeof value === "number") return formatTimestampText(value, timestampSuffix);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "number") return Number.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
  return String(value);
}

/** BigQuery rounds half away from zero. */
export function roundHalfAway(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x));
}

const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;
const HEX_TEXT = /^\s*([+-]?)0x([0-9a-f]+)\s*$/i;
// One way to read each digit (`\d+\.?\d*` had two), so a long run of digits that is not a
// number fails in linear time instead of backtracking over every split of the run.
const FLOAT_TEXT = /^\s*[+-]?(\d+(\.\d*)?(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|inf|infinity|nan)\s*$/i;

/**
 * `CAST(value AS to)`: the converted value, or undefined when the value has no such form (CAST
 * then fails, SAFE_CAST and the legacy casts give NULL).
 */
export function castValue(value: unknown, from: ValueType, to: CastTarget, timestampSuffix = "+00"): unknown {
  if (value === null || value === undefined) return null;
  switch (to) {
    case "STRING":
      return castToString(value, from, timestampSuffix);
    case "INTEGER":
      if (typeof value === "boolean") return value ? 1 : 0;
      if (typeof value === "number") return Number.isFinite(value) ? roundHalfAway(value) : undefined;
      if (typeof value === "string") {
        if (INTEGER_TEXT.test(value)) return Number(value);
        const hex = HEX_TEXT.exec(value);
        if (hex) return (hex[1] === "-" ? -1 : 1) * Number.parseInt(hex[2] ?? "", 16);
      }
      return undefined;
    case "FLOAT":
      if (typeof value === "number") return value;
      if (typeof value === "boolean") return value ? 1 : 0;
      if (typeof value === "string" && FLOAT_TEXT.test(value)) {
        const text = value
          .trim()
          .toLowerCase()
          .replace(/^([+-]?)inf(inity)?$/, "$1Infinity");
        return text === "nan" ? Number.NaN : Number(text);
      }
      return undefined;
    case "BOOLEAN":
      if (typeof value === "boolean") return value;
      if (typeof value === "number") return value !== 0;
      if (typeof value === "string") {
        const text = value.trim().toLowerCase();
        return text === "true" ? true : text === "false" ? false : undefined;
      }
      return undefined;
    case "TIMESTAMP":
      if (typeof value === "string") return parseTimestamp(value) ?? undefined;
      if (typeof value === "number" && from === "TIMESTAMP") return value;
      return undefined;
  }
}

/** BigQuery's text for a failed CAST. */
export function castFailure(value: unknown, to: CastTarget): SqlRunError {
  const names: Record<CastTarget, string> = {
    STRING: "string",
    INTEGER: "int64",
    FLOAT: "double",
    BOOLEAN: "bool",
    TIMESTAMP: "timestamp",
  };
  return new SqlRunError(`Bad ${names[to]} value: ${String(value)}`);
}
