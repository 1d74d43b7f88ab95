import {
  ApiError,
  cacheIndexSchema,
  cachePurgeResultSchema,
  documentIdSchema,
  ipAddressSchema,
  normalizeDocumentId,
  PLATFORM_CACHE_INDEXES,
  type PlatformCacheIndex,
  sha256FingerprintSchema,
  V1_INDEXES,
  type V1Index,
} from "@scangate/core";
import { defineAdminRoute } from "../../pipeline/define-route";
import type { DocumentIndex } from "../../cache/interface";
import { component } from "../../openapi/components";
import { type AssetKind, CERTIFICATE, CERTIFICATE_PEM, HOST, WEBPROPERTY } from "../v3/asset-kinds";

const isV1Index = (index: string): index is V1Index => (V1_INDEXES as readonly string[]).includes(index);

/** The Platform (/v3) indexes and how each keys its ids (routes/v3/asset-kinds.ts). */
const PLATFORM_KINDS: Record<PlatformCacheIndex, AssetKind> = {
  v3_host: HOST,
  v3_certificate: CERTIFICATE,
  v3_certificate_pem: CERTIFICATE_PEM,
  v3_webproperty: WEBPROPERTY,
};

/** The index and key of the document to purge, as the routes store it; a 400 for what names none. */
function purgeTarget(named: string, raw: string): { index: DocumentIndex; id: string } {
  const kind = Object.hasOwn(PLATFORM_KINDS, named) ? PLATFORM_KINDS[named as PlatformCacheIndex] : null;
  if (kind) {
    const id = kind.key(raw);
    if (id === null) throw new ApiError("bad_request", `id: not a valid ${named} id`);
    return { index: kind.index, id };
  }
  const index = cacheIndexSchema.safeParse(named);
  if (!index.success) {
    const known = [...cacheIndexSchema.options, ...PLATFORM_CACHE_INDEXES];
    throw new ApiError("bad_request", `index: one of ${known.join(", ")}`);
  }
  if (isV1Index(index.data) && !documentIdSchema(index.data).safeParse(raw).success) {
    throw new ApiError("bad_request", `id: not a valid ${index.data} id`);
  }
  if ((index.data === "hosts" || index.data === "host_names") && !ipAddressSchema.safeParse(raw).success) {
    throw new ApiError("bad_request", "id: not an IP address");
  }
  if (index.data === "certificate_hosts" && !sha256FingerprintSchema.safeParse(raw).success) {
    throw new ApiError("bad_request", "id: not a SHA-256 fingerprint");
  }
  return {
    index: index.data,
    id: isV1Index(index.data) ? normalizeDocumentId(index.data, raw) : raw.toLowerCase(),
  };
}

/**
 * DELETE /admin/cache/:index/:id: drops one document (for hosts: every point in time of it; for
 * a host's names or a certificate's hosts: every page of the list). The Platform's documents
 * are the `v3_*` indexes (a v3 host at every `at_time`, a certificate, its PEM form, a web property).
 */
export const purgeCacheRoute = defineAdminRoute({
  method: "DELETE",
  path: "/admin/cache/:index/:id",
  summary: "Purge one cached document",
  ok: component("CachePurgeResult", cachePurgeResultSchema),
  handler: async (c) => {
    const { index, id } = purgeTarget(c.req.param("index") ?? "", c.req.param("id") ?? "");
    const { cache, audit } = c.get("services");
    const deleted = await cache.purge(index, id);
    await audit.record({
      actor: "admin",
      action: "cache.purge",
      tenantId: null,
      before: { index, id },
      after: { deleted },
    });
    return c.json({ deleted });
  },
});
