import type { RouteConfig } from "@hono/zod-openapi";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../app-env";
import { openApiOperation, type OperationShape } from "../openapi/operation";
import { notImplementedResponse } from "./untranslated";
import { isUntranslated, priceIn, type RoutePrice } from "./price";

export type ApiContext = Context<AppEnv>;

/**
 * How the shared document cache serves a route: not at all, one document per request (its TTL
 * class: the index's, or the hosts' with a past `at_time` never expiring), or a bulk of them.
 */
export type CachePolicy =
  | { readonly kind: "none" }
  | { readonly kind: "document"; readonly ttl: "per_index" | "hosts" }
  | { readonly kind: "bulk" };

/**
 * The burst bucket a request counts against: the tenant's tier, or (`account_reads`) the small
 * bucket of its own that lets a tenant at its burst limit still read its quota.
 */
export type BurstBucket = "tier" | "account_reads";

/** Which API a route belongs to: its error shapes, its auth, its OpenAPI tag. */
export type RouteApi = "v1" | "v2" | "v3";

const API_PREFIXES = { v1: "/api/v1/", v2: "/api/v2/", v3: "/v3/" } as const;

/** The API a route's path is under. */
function apiOfPath(path: string): RouteApi {
  const api = (Object.keys(API_PREFIXES) as RouteApi[]).find((v) => path.startsWith(API_PREFIXES[v]));
  if (!api) throw new Error(`route ${path} is under none of ${Object.values(API_PREFIXES).join(", ")}`);
  return api;
}

/** Everything one tenant route is, written once beside its handler. */
export interface RouteSpec extends OperationShape {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Hono path, with the parameter patterns the router matches. */
  readonly path: string;
  /** The name usage, dashboards and prices know it by; routes may share one (same price). */
  readonly operation: string;
  /** What a request costs in each upstream mode (pipeline/price.ts); charged by its account. */
  readonly price: RoutePrice;
  readonly cache: CachePolicy;
  readonly burst: BurstBucket;
  readonly handler: (c: ApiContext) => Promise<Response>;
}

export interface ApiRoute extends RouteSpec {
  /** Derived from the path. */
  readonly api: RouteApi;
  /** The route as OpenAPI describes it (`createRoute`'s input), derived from the facts above. */
  readonly openapi: RouteConfig;
}

const TAGS: Record<RouteApi, string> = { v1: "Censys v1", v2: "Censys v2", v3: "Censys Platform" };

export function defineRoute(
  spec: Omit<RouteSpec, "cache" | "burst"> & { cache?: CachePolicy; burst?: BurstBucket },
): ApiRoute {
  const cache = spec.cache ?? { kind: "none" };
  const api = apiOfPath(spec.path);
  return {
    ...spec,
    api,
    cache,
    burst: spec.burst ?? "tier",
    openapi: openApiOperation(spec.method, spec.path, spec, api, {
      tags: [TAGS[api]],
      security: [api === "v3" ? { tenantBearer: [] } : { tenantBasic: [] }],
      "x-operation": spec.operation,
      "x-price": spec.price,
      ...(cache.kind === "none" ? {} : { "x-cached": true }),
    }),
  };
}

/**
 * Registers each route: the request's account learns the route's operation and its price in
 * this upstream mode before the handler runs. A legacy route the Platform cannot answer
 * (UPSTREAM_API=platform) answers its 501 here, for nothing.
 */
export function registerRoutes(app: Hono<AppEnv>, routes: readonly ApiRoute[]): void {
  for (const route of routes) {
    app.on(route.method, route.path, (c) => {
      const mode = c.get("services").config.upstreamApi;
      c.get("account").priced(
        route.operation,
        priceIn(route.price, mode),
        route.api === "v3" || mode === "platform",
      );
      const declared = route.price[mode];
      if (isUntranslated(declared))
        return notImplementedResponse(route.api === "v1" ? "v1" : "v2", declared.untranslated);
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
  for (const route of routes) app.on(route.method, route.path, route.handler);
}
