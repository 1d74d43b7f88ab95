import { z } from "zod";
import { CURSOR_MAX_CHARS } from "../limits";
import { rfc3339Schema } from "../formats";
import { V3_PAGE_SIZE_MAX } from "./limits";

/**
 * Query parameters as the SDK encodes them (`encodeFormQuery`, `explode: false`): numbers and
 * booleans in decimal and `true`/`false`, dates as `toISOString()`, arrays as one parameter of
 * comma-separated items (`record_types=A%2CAAAA`).
 */

/** `page_size`: 1..100 in decimal. */
export const v3PageSizeQuerySchema = z
  .string()
  .regex(/^\d{1,4}$/, "expected an integer")
  .transform(Number)
  .pipe(z.number().int().min(1).max(V3_PAGE_SIZE_MAX));

/** `page_token`: an opaque token from the previous page (empty: the first page). */
export const v3PageTokenQuerySchema = z.string().max(CURSOR_MAX_CHARS);

/** The paging parameters every list takes. */
export const v3PagingQuerySchema = z.object({
  page_size: v3PageSizeQuerySchema.optional(),
  page_token: v3PageTokenQuerySchema.optional(),
});

/** A port, 1..65535 in decimal. */
export const v3PortQuerySchema = z
  .string()
  .regex(/^\d{1,5}$/, "expected a port number")
  .transform(Number)
  .pipe(z.number().int().min(1).max(65535));

/** An RFC 3339 instant. */
export const v3TimeQuerySchema = rfc3339Schema;

/** Comma-separated items of `values`, each once, in the order given. */
export function v3ListQuerySchema<const T extends readonly [string, ...string[]]>(values: T) {
  const item = z.enum(values);
  return z
    .string()
    .transform((text) => (text === "" ? [] : text.split(",").map((s) => s.trim())))
    .pipe(z.array(item).max(values.length * 4))
    .transform((items) => [...new Set(items)]);
}

/** `true` or `false`. */
export const v3BooleanQuerySchema = z.enum(["true", "false"]).transform((text) => text === "true");
