import {
  CREDIT_COSTS,
  certificateHostsParamsSchema,
  certificateHostsQuerySchema,
  certificateHostsResultSchema,
  hostDiffQuerySchema,
  hostDiffResultSchema,
  hostDocumentSchema,
  hostEventsQuerySchema,
  hostEventsResultSchema,
  hostNamesQuerySchema,
  hostNamesResultSchema,
  hostsAggregateQuerySchema,
  hostsAggregateResultSchema,
  hostsMetadataResultSchema,
  hostsSearchQuerySchema,
  hostsSearchResultSchema,
  hostViewParamsSchema,
  hostViewQuerySchema,
  parseRfc3339Nanos,
  v2Envelope,
} from "@scangate/core";
import type { z } from "zod";
import { FREE } from "../../pipeline/price";
import type { DocumentKey } from "../../cache/interface";
import { renderedError } from "../../http/errors";
import { component } from "../../openapi/components";
import { serveCachedDocument } from "../../pipeline/cached-document";
import { type ApiContext, type ApiRoute, defineRoute, type RouteSpec } from "../../pipeline/define-route";
import { chargedRelay, onPlatform, talliedRelay, upstreamPath } from "../../pipeline/exchange";
import { forward } from "../../pipeline/forward";
import { pageVariant } from "../../pipeline/page-key";
import { translatedPrice } from "../../pipeline/price";
import { relayedResponse } from "../../upstream/relay";

// The v2 hosts routes and a certificate's hosts. Searches, aggregates, diffs, events and the
// metadata are forwarded as they are; a host and the paged lists go through the shared cache.
// Each costs one query with a legacy upstream, and on a Platform-only one the credits of the
// Platform calls it becomes.

/**
 * `key`'s document through the shared cache, answering 404 for an unknown one; null (anything the
 * key cannot describe) is forwarded uncached for the upstream's own answer.
 */
async function serveCached(c: ApiContext, key: DocumentKey | null, ttlSeconds: number | null) {
  if (key === null) return relayedResponse(await chargedRelay(c, { method: "GET", path: upstreamPath(c) }));
  return serveCachedDocument(c, {
    key,
    path: upstreamPath(c),
    ttlSeconds,
    negativeBody: null,
    negativeResponse: (ctx) => renderedError(ctx, "not_found", "v2"),
  });
}

/** The cache id of the host the path names (its address in lower case), or null for no address. */
function hostIdOf(c: ApiContext): string | null {
  const parsed = hostViewParamsSchema.safeParse({ ip: c.req.param("ip") });
  return parsed.success ? parsed.data.ip.toLowerCase() : null;
}

/**
 * GET /api/v2/hosts/{ip}[?at_time=...] through the shared cache. A host at a past point in time
 * never changes, so that row never expires; equal instants spelled differently share a row.
 * Anything the cache key cannot describe (a bad ip or time, other parameters) is forwarded as is.
 */
async function serveHost(c: ApiContext): Promise<Response> {
  const id = hostIdOf(c);
  const query = new URL(c.req.url).searchParams;
  const atTimeValues = query.getAll("at_time");
  const atTime = atTimeValues.length === 1 ? parseRfc3339Nanos(atTimeValues[0] ?? "") : null;
  const onlyAtTime = [...query.keys()].every((key) => key === "at_time");
  if (id === null || !onlyAtTime || (atTimeValues.length > 0 && atTime === null)) {
    return serveCached(c, null, null);
  }
  const services = c.get("services");
  const pastInstant = atTime !== null && atTime.ms <= services.clock.now();
  return serveCached(
    c,
    { index: "hosts", id, atTime: atTime?.nanos ?? "" },
    pastInstant ? null : services.config.cache.ttlSeconds.hosts,
  );
}

/** A v2 GET route; one without a handler is forwarded as it is. */
function hostsRoute(
  spec: Omit<Parameters<typeof defineRoute>[0], "method" | "handler"> & Partial<Pick<RouteSpec, "handler">>,
): ApiRoute {
  return defineRoute({ method: "GET", handler: forward, ...spec });
}

/**
 * A paged list through the shared cache (`view_host_names`, `CensysCerts.get_hosts_by_cert`):
 * one row per document and page, kept for the list's own TTL (hosts come and go, so not the
 * certificates' week). A malformed id or any other query is forwarded uncached; an unknown
 * document is not cached.
 */
function cachedListRoute(
  spec: Pick<RouteSpec, "path" | "price" | "summary" | "ok"> & {
    operation: "host_names" | "certificate_hosts";
    query: z.ZodObject & z.ZodType<{ per_page: number; cursor?: string | undefined }>;
    /** The document's cache id, or null when the path names none. */
    idOf: (c: ApiContext) => string | null;
  },
): ApiRoute {
  const { operation: index, idOf, ...rest } = spec;
  return hostsRoute({
    ...rest,
    operation: index,
    cache: { kind: "document", ttl: "per_index" },
    handler: async (c) => {
      const id = idOf(c);
      const page = pageVariant(c.req.url, spec.query);
      const key = id === null || page === null ? null : { index, id, atTime: page };
      return serveCached(c, key, c.get("services").config.cache.ttlSeconds[index]);
    },
  });
}

/** In the order the app registers them: `aggregate` and `search` before the host they would match. */
export const HOST_ROUTES: readonly ApiRoute[] = [
  // One Platform aggregate.
  hostsRoute({
    path: "/api/v2/hosts/aggregate",
    operation: "hosts_aggregate",
    price: translatedPrice(CREDIT_COSTS.v3_search_aggregate.credits),
    summary: "Aggregate hosts into buckets",
    query: hostsAggregateQuerySchema,
    ok: component("HostsAggregateResponse", v2Envelope(hostsAggregateResultSchema)),
  }),
  // One Platform search; its cursors are the upstream's.
  hostsRoute({
    path: "/api/v2/hosts/search",
    operation: "hosts_search",
    price: translatedPrice(CREDIT_COSTS.v3_search_query.credits),
    summary: "Search hosts (cursor pagination)",
    query: hostsSearchQuerySchema,
    ok: component("HostsSearchResponse", v2Envelope(hostsSearchResultSchema)),
  }),
  hostsRoute({
    // Any segment: `aggregate` and `search` are registered first and answer their own paths, and
    // an ip the upstream refuses (`not-an-ip`) gets the upstream's own 422, as at the origin.
    path: "/api/v2/hosts/:ip",
    operation: "host_view",
    // The host asset, at a point in time too.
    price: translatedPrice(CREDIT_COSTS.v3_host.credits),
    cache: { kind: "document", ttl: "hosts" },
    summary: "One host, optionally at a point in time (cached)",
    query: hostViewQuerySchema,
    ok: component("HostResponse", v2Envelope(hostDocumentSchema)),
    handler: serveHost,
  }),
  cachedListRoute({
    path: "/api/v2/hosts/:ip/names",
    operation: "host_names",
    // One page of its DNS resolutions.
    price: translatedPrice(CREDIT_COSTS.v3_dns_ip_bounds.credits),
    summary: "The names a host answers for, a page at a time (cached)",
    query: hostNamesQuerySchema,
    ok: component("HostNamesResponse", v2Envelope(hostNamesResultSchema)),
    idOf: hostIdOf,
  }),
  // With a Platform-only upstream, two host lookups: held for both, billed per lookup that answered.
  hostsRoute({
    path: "/api/v2/hosts/:ip/diff",
    operation: "host_diff",
    price: translatedPrice(CREDIT_COSTS.v3_host.credits, "asset"),
    summary: "A host against itself at another time, or against another host (JSON Patch)",
    query: hostDiffQuerySchema,
    ok: component("HostDiffResponse", v2Envelope(hostDiffResultSchema)),
    handler: async (c) =>
      onPlatform(c)
        ? relayedResponse(await talliedRelay(c, { method: "GET", path: upstreamPath(c) }, 2))
        : forward(c),
  }),
  // With a Platform-only upstream, one read of the host's timeline.
  hostsRoute({
    path: "/api/v2/experimental/hosts/:ip/events",
    operation: "host_events",
    price: translatedPrice(CREDIT_COSTS.v3_host_timeline.credits),
    summary: "A host's history as events, a page at a time",
    query: hostEventsQuerySchema,
    ok: component("HostEventsResponse", v2Envelope(hostEventsResultSchema)),
  }),
  cachedListRoute({
    path: "/api/v2/certificates/:sha256/hosts",
    operation: "certificate_hosts",
    // One host search on its fingerprint.
    price: translatedPrice(CREDIT_COSTS.v3_search_query.credits),
    summary: "The hosts presenting a certificate, a page at a time (cached)",
    query: certificateHostsQuerySchema,
    ok: component("CertificateHostsResponse", v2Envelope(certificateHostsResultSchema)),
    idOf: (c) => {
      const parsed = certificateHostsParamsSchema.safeParse({ sha256: c.req.param("sha256") });
      return parsed.success ? parsed.data.sha256.toLowerCase() : null;
    },
  }),
  // Free with a legacy upstream (`CensysHosts.metadata()`); one aggregate of the service names on the Platform.
  hostsRoute({
    path: "/api/v2/metadata/hosts",
    operation: "hosts_metadata",
    price: translatedPrice(CREDIT_COSTS.v3_search_aggregate.credits, "request", FREE),
    summary: "What the hosts index holds (service names)",
    ok: component("HostsMetadataResponse", v2Envelope(hostsMetadataResultSchema)),
  }),
];
