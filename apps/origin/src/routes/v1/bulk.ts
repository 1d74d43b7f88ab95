import {
  ApiError,
  bulkBodySchema,
  bulkParamsSchema,
  type BulkResponse,
  type BulkUnknownCertificate,
  type CertificateDocument,
} from "@scangate/core";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { chargeQuota } from "../../http/quota";
import { parseInput, readJsonBody } from "../../http/validation";

function unknownCertificate(fingerprint: string): BulkUnknownCertificate {
  return { error: `certificate ${fingerprint} not found`, error_type: "unknown", status: "error" };
}

/**
 * POST /api/v1/bulk/:index: up to 50 certificates by SHA-256. Every requested fingerprint is a
 * key of the answer, spelled as requested; unknown ones carry a per-key error object.
 */
export function registerBulk(app: Hono<AppEnv>): void {
  app.post("/api/v1/bulk/:index", chargeQuota("bulk"), async (c) => {
    if (!bulkParamsSchema.safeParse({ index: c.req.param("index") }).success) throw new ApiError("not_found");
    const { fingerprints } = parseInput(bulkBodySchema, await readJsonBody(c));
    const found = await c.var.services.dataset.readCertificates(fingerprints);
    const body: BulkResponse = {};
    for (const fingerprint of fingerprints) {
      const document = found.get(fingerprint.toLowerCase());
      body[fingerprint] = document ? (document as CertificateDocument) : unknownCertificate(fingerprint);
    }
    return c.json(body);
  });
}
