import { createRoute } from "@hono/zod-openapi";
import {
  ApiError,
  bulkBodySchema,
  bulkLookupIds,
  bulkParamsSchema,
  bulkResponseSchema,
  type BulkResponse,
  type BulkUnknownCertificate,
  type CertificateDocument,
} from "@scangate/core";
import { parseInput, readJsonBody } from "../../http/validation";
import { defineRoute, jsonBody, jsonResponse, V1_ERRORS } from "../../routing";

function unknownCertificate(fingerprint: string): BulkUnknownCertificate {
  return { error: `certificate ${fingerprint} not found`, error_type: "unknown", status: "error" };
}

/**
 * POST /api/v1/bulk/{index}: up to 50 certificates by SHA-256. Every requested fingerprint is a
 * key of the answer, spelled as requested; unknown ones carry a per-key error object, and so do
 * strings that are not SHA-256 fingerprints (never looked up).
 */
export const bulk = defineRoute(
  createRoute({
    method: "post",
    path: "/api/v1/bulk/{index}",
    request: { params: bulkParamsSchema, body: jsonBody(bulkBodySchema) },
    responses: { 200: jsonResponse(bulkResponseSchema, "Each fingerprint's certificate"), ...V1_ERRORS },
  }),
  // One unit per request, not per fingerprint.
  { operation: "bulk", cost: 1 },
  async (c) => {
    if (!bulkParamsSchema.safeParse({ index: c.req.param("index") }).success) throw new ApiError("not_found");
    const { fingerprints } = parseInput(bulkBodySchema, await readJsonBody(c));
    const found = await c.var.services.dataset.readCertificates(bulkLookupIds(fingerprints));
    const entry = (fingerprint: string) => {
      const document = found.get(fingerprint.toLowerCase());
      return document ? (document as CertificateDocument) : unknownCertificate(fingerprint);
    };
    // Keys made as data properties: any string may be asked for, `__proto__` too.
    const body: BulkResponse = Object.fromEntries(fingerprints.map((fp) => [fp, entry(fp)]));
    return c.json(body);
  },
);

export const bulkRoutes = [bulk];
