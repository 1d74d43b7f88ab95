import type { ApiRoute } from "../../pipeline/define-route";
import {
  cachedCertificatePemRoute,
  cachedCertificateRoute,
  cachedHostRoute,
  cachedWebpropertyRoute,
} from "./cached-assets";
import { cachedCertificatesRoute, cachedHostsRoute, cachedWebpropertiesRoute } from "./cached-bulks";
import { forwardedPlatformRoutes, OTHER_PLATFORM_ROUTES } from "./operations";

/**
 * Every route the edge serves under /v3, in the order the app registers them: the cached asset
 * lookups first, then the operations forwarded by name, then anything else the Platform serves.
 */
const CACHED_ROUTES: readonly ApiRoute[] = [
  cachedHostRoute,
  cachedHostsRoute,
  cachedCertificatePemRoute,
  cachedCertificateRoute,
  cachedCertificatesRoute,
  cachedWebpropertyRoute,
  cachedWebpropertiesRoute,
];

export const PLATFORM_ROUTES: readonly ApiRoute[] = [
  ...CACHED_ROUTES,
  ...forwardedPlatformRoutes(new Set(CACHED_ROUTES.map((route) => route.operation))),
  ...OTHER_PLATFORM_ROUTES,
];
