import {
  v3AtTimeQuerySchema,
  v3CertificateAssetSchema,
  v3CertificateListInputSchema,
  v3CertificateListQuerySchema,
  v3Envelope,
  v3HostAssetSchema,
  v3HostListInputSchema,
  v3HostListQuerySchema,
  v3WebpropertyAssetSchema,
  v3WebpropertyListInputSchema,
  v3WebpropertyListQuerySchema,
} from "@scangate/core";
import { z } from "zod";
import { component } from "../../openapi/components";
import type { ApiRoute } from "../../pipeline/define-route";
import { CERTIFICATE, CERTIFICATE_PEM, HOST, WEBPROPERTY } from "./asset-kinds";
import { cachedAssetRoute } from "./cached-assets";
import { cachedBulkRoutes } from "./cached-bulks";
import { forwardedPlatformRoutes, OTHER_PLATFORM_ROUTES } from "./operations";

/**
 * The asset lookups and bulk lookups the edge answers through its document cache; each bulk both
 * as the POST the SDKs send and as the GET with its ids in the query that SDKs before 0.6 sent.
 */
const CACHED_ROUTES: readonly ApiRoute[] = [
  cachedAssetRoute(
    HOST,
    "/v3/global/asset/host/:host_id",
    "One host, now or at `at_time` (cached; a past point in time never expires)",
    { query: v3AtTimeQuerySchema, ok: component("V3HostResponse", v3Envelope(v3HostAssetSchema)) },
  ),
  ...cachedBulkRoutes(
    HOST,
    "/v3/global/asset/host",
    "Several hosts (`host_ids`, optional `at_time`): cached ones from the cache, the rest in one upstream call",
    {
      body: component("V3HostListInput", v3HostListInputSchema),
      query: v3HostListQuerySchema,
      ok: component("V3HostsResponse", v3Envelope(z.array(v3HostAssetSchema))),
    },
  ),
  cachedAssetRoute(
    CERTIFICATE_PEM,
    "/v3/global/asset/certificate/:certificate_id/raw",
    "One certificate as PEM (cached)",
    { ok: "file" },
  ),
  cachedAssetRoute(
    CERTIFICATE,
    "/v3/global/asset/certificate/:certificate_id",
    "One certificate by SHA-256 fingerprint (cached)",
    { ok: component("V3CertificateResponse", v3Envelope(v3CertificateAssetSchema)) },
  ),
  ...cachedBulkRoutes(
    CERTIFICATE,
    "/v3/global/asset/certificate",
    "Several certificates (`certificate_ids`): cached ones from the cache, the rest in one upstream call",
    {
      body: component("V3CertificateListInput", v3CertificateListInputSchema),
      query: v3CertificateListQuerySchema,
      ok: component("V3CertificatesResponse", v3Envelope(z.array(v3CertificateAssetSchema))),
    },
  ),
  cachedAssetRoute(
    WEBPROPERTY,
    "/v3/global/asset/webproperty/:webproperty_id",
    "One web property (`hostname:port`), now or at `at_time` (cached)",
    {
      query: v3AtTimeQuerySchema,
      ok: component("V3WebpropertyResponse", v3Envelope(v3WebpropertyAssetSchema)),
    },
  ),
  ...cachedBulkRoutes(
    WEBPROPERTY,
    "/v3/global/asset/webproperty",
    "Several web properties (`webproperty_ids`, optional `at_time`): cached ones from the cache, the rest in one upstream call",
    {
      body: component("V3WebpropertyListInput", v3WebpropertyListInputSchema),
      query: v3WebpropertyListQuerySchema,
      ok: component("V3WebpropertiesResponse", v3Envelope(z.array(v3WebpropertyAssetSchema))),
    },
  ),
];

/**
 * Every route the edge serves under /v3, in the order the app registers them: the cached asset
 * lookups first, then the operations forwarded by name, then anything else the Platform serves.
 */
export const PLATFORM_ROUTES: readonly ApiRoute[] = [
  ...CACHED_ROUTES,
  ...forwardedPlatformRoutes(new Set(CACHED_ROUTES.map((route) => route.operation))),
  ...OTHER_PLATFORM_ROUTES,
];
