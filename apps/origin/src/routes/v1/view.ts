import { ApiError, v1IndexSchema } from "@scangate/core";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { chargeQuota } from "../../http/quota";

/**
 * GET /api/v1/view/:index/:id: the stored document. Unknown indexes, unknown ids and ids that
 * cannot name a document of the index (a malformed IP or fingerprint) are all 404 `page not
 * found`, as on the public service. Fingerprints and domains match in any case.
 */
export function registerView(app: Hono<AppEnv>): void {
  app.get("/api/v1/view/:index/:id", chargeQuota("view"), async (c) => {
    const index = v1IndexSchema.safeParse(c.req.param("index"));
    if (!index.success) throw new ApiError("not_found");
    const document = await c.var.services.dataset.readV1Document(index.data, c.req.param("id"));
    if (document === null) throw new ApiError("not_found");
    return c.json(document as object);
  });
}
