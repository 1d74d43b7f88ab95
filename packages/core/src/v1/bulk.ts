import { z } from "zod";
import { bulkUnknownCertificateSchema } from "../errors";
import { isSha256Fingerprint } from "../indexes";
import { isWellFormedText } from "../text";
import { BULK_FINGERPRINT_MAX_CHARS, BULK_MAX_FINGERPRINTS } from "../limits";
import { certificateDocumentSchema } from "./certificate";

// POST /api/v1/bulk/:index (index must be certificates).

export const bulkParamsSchema = z.object({ index: z.literal("certificates") });
export type BulkParams = z.infer<typeof bulkParamsSchema>;

/**
 * Any string is a fingerprint asked for: one that is not a SHA-256 fingerprint is answered as
 * an unknown certificate (`bulkLookupIds` leaves it out), so one bad string in a batch of 50
 * does not cost the other 49.
 */
export const bulkBodySchema = z.object({
  fingerprints: z
    .array(
      z
        .string({ error: "expected a fingerprint string" })
        .max(BULK_FINGERPRINT_MAX_CHARS, `at most ${BULK_FINGERPRINT_MAX_CHARS} characters per fingerprint`)
        // Keys of the answer: text no UTF-8 answer can hold is refused, as everywhere (text.ts).
        .refine(
          isWellFormedText,
          "holds a lone surrogate (\\ud800-\\udfff unpaired); text must be well-formed Unicode",
        ),
      { error: `expected a list of 1 to ${BULK_MAX_FINGERPRINTS} fingerprints (strings)` },
    )
    // Refinements, not .min()/.max(): zod runs those on anything with a length, so a string in
    // place of the list was "too long" as well. The bounds stay in the JSON Schema (meta).
    .refine((list) => list.length >= 1, "at least one fingerprint is required")
    .refine(
      (list) => list.length <= BULK_MAX_FINGERPRINTS,
      `at most ${BULK_MAX_FINGERPRINTS} fingerprints per request`,
    )
    .meta({ minItems: 1, maxItems: BULK_MAX_FINGERPRINTS }),
});
export type BulkBody = z.infer<typeof bulkBodySchema>;

/**
 * The certificates a bulk request looks up: its well-formed SHA-256 fingerprints in lower case
 * (the cache and dataset key), each once, in first-seen order. The other strings are answered
 * as unknown without a lookup.
 */
export function bulkLookupIds(requested: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const fingerprint of requested) {
    if (isSha256Fingerprint(fingerprint)) ids.add(fingerprint.toLowerCase());
  }
  return [...ids];
}

export const bulkEntrySchema = z.union([bulkUnknownCertificateSchema, certificateDocumentSchema]);
export type BulkEntry = z.infer<typeof bulkEntrySchema>;

/** One key per requested fingerprint, spelled as requested. */
export const bulkResponseSchema = z.record(z.string(), bulkEntrySchema);
export type BulkResponse = z.infer<typeof bulkResponseSchema>;
