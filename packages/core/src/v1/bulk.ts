import { z } from "zod";
import { bulkUnknownCertificateSchema } from "../errors";
import { sha256FingerprintSchema } from "../indexes";
import { BULK_MAX_FINGERPRINTS } from "../limits";
import { certificateDocumentSchema } from "./certificate";

// POST /api/v1/bulk/:index (index must be certificates).

export const bulkParamsSchema = z.object({ index: z.literal("certificates") });
export type BulkParams = z.infer<typeof bulkParamsSchema>;

export const bulkBodySchema = z.object({
  fingerprints: z
    .array(sha256FingerprintSchema)
    .min(1, "at least one fingerprint is required")
    .max(BULK_MAX_FINGERPRINTS, `at most ${BULK_MAX_FINGERPRINTS} fingerprints per request`),
});
export type BulkBody = z.infer<typeof bulkBodySchema>;

export const bulkEntrySchema = z.union([bulkUnknownCertificateSchema, certificateDocumentSchema]);
export type BulkEntry = z.infer<typeof bulkEntrySchema>;

/** One key per requested fingerprint, spelled as requested. */
export const bulkResponseSchema = z.record(z.string(), bulkEntrySchema);
export type BulkResponse = z.infer<typeof bulkResponseSchema>;
