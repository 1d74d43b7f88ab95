import { createRoute } from "@hono/zod-openapi";
import {
  ApiError,
  certificateDocumentSchema,
  ipv4DocumentSchema,
  v1IndexSchema,
  viewParamsSchema,
  websiteDocumentSchema,
} from "@scangate/core";
import { z } from "zod";
import { defineRoute, jsonResponse, V1_ERRORS } from "../../routing";

/**
 * GET /api/v1/view/{index}/{id}: the stored document. Unknown indexes, unknown ids and ids that
 * cannot name a document of the index (a malformed IP or fingerprint) are all 404 `page not
 * found`, as on the public service. Fingerprints and domains match in any case.
 */
export const view = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v1/view/{index}/{id}",
    request: { params: viewParamsSchema },
    responses: {
      200: jsonResponse(
        z.union([ipv4DocumentSchema, websiteDocumentSchema, certificateDocumentSchema]),
        "The stored document of the index",
      ),
      ...V1_ERRORS,
    },
  }),
  { operation: "view", cost: 1 },
  async (c) => {
    const index = v1IndexSchema.safeParse(c.req.param("index"));
    if (!index.success) throw new ApiError("not_found");
    const document = await c.var.services.dataset.readV1Document(index.data, c.req.param("id"));
    if (document === null) throw new ApiError("not_found");
    return c.json(document as object);
  },
);

export const viewRoutes = [view];
