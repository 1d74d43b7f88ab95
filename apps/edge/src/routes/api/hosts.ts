import {
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
import type { DocumentKey } from "../../cache/interface";
import { renderedError } from "../../http/errors";
import { component } from "../../openapi/components";
import { serveCachedDocument } from "../../pipeline/cached-document";
import { type ApiContext, type ApiRoute, defineRoute, type RouteSpec } from "../../pipeline/define-route";
import { chargedRelay, onPlatform, talliedRelay, upstreamPath } from "../../pipeline/exchange";
import { forward } from "../../pipeline/forward";
import { pageVariant } from "../../pipeline/page-key";
import {
  CERTIFICATE_HOSTS_PRICE,
  HOST_DIFF_PRICE,
  HOST_EVENTS_PRICE,
  HOST_NAMES_PRICE,
  HOST_VIEW_PRICE,
  HOSTS_METADATA_PRICE,
  HOSTS_SEARCH_PRICE,
} from "../../upstream/legacy-credits";
import { relayedResponse } from "../../upstream/relay";

// The v2 hosts routes and a certificate's hosts. Searches, aggregates, diffs, events and the
// metadata are forwarded as they are; a host and the paged lists go through the shared cache.

/** The two hosts of a diff on a Platform-only upstream: held for both, settled to the lookups made. */
const HOSTS_IN_A_DIFF = 2;

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
  hostsRoute({
    path: "/api/v2/hosts/aggregate",
    operation: "hosts_aggregate",
    price: HOSTS_SEARCH_PRICE,
    summary: "Aggregate hosts into buckets",
    query: hostsAggregateQuerySchema,
    ok: component("HostsAggregateResponse", v2Envelope(hostsAggregateResultSchema)),
  }),
  // Its cursors are the upstream's.
  hostsRoute({
    path: "/api/v2/hosts/search",
    operation: "hosts_search",
    price: HOSTS_SEARCH_PRICE,
    summary: "Search hosts (cursor pagination)",
    query: hostsSearchQuerySchema,
    ok: component("HostsSearchResponse", v2Envelope(hostsSearchResultSchema)),
  }),
  hostsRoute({
    // Any segment: `aggregate` and `search` are registered first and answer their own paths, and
    // an ip the upstream refuses (`not-an-ip`) gets the upstream's own 422, as at the origin.
    path: "/api/v2/hosts/:ip",
    operation: "host_view",
    price: HOST_VIEW_PRICE,
    cache: { kind: "document", ttl: "hosts" },
    summary: "One host, optionally at a point in time (cached)",
    query: hostViewQuerySchema,
    ok: component("HostResponse", v2Envelope(hostDocumentSchema)),
    handler: serveHost,
  }),
  cachedListRoute({
    path: "/api/v2/hosts/:ip/names",
    operation: "host_names",
    price: HOST_NAMES_PRICE,
    summary: "The names a host answers for, a page at a time (cached)",
    query: hostNamesQuerySchema,
    ok: component("HostNamesResponse", v2Envelope(hostNamesResultSchema)),
    idOf: hostIdOf,
  }),
  // With a Platform-only upstream, two host lookups, billed per lookup that answered.
  hostsRoute({
    path: "/api/v2/hosts/:ip/diff",
    operation: "host_diff",
    price: HOST_DIFF_PRICE,
    summary: "A host against itself at another time, or against another host (JSON Patch)",
    query: hostDiffQuerySchema,
    ok: component("HostDiffResponse", v2Envelope(hostDiffResultSchema)),
    handler: async (c) =>
      onPlatform(c)
        ? relayedResponse(await talliedRelay(c, { method: "GET", path: upstreamPath(c) }, HOSTS_IN_A_DIFF))
        : forward(c),
  }),
  // With a Platform-only upstream, the host's timeline.
  hostsRoute({
    path: "/api/v2/experimental/hosts/:ip/events",
    operation: "host_events",
    price: HOST_EVENTS_PRICE,
    summary: "A host's history as events, a page at a time",
    query: hostEventsQuerySchema,
    ok: component("HostEventsResponse", v2Envelope(hostEventsResultSchema)),
  }),
  cachedListRoute({
    path: "/api/v2/certificates/:sha256/hosts",
    operation: "certificate_hosts",
    price: CERTIFICATE_HOSTS_PRICE,
    summary: "The hosts presenting a certificate, a page at a time (cached)",
    query: certificateHostsQuerySchema,
    ok: component("CertificateHostsResponse", v2Envelope(certificateHostsResultSchema)),
    idOf: (c) => {
      const parsed = certificateHostsParamsSchema.safeParse({ sha256: c.req.param("sha256") });
      return parsed.success ? parsed.data.sha256.toLowerCase() : null;
    },
  }),
  // Free (`CensysHosts.metadata()`).
  hostsRoute({
    path: "/api/v2/metadata/hosts",
    operation: "hosts_metadata",
    price: HOSTS_METADATA_PRICE,
    summary: "What the hosts index holds (service names)",
    ok: component("HostsMetadataResponse", v2Envelope(hostsMetadataResultSchema)),
  }),
];
