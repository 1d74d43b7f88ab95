import { z } from "zod";

/**
 * An integer that may arrive as a query-string or path segment ("42") or as a JSON number.
 * Unlike z.coerce, "" and "1.5" are rejected instead of becoming 0 or 1.5.
 */
export function integerParam(min: number, max: number = Number.MAX_SAFE_INTEGER) {
  return z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^[+-]?\d+$/, "expected an integer")
        .transform(Number),
    ])
    .pipe(z.number().int().min(min).max(max));
}

/** A query parameter that may repeat (`?fields=a&fields=b`) or carry a comma list (`a,b`). */
export const stringListParamSchema = z.union([z.string(), z.array(z.string())]).transform((value) =>
  (Array.isArray(value) ? value : [value])
    .flatMap((item) => item.split(","))
    .map((item) => item.trim())
    .filter((item) => item.length > 0),
);
