import {
  hostDocumentSchema,
  hostViewParamsSchema,
  hostViewQuerySchema,
  parseRfc3339Nanos,
  v2Envelope,
} from "@scangate/core";
import { serveCachedDocument } from "../../pipeline/cached-document";
import { defineRoute } from "../../pipeline/define-route";
import { chargedRelay, upstreamPath } from "../../pipeline/exchange";
import { renderedError } from "../../http/errors";
import { relayedResponse } from "../../upstream/relay";
import { component } from "../../openapi/components";
import { HOST_VIEW_PRICE } from "../../upstream/legacy-credits";

/**
 * GET /api/v2/hosts/{ip}[?at_time=...] through the shared cache. A host at a past point in time
 * never changes, so that row never expires; equal instants spelled differently share a row.
 * Anything the cache key cannot describe (a bad ip or time, other parameters) is forwarded as is.
 */
export const hostViewRoute = defineRoute({
  method: "GET",
  // Any segment: `aggregate` and `search` are registered first and answer their own paths, and
  // an ip the upstream refuses (`not-an-ip`) gets the upstream's own 422, as at the origin.
  path: "/api/v2/hosts/:ip",
  operation: "host_view",
  api: "v2",
  price: HOST_VIEW_PRICE,
  cache: { kind: "document", ttl: "hosts" },
  summary: "One host, optionally at a point in time (cached)",
  query: hostViewQuerySchema,
  ok: component("HostResponse", v2Envelope(hostDocumentSchema)),
  handler: async (c) => {
    const ip = hostViewParamsSchema.safeParse({ ip: c.req.param("ip") });
    const query = new URL(c.req.url).searchParams;
    const atTimeValues = query.getAll("at_time");
    const atTime = atTimeValues.length === 1 ? parseRfc3339Nanos(atTimeValues[0] ?? "") : null;
    const cacheable =
      ip.success &&
      [...query.keys()].every((key) => key === "at_time") &&
      (atTimeValues.length === 0 || atTime !== null);
    if (!ip.success || !cacheable) {
      return relayedResponse(await chargedRelay(c, { method: "GET", path: upstreamPath(c) }));
    }
    const services = c.get("services");
    const pastInstant = atTime !== null && atTime.ms <= services.clock.now();
    return serveCachedDocument(c, {
      key: { index: "hosts", id: ip.data.ip.toLowerCase(), atTime: atTime?.nanos ?? "" },
      path: upstreamPath(c),
      ttlSeconds: pastInstant ? null : services.config.cache.ttlSeconds.hosts,
      negativeBody: null,
      negativeResponse: (ctx) => renderedError(ctx, "not_found", "v2"),
    });
  },
});
