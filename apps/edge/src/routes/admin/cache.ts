import {
  ApiError,
  cacheIndexSchema,
  cachePurgeResultSchema,
  documentIdSchema,
  ipAddressSchema,
  normalizeDocumentId,
  sha256FingerprintSchema,
  V1_INDEXES,
  type V1Index,
} from "@scangate/core";
import { defineAdminRoute } from "../../api/define-route";
import { component } from "../../openapi/components";

const isV1Index = (index: string): index is V1Index => (V1_INDEXES as readonly string[]).includes(index);

/**
 * DELETE /admin/cache/:index/:id: drops one document (for hosts: every point in time of it; for
 * a host's names or a certificate's hosts: every page of the list).
 */
export const purgeCacheRoute = defineAdminRoute({
  method: "DELETE",
  path: "/admin/cache/:index/:id",
  summary: "Purge one cached document",
  ok: component("CachePurgeResult", cachePurgeResultSchema),
  handler: async (c) => {
    const index = cacheIndexSchema.safeParse(c.req.param("index"));
    if (!index.success) {
      throw new ApiError("bad_request", `index: one of ${cacheIndexSchema.options.join(", ")}`);
    }
    const raw = c.req.param("id") ?? "";
    if (isV1Index(index.data) && !documentIdSchema(index.data).safeParse(raw).success) {
      throw new ApiError("bad_request", `id: not a valid ${index.data} id`);
    }
    if ((index.data === "hosts" || index.data === "host_names") && !ipAddressSchema.safeParse(raw).success) {
      throw new ApiError("bad_request", "id: not an IP address");
    }
    if (index.data === "certificate_hosts" && !sha256FingerprintSchema.safeParse(raw).success) {
      throw new ApiError("bad_request", "id: not a SHA-256 fingerprint");
    }
    const id = isV1Index(index.data) ? normalizeDocumentId(index.data, raw) : raw.toLowerCase();
    const { cache, audit } = c.get("services");
    const deleted = await cache.purge(index.data, id);
    await audit.record({
      actor: "admin",
      action: "cache.purge",
      tenantId: null,
      before: { index: index.data, id },
      after: { deleted },
    });
    return c.json({ deleted });
  },
});
