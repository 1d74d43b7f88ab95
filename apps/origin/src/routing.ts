import type { RouteConfig } from "@hono/zod-openapi";
import { v1ErrorSchema, v2ErrorSchema } from "@scangate/core";
import type { Handler, Hono } from "hono";
import type { z } from "zod";
import type { AppEnv } from "./http/context";
import { chargeQuota } from "./http/quota";

/**
 * One definition per origin route: what `createRoute` describes (method, path with its
 * `{param}`s, request and response schemas from @scangate/core) and, beside it, the facts only
 * this service keeps (operation name, quota cost), with the handler. The app registers the list
 * (routes/index.ts); the 405 answers and the tests' route list come from it.
 */
export interface RouteFacts {
  /** What the route does, named as the edge's cost table names it (`search`, `hosts_search`). */
  readonly operation: string;
  /**
   * Quota units charged before the handler runs and given back when it answers an error. 0 is
   * still a metered call (it records the login times); null: the route never touches the ledger.
   */
  readonly cost: number | null;
}

/** A `createRoute` result: the definition and the Hono path it derives (`{ip}` → `:ip`). */
export type RouteDefinition = RouteConfig & { getRoutingPath(): string };

export interface OriginRoute extends RouteFacts {
  readonly definition: RouteDefinition;
  readonly handler: Handler<AppEnv>;
}

type RoutingPath<R extends RouteDefinition> = ReturnType<R["getRoutingPath"]>;

/** A route from its definition, its facts and its handler (typed with the definition's path). */
export function defineRoute<R extends RouteDefinition>(
  definition: R,
  facts: RouteFacts,
  handler: Handler<AppEnv, RoutingPath<R>>,
): OriginRoute {
  return { ...facts, definition, handler };
}

/**
 * Registers every route with plain `app.on`, rather than `app.openapi`: the latter validates
 * params, query and body before the handler with @hono/zod-validator, which would change what
 * the origin answers. It refuses a JSON body sent without `Content-Type: application/json`
 * (curl's `-d` sends a form type, and the public service took it), and it would run before the
 * handler's own checks, whose order and error kinds are the spec's: an unknown index is a 404
 * before the body is read, a malformed IP a 422, a `q` that is not UTF-8 a 422. So the handlers
 * validate with the same core schemas the definitions name, and the quota is charged first.
 */
export function registerRoutes(app: Hono<AppEnv>, routes: readonly OriginRoute[]): void {
  for (const route of routes) {
    const { definition, cost, handler } = route;
    const path = definition.getRoutingPath();
    const method = definition.method.toUpperCase();
    if (cost === null) app.on(method, path, handler);
    else app.on(method, path, chargeQuota(cost), handler);
  }
}

/** A JSON request body of `schema` (the handlers read it leniently; see registerRoutes). */
export function jsonBody<S extends z.ZodType>(schema: S) {
  return { content: { "application/json": { schema } }, required: true } as const;
}

/** A JSON response of `schema`. */
export function jsonResponse<S extends z.ZodType>(schema: S, description: string) {
  return { description, content: { "application/json": { schema } } } as const;
}

/** A download: bytes of the stored file's own media type. */
export function fileResponse(description: string) {
  return {
    description,
    content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
  } as const;
}

/** Every error a v1 route answers, in the v1 body (the table in core's errors.ts). */
export const V1_ERRORS = {
  default: jsonResponse(v1ErrorSchema, "An error, in the v1 body"),
} as const;

/** Every error a v2 route answers, in the v2 body. */
export const V2_ERRORS = {
  default: jsonResponse(v2ErrorSchema, "An error, in the v2 body"),
} as const;
