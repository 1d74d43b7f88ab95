import { API_ROUTES } from "../routes/api";

// Facts about the API as a whole, derived from the route definitions (routes/api/index.ts):
// never a list kept beside them.

let costs: ReadonlyMap<string, number> | undefined;

/**
 * Quota units per operation. Routes that share an operation name share its price; two that
 * disagree are a definition error, reported on first use (test/route-definitions.test.ts).
 */
export function operationCosts(): ReadonlyMap<string, number> {
  if (costs) return costs;
  const table = new Map<string, number>();
  for (const route of API_ROUTES) {
    const known = table.get(route.operation);
    if (known !== undefined && known !== route.cost) {
      throw new Error(
        `operation ${route.operation} costs ${known} on one route and ${route.cost} on another`,
      );
    }
    table.set(route.operation, route.cost);
  }
  costs = table;
  return table;
}

/** The cost of an operation by name; 0 for a name no route has (an old usage row's, say). */
export function operationCost(operation: string): number {
  return operationCosts().get(operation) ?? 0;
}

/** Operations the document cache serves: their requests are what a hit ratio is out of. */
export const CACHED_OPERATIONS: ReadonlySet<string> = new Set(
  API_ROUTES.filter((route) => route.cache.kind !== "none").map((route) => route.operation),
);
