import {
  cachedCertificatePemRoute,
  cachedCertificateRoute,
  cachedHostRoute,
  cachedWebpropertyRoute,
} from "./cached-assets";
import { cachedCertificatesRoute, cachedHostsRoute, cachedWebpropertiesRoute } from "./cached-bulks";
import type { PlatformRoute } from "./define";
import { platformForwardRoute } from "./passthrough";

/**
 * Every route the edge serves under /v3, in the order the app registers them: the cached asset
 * lookups first, then the pass-through for everything else.
 */
export const PLATFORM_ROUTES: readonly PlatformRoute[] = [
  cachedHostRoute,
  cachedHostsRoute,
  cachedCertificatePemRoute,
  cachedCertificateRoute,
  cachedCertificatesRoute,
  cachedWebpropertyRoute,
  cachedWebpropertiesRoute,
  platformForwardRoute,
];

/** Operations of /v3 the document cache serves (for hit ratios beside the legacy CACHED_OPERATIONS). */
export const CACHED_PLATFORM_OPERATIONS: ReadonlySet<string> = new Set(
  PLATFORM_ROUTES.filter((route) => route !== platformForwardRoute).map((route) => route.operation),
);
