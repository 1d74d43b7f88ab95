import { hostViewParamsSchema, parseRfc3339Nanos } from "@scangate/core";
import type { Hono } from "hono";
import type { AppEnv } from "../../app-env";
import { renderedError } from "../../http/errors";
import { relayedResponse } from "../../upstream/relay";
import { serveCachedDocument } from "./cached-document";
import { beginOperation, chargedRelay, upstreamPath } from "./exchange";

/** Only hex digits, dots and colons: `aggregate` and `search` never reach this route. */
const IP_PATH = "/api/v2/hosts/:ip{[0-9A-Fa-f.:]+}";

/**
 * GET /api/v2/hosts/{ip}[?at_time=...] through the shared cache. A host at a past point in time
 * never changes, so that row never expires; equal instants spelled differently share a row.
 * Anything the cache key cannot describe (a bad ip or time, other parameters) is forwarded as is.
 */
export function registerHostViewRoute(app: Hono<AppEnv>): void {
  app.get(IP_PATH, async (c) => {
    beginOperation(c, "host_view");
    const ip = hostViewParamsSchema.safeParse({ ip: c.req.param("ip") });
    const query = new URL(c.req.url).searchParams;
    const atTimeValues = query.getAll("at_time");
    const atTime = atTimeValues.length === 1 ? parseRfc3339Nanos(atTimeValues[0] ?? "") : null;
    const cacheable =
      ip.success &&
      [...query.keys()].every((key) => key === "at_time") &&
      (atTimeValues.length === 0 || atTime !== null);
    if (!ip.success || !cacheable) {
      return relayedResponse(await chargedRelay(c, "host_view", { method: "GET", path: upstreamPath(c) }));
    }
    const services = c.get("services");
    const pastInstant = atTime !== null && atTime.ms <= services.clock.now();
    return serveCachedDocument(c, {
      operation: "host_view",
      key: { index: "hosts", id: ip.data.ip.toLowerCase(), atTime: atTime?.nanos ?? "" },
      path: upstreamPath(c),
      ttlSeconds: pastInstant ? null : services.config.cache.ttlSeconds.hosts,
      negativeBody: null,
      negativeResponse: (ctx) => renderedError(ctx, "not_found", "v2"),
    });
  });
}
