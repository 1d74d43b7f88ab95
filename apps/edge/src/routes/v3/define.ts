import type { Hono } from "hono";
import type { AppEnv } from "../../app-env";
import type { ApiContext } from "../../api/exchange";

/**
 * Everything one Platform API (/v3) route is, written once beside its handler, as the legacy
 * routes are (api/define-route.ts). The asset lookups are cached (cached-assets.ts,
 * cached-bulks.ts); everything else goes through the pass-through (passthrough.ts).
 */
export interface PlatformRoute {
  readonly methods: readonly ("GET" | "POST")[];
  /** Hono path below which the route answers. */
  readonly path: string;
  /** The name usage and dashboards know it by. */
  readonly operation: string;
  /** Credits one request costs the tenant (the pass-through sets each call's own, routes/v3/credits.ts). */
  readonly cost: number;
  readonly summary: string;
  readonly handler: (c: ApiContext) => Promise<Response>;
}

export function definePlatformRoute(route: PlatformRoute): PlatformRoute {
  return route;
}

/** Registers each route: its operation and cost are set on the request before its handler runs. */
export function registerPlatformRoutes(app: Hono<AppEnv>, routes: readonly PlatformRoute[]): void {
  for (const route of routes) {
    app.on([...route.methods], route.path, (c) => {
      c.get("usage").operation = route.operation;
      c.set("cost", route.cost);
      return route.handler(c);
    });
  }
}
