import type { RouteConfig } from "@hono/zod-openapi";
import type { ApiVersion } from "@scangate/core";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../app-env";
import { openApiOperation, type OperationShape } from "../openapi/operation";
import type { ApiContext } from "./exchange";

/**
 * How the shared document cache serves a route: not at all, one document per request (its TTL
 * class: the index's, or the hosts' with a past `at_time` never expiring), or a bulk of them.
 */
export type CachePolicy =
  | { readonly kind: "none" }
  | { readonly kind: "document"; readonly ttl: "per_index" | "hosts" }
  | { readonly kind: "bulk" };

/** Everything one API route is, written once beside its handler. */
export interface ApiRouteSpec extends OperationShape {
  readonly method: "GET" | "POST" | "PUT" | "DELETE";
  /** Hono path, with the parameter patterns the router matches. */
  readonly path: string;
  /** The name usage, dashboards and costs know it by; routes may share one (same cost). */
  readonly operation: string;
  readonly version: ApiVersion;
  /** Quota units one request costs (cache hits are free unless CACHE_HITS_CHARGED is set). */
  readonly cost: number;
  readonly cache: CachePolicy;
  /**
   * The burst bucket a request counts against: the tenant's tier, or (`account_reads`) the small
   * bucket of its own that lets a tenant at its burst limit still read its quota.
   */
  readonly burst: BurstBucket;
  readonly handler: (c: ApiContext) => Promise<Response>;
}

export type BurstBucket = "tier" | "account_reads";

export interface ApiRoute extends ApiRouteSpec {
  /** The route as OpenAPI describes it (`createRoute`'s input), derived from the facts above. */
  readonly openapi: RouteConfig;
}

const NO_CACHE: CachePolicy = { kind: "none" };

export function defineApiRoute(
  spec: Omit<ApiRouteSpec, "cache" | "burst"> & { cache?: CachePolicy; burst?: BurstBucket },
): ApiRoute {
  const cache = spec.cache ?? NO_CACHE;
  return {
    ...spec,
    cache,
    burst: spec.burst ?? "tier",
    openapi: openApiOperation(spec.method, spec.path, spec, spec.version, {
      tags: [spec.version === "v1" ? "Censys v1" : "Censys v2"],
      security: [{ tenantBasic: [] }],
      "x-operation": spec.operation,
      "x-quota-cost": spec.cost,
      ...(cache.kind === "none" ? {} : { "x-cached": true }),
    }),
  };
}

/** Registers each route: its operation and cost are set on the request before its handler runs. */
export function registerApiRoutes(app: Hono<AppEnv>, routes: readonly ApiRoute[]): void {
  for (const route of routes) {
    app.on(route.method, route.path, (c) => {
      c.get("usage").operation = route.operation;
      c.set("cost", route.cost);
      return route.handler(c);
    });
  }
}

/** One route of the admin API (bearer ADMIN_TOKEN), written once beside its handler. */
export interface AdminRouteSpec extends OperationShape {
  readonly method: "GET" | "POST" | "PATCH" | "DELETE";
  readonly path: string;
  readonly handler: (c: Context<AppEnv>) => Promise<Response>;
}

export interface AdminRoute extends AdminRouteSpec {
  readonly openapi: RouteConfig;
}

export function defineAdminRoute(spec: AdminRouteSpec): AdminRoute {
  return {
    ...spec,
    openapi: openApiOperation(spec.method, spec.path, spec, "admin", {
      tags: ["Admin"],
      security: [{ adminBearer: [] }],
    }),
  };
}

export function registerAdminRoutes(app: Hono<AppEnv>, routes: readonly AdminRoute[]): void {
  for (const route of routes) app.on(route.method, route.path, (c) => route.handler(c));
}
