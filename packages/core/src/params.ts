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

/**
 * A boolean query parameter. Python's requests sends `True`/`False` (the official client's
 * `reversed=True`); `true`/`false` and `1`/`0` are taken too, in any case.
 */
export const booleanParamSchema = z
  .union([
    z.boolean(),
    z
      .string()
      .trim()
      .toLowerCase()
      .refine((value) => ["true", "false", "1", "0"].includes(value), "expected true or false")
      .transform((value) => value === "true" || value === "1"),
  ])
  .pipe(z.boolean());
