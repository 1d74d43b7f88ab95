import {
  hostNamesQuerySchema,
  hostNamesResultSchema,
  hostViewParamsSchema,
  v2Envelope,
} from "@scangate/core";
import { serveCachedDocument } from "../../pipeline/cached-document";
import { defineRoute } from "../../pipeline/define-route";
import { chargedRelay, upstreamPath } from "../../pipeline/exchange";
import { pageVariant } from "../../pipeline/page-key";
import { renderedError } from "../../http/errors";
import { component } from "../../openapi/components";
import { HOST_NAMES_PRICE } from "../../upstream/legacy-credits";
import { relayedResponse } from "../../upstream/relay";

/**
 * GET /api/v2/hosts/{ip}/names (`view_host_names`) through the shared cache: one row per host
 * and page (`per_page`, `cursor`), kept for the host names TTL. A bad IP or any other query is
 * forwarded uncached for the upstream's own answer; unknown hosts are not cached.
 */
export const hostNamesRoute = defineRoute({
  method: "GET",
  path: "/api/v2/hosts/:ip/names",
  operation: "host_names",
  api: "v2",
  price: HOST_NAMES_PRICE,
  cache: { kind: "document", ttl: "per_index" },
  summary: "The names a host answers for, a page at a time (cached)",
  query: hostNamesQuerySchema,
  ok: component("HostNamesResponse", v2Envelope(hostNamesResultSchema)),
  handler: async (c) => {
    const ip = hostViewParamsSchema.safeParse({ ip: c.req.param("ip") });
    const page = pageVariant(c.req.url, hostNamesQuerySchema);
    if (!ip.success || page === null) {
      return relayedResponse(await chargedRelay(c, { method: "GET", path: upstreamPath(c) }));
    }
    return serveCachedDocument(c, {
      key: { index: "host_names", id: ip.data.ip.toLowerCase(), atTime: page },
      path: upstreamPath(c),
      ttlSeconds: c.get("services").config.cache.ttlSeconds.host_names,
      negativeBody: null,
      negativeResponse: (ctx) => renderedError(ctx, "not_found", "v2"),
    });
  },
});
