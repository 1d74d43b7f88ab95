/**
 * Readers of the Platform's documents for the legacy mappings (`legacy-*.ts`). The documents
 * are open JSON whose every member may be missing or of another type, so each reader answers
 * `undefined` (or an empty object or list) rather than throwing: a mapping keeps what it can
 * read and leaves the rest out.
 */

export type Json = Record<string, unknown>;

export const obj = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
export const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
export const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);
export const bool = (value: unknown): boolean | undefined => (typeof value === "boolean" ? value : undefined);
export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
export const strings = (value: unknown): string[] =>
  list(value).filter((v): v is string => typeof v === "string");

/** Keeps only the members that have a value (JSON leaves `undefined` out anyway; tests compare objects). */
export function defined<T extends Json>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** An instant as v1 documents write it: RFC 3339 to the second (`2026-10-31T12:00:00Z`). */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Epoch ms of a timestamp text, or undefined when it is none. */
export function epochMs(text: string | undefined): number | undefined {
  const ms = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
