import { normalizeDocumentId, renderErrorBody, viewParamsSchema } from "@scangate/core";
import type { Hono } from "hono";
import type { AppEnv } from "../../app-env";
import { UNKNOWN_CERTIFICATE_ENTRY } from "../../cache/bulk-merge";
import { renderedError } from "../../http/errors";
import { relayedResponse } from "../../upstream/relay";
import { serveCachedDocument } from "./cached-document";
import { beginOperation, chargedRelay, upstreamPath } from "./exchange";

/**
 * GET /api/v1/view/:index/:id through the shared cache. A certificate row is the same one bulk
 * reads and writes. Ids that do not fit their index, or extra query parameters, are forwarded
 * uncached so the upstream gives its own answer.
 */
export function registerViewRoute(app: Hono<AppEnv>): void {
  app.get("/api/v1/view/:index/:id", async (c) => {
    beginOperation(c, "view");
    const params = viewParamsSchema.safeParse(c.req.param());
    if (!params.success || new URL(c.req.url).search !== "") {
      return relayedResponse(await chargedRelay(c, "view", { method: "GET", path: upstreamPath(c) }));
    }
    const { index, id } = params.data;
    return serveCachedDocument(c, {
      operation: "view",
      key: { index, id: normalizeDocumentId(index, id), atTime: "" },
      path: upstreamPath(c),
      ttlSeconds: c.get("services").config.cache.ttlSeconds[index],
      negativeBody: JSON.stringify(
        index === "certificates" ? UNKNOWN_CERTIFICATE_ENTRY : renderErrorBody("not_found", "v1"),
      ),
      negativeResponse: (ctx) => renderedError(ctx, "not_found", "v1"),
    });
  });
}
