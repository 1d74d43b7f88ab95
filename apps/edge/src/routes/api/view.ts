import {
  certificateDocumentSchema,
  ipv4DocumentSchema,
  normalizeDocumentId,
  renderErrorBody,
  viewParamsSchema,
  websiteDocumentSchema,
} from "@scangate/core";
import { requestTarget } from "@scangate/core/http";
import { serveCachedDocument } from "../../api/cached-document";
import { defineApiRoute } from "../../api/define-route";
import { chargedRelay, upstreamPath } from "../../api/exchange";
import { UNKNOWN_CERTIFICATE_ENTRY } from "../../cache/bulk-merge";
import { renderedError } from "../../http/errors";
import { relayedResponse } from "../../upstream/relay";
import { z } from "zod";
import { component } from "../../openapi/components";

/**
 * GET /api/v1/view/:index/:id through the shared cache. A certificate row is the same one bulk
 * reads and writes. Ids that do not fit their index, or extra query parameters, are forwarded
 * uncached so the upstream gives its own answer.
 */
export const viewRoute = defineApiRoute({
  method: "GET",
  path: "/api/v1/view/:index/:id",
  operation: "view",
  version: "v1",
  cost: 1,
  cache: { kind: "document", ttl: "per_index" },
  summary: "One document (cached)",
  ok: component(
    "V1Document",
    z.union([ipv4DocumentSchema, websiteDocumentSchema, certificateDocumentSchema]),
  ),
  handler: async (c) => {
    const params = viewParamsSchema.safeParse(c.req.param());
    if (!params.success || requestTarget(c.req.url).search !== "") {
      return relayedResponse(await chargedRelay(c, { method: "GET", path: upstreamPath(c) }));
    }
    const { index, id } = params.data;
    return serveCachedDocument(c, {
      key: { index, id: normalizeDocumentId(index, id), atTime: "" },
      path: upstreamPath(c),
      ttlSeconds: c.get("services").config.cache.ttlSeconds[index],
      negativeBody: JSON.stringify(
        index === "certificates" ? UNKNOWN_CERTIFICATE_ENTRY : renderErrorBody("not_found", "v1"),
      ),
      negativeResponse: (ctx) => renderedError(ctx, "not_found", "v1"),
    });
  },
});
