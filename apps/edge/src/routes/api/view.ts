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
import { BoundedMemo } from "../../http/bounded-memo";
import { renderedError } from "../../http/errors";
import { CERTIFICATE_VIEW_CREDITS } from "../../upstream/legacy-credits";
import { relayedResponse } from "../../upstream/relay";
import { z } from "zod";
import { component } from "../../openapi/components";

/**
 * The view's parameters by path, parsed once while remembered: a team's clients ask for the same
 * documents over and over, and the parse depends on the path alone (paths up to 256 characters,
 * far longer than any id of an index).
 */
const parsedPaths = new BoundedMemo<ReturnType<typeof viewParamsSchema.safeParse>>(1024, 256);

/**
 * GET /api/v1/view/:index/:id through the shared cache. A certificate row is the same one bulk
 * reads and writes. Ids that do not fit their index, or extra query parameters, are forwarded
 * uncached so the upstream gives its own answer. A view costs 1; a certificate's costs
 * CERTIFICATE_VIEW_CREDITS with a Platform-only upstream (upstream/legacy-credits.ts).
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
    const params =
      parsedPaths.get(c.req.path) ??
      parsedPaths.remember(c.req.path, viewParamsSchema.safeParse(c.req.param()));
    if (!params.success || requestTarget(c.req.url).search !== "") {
      return relayedResponse(await chargedRelay(c, { method: "GET", path: upstreamPath(c) }));
    }
    const { index, id } = params.data;
    // With a Platform-only upstream a certificate costs what its two Platform calls cost.
    const platformCertificate =
      index === "certificates" && c.get("services").config.upstreamApi === "platform";
    if (platformCertificate) c.set("cost", CERTIFICATE_VIEW_CREDITS);
    return serveCachedDocument(c, {
      ...(platformCertificate ? { savedCredits: CERTIFICATE_VIEW_CREDITS } : {}),
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
