import type { Hono } from "hono";
import type { AppEnv } from "../../app-env";
import { relayFile } from "../../upstream/file";
import { rebaseUpstreamLinks } from "../../upstream/rebase";
import { relayedResponse } from "../../upstream/relay";
import { routesHandledBy } from "./catalog";
import { beginOperation, chargedRelay, readRequestBody, upstreamPath } from "./exchange";

/**
 * Search, report, aggregate, host search, query definitions: forwarded as they are. Raw-data
 * answers have their links to the upstream re-rooted at the edge (see rebaseUpstreamLinks).
 */
export function registerForwardedRoutes(app: Hono<AppEnv>): void {
  for (const route of routesHandledBy("forward")) {
    app.on(route.method, route.path, async (c) => {
      beginOperation(c, route.operation);
      const body = await readRequestBody(c);
      const relayed = await chargedRelay(c, route.operation, {
        method: route.method,
        path: upstreamPath(c),
        body,
      });
      if (route.operation !== "data" || relayed.status !== 200) return relayedResponse(relayed);
      const edgeBase = `${new URL(c.req.url).origin}/api`;
      return c.json(
        rebaseUpstreamLinks(relayed.json, c.get("services").upstream.baseUrl, edgeBase) as object,
        200,
      );
    });
  }
  for (const route of routesHandledBy("file")) {
    app.get(route.path, async (c) => {
      beginOperation(c, route.operation);
      const { upstream, config } = c.get("services");
      c.get("usage").upstreamCalls += 1;
      return relayFile(config.upstreamTimeoutMs, async (signal) => {
        const { response } = await upstream.call({ method: "GET", path: upstreamPath(c), signal });
        return response;
      });
    });
  }
}
