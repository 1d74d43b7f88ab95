import { z } from "zod";

/**
 * Text rules of the Platform's own records (tags, comments, collections): text must be
 * well-formed Unicode, and names compare as people read them.
 *
 * A JSON string may carry a lone surrogate (`"\ud800"` parses), but D1 stores U+FFFD in its
 * place, so two different names would be kept as one and a comment would come back changed:
 * such text is refused. Names are unique per organization after NFC normalisation and
 * lowercasing (a composed and a decomposed accent, or two cases, are one name).
 */

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isWellFormedV3Text(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/**
 * The path of the first string (or key) of a parsed JSON value holding a lone surrogate, as
 * the Platform names inputs (`body.name`, `body.field_value_pairs[2].value`), or null.
 */
export function loneSurrogatePath(value: unknown, at = "body"): string | null {
  if (typeof value === "string") return isWellFormedV3Text(value) ? null : at;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = loneSurrogatePath(item, `${at}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (!isWellFormedV3Text(key)) return at;
      const found = loneSurrogatePath(item, `${at}.${key}`);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * The form names are compared in: NFC, lowercased, then NFC again (lowercasing `İ` gives `i`
 * and a combining dot, which must compare as any other spelling of it).
 */
export function v3NameKey(name: string): string {
  return name.normalize("NFC").toLowerCase().normalize("NFC");
}

/** A name: not blank, at most `max` characters (UTF-16 code units, as the SDK's strings count). */
export function v3NameSchema(max: number) {
  return z
    .string()
    .max(max, `at most ${max} characters`)
    .refine((text) => text.trim() !== "", "must not be blank");
}
