import {
  certificateHostsParamsSchema,
  certificateHostsQuerySchema,
  certificateHostsResultSchema,
  v2Envelope,
} from "@scangate/core";
import { serveCachedDocument } from "../../pipeline/cached-document";
import { defineRoute } from "../../pipeline/define-route";
import { chargedRelay, upstreamPath } from "../../pipeline/exchange";
import { pageVariant } from "../../pipeline/page-key";
import { renderedError } from "../../http/errors";
import { component } from "../../openapi/components";
import { CERTIFICATE_HOSTS_PRICE } from "../../upstream/legacy-credits";
import { relayedResponse } from "../../upstream/relay";

/**
 * GET /api/v2/certificates/{sha256}/hosts (`CensysCerts.get_hosts_by_cert`) through the shared
 * cache: one row per certificate and page, for the certificate hosts TTL (hosts come and go, so
 * not the certificates' week). A malformed fingerprint or any other query is forwarded uncached.
 */
export const certificateHostsRoute = defineRoute({
  method: "GET",
  path: "/api/v2/certificates/:sha256/hosts",
  operation: "certificate_hosts",
  api: "v2",
  price: CERTIFICATE_HOSTS_PRICE,
  cache: { kind: "document", ttl: "per_index" },
  summary: "The hosts presenting a certificate, a page at a time (cached)",
  query: certificateHostsQuerySchema,
  ok: component("CertificateHostsResponse", v2Envelope(certificateHostsResultSchema)),
  handler: async (c) => {
    const params = certificateHostsParamsSchema.safeParse({ sha256: c.req.param("sha256") });
    const page = pageVariant(c.req.url, certificateHostsQuerySchema);
    if (!params.success || page === null) {
      return relayedResponse(await chargedRelay(c, { method: "GET", path: upstreamPath(c) }));
    }
    return serveCachedDocument(c, {
      key: { index: "certificate_hosts", id: params.data.sha256.toLowerCase(), atTime: page },
      path: upstreamPath(c),
      ttlSeconds: c.get("services").config.cache.ttlSeconds.certificate_hosts,
      negativeBody: null,
      negativeResponse: (ctx) => renderedError(ctx, "not_found", "v2"),
    });
  },
});
