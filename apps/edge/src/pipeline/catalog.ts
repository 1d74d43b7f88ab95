import { API_ROUTES } from "../routes/api";
import { PLATFORM_ROUTES } from "../routes/v3";
import type { ApiRoute } from "./define-route";
import { type Price, priceIn } from "./price";

// Facts about the API as a whole, derived from the route definitions (routes/api/index.ts,
// routes/v3/index.ts): never a list kept beside them.

/** Every tenant route, legacy then Platform, in the order the app registers them. */
export function tenantRoutes(): readonly ApiRoute[] {
  return [...API_ROUTES, ...PLATFORM_ROUTES];
}

let legacyPrices: ReadonlyMap<string, Price> | undefined;

/**
 * What each operation costs with a legacy upstream (the quota the dashboards count a hit as
 * saving). Routes that share an operation name share that price; two that disagree are a
 * definition error, reported on first use (test/route-definitions.test.ts). With a Platform
 * upstream a shared operation may cost differently per route (a certificate view is two
 * Platform calls, a host view one): each route declares its own.
 */
export function operationPrices(): ReadonlyMap<string, Price> {
  if (legacyPrices) return legacyPrices;
  const table = new Map<string, Price>();
  for (const route of tenantRoutes()) {
    const price = priceIn(route.price, "legacy");
    const seen = table.get(route.operation);
    if (seen && (seen.credits !== price.credits || seen.per !== price.per)) {
      throw new Error(
        `operation ${route.operation} costs ${seen.credits} per ${seen.per} on one route and ${price.credits} per ${price.per} on another`,
      );
    }
    table.set(route.operation, price);
  }
  legacyPrices = table;
  return table;
}

/** Operations the document cache serves: their requests are what a hit ratio is out of. */
export const CACHED_OPERATIONS: ReadonlySet<string> = new Set(
  tenantRoutes()
    .filter((route) => route.cache.kind !== "none")
    .map((route) => route.operation),
);
