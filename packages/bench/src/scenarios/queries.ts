// v2 host search and aggregate: at the origin directly (what the latency targets are about) and
// through the edge (which forwards them). Few connections: these measure a query's latency, not
// a queue in front of it.
import { runLoad } from "../load";
import {
  type BenchContext,
  preflight,
  type Scenario,
  settledUsage,
  tenantHeaders,
  usageCounts,
} from "../scenario";

/** Search on an indexed column (hosts.country_code), for the most common country: the most rows to count. */
export function searchPath(countryCode: string): string {
  return `/api/v2/hosts/search?${new URLSearchParams({ q: `location.country_code: ${countryCode}`, per_page: "50" })}`;
}

/** Services per port over every host (no query): the whole host_services table grouped. */
export const AGGREGATE_PATH = `/api/v2/hosts/aggregate?${new URLSearchParams({ field: "services.port", num_buckets: "50" })}`;

/** A path as people write it (URLSearchParams encodes spaces as `+`). */
export function readable(path: string): string {
  return decodeURIComponent(path.replaceAll("+", " "));
}

/** One query under load at the origin, with the bench's origin account. */
export async function originQueryLoad(
  ctx: Pick<BenchContext, "cluster" | "originAuth" | "options">,
  path: string,
) {
  const headers = { authorization: ctx.originAuth };
  await preflight(`${ctx.cluster.originUrl}${path}`, { headers });
  return runLoad({
    baseUrl: ctx.cluster.originUrl,
    headers,
    requests: [{ method: "GET", path }],
    connections: ctx.options.queryConnections,
    durationSeconds: ctx.options.duration,
  });
}

function originQuery(id: string, title: string, path: (ctx: BenchContext) => string): Scenario {
  return {
    id,
    title,
    async run(ctx) {
      const sample = await originQueryLoad(ctx, path(ctx));
      return {
        kind: "ran",
        sample,
        connections: ctx.options.queryConnections,
        target: `GET ${readable(path(ctx))} (${ctx.probe.hosts} hosts)`,
      };
    },
  };
}

function edgeQuery(id: string, title: string, path: (ctx: BenchContext) => string): Scenario {
  return {
    id,
    title,
    async run(ctx) {
      const tenant = await ctx.newTenant(id);
      const headers = tenantHeaders(tenant);
      await preflight(`${ctx.cluster.edgeUrl}${path(ctx)}`, { headers });
      const sample = await runLoad({
        baseUrl: ctx.cluster.edgeUrl,
        headers,
        requests: [{ method: "GET", path: path(ctx) }],
        connections: ctx.options.queryConnections,
        durationSeconds: ctx.options.duration,
      });
      const usage = await settledUsage(ctx, tenant, sample.requests + 1);
      return {
        kind: "ran",
        sample,
        connections: ctx.options.queryConnections,
        target: `GET ${readable(path(ctx))} (${ctx.probe.hosts} hosts)`,
        counts: usageCounts(usage),
      };
    },
  };
}

export const edgeSearch = edgeQuery("edge-search", "edge v2 hosts search (forwarded)", (ctx) =>
  searchPath(ctx.probe.countryCode),
);
export const edgeAggregate = edgeQuery(
  "edge-aggregate",
  "edge v2 hosts aggregate services.port (forwarded)",
  () => AGGREGATE_PATH,
);
export const originSearch = originQuery("origin-search", "origin v2 hosts search, indexed field", (ctx) =>
  searchPath(ctx.probe.countryCode),
);
export const originAggregate = originQuery(
  "origin-aggregate",
  "origin v2 hosts aggregate services.port",
  () => AGGREGATE_PATH,
);
