import type { RouteConfig } from "@hono/zod-openapi";
import { z } from "zod";
import { type ComponentName, componentRef, QUERY_SCHEMAS, type QuerySchemaName } from "./schemas";

/** Which error bodies a route answers with: the Censys v1 or v2 shape, or the admin API's. */
export type ErrorFamily = "v1" | "v2" | "admin";

/** What a route takes and answers, by component name (openapi/schemas.ts). */
export interface OperationShape {
  readonly summary: string;
  readonly body?: ComponentName;
  readonly query?: QuerySchemaName;
  /** The success answer; "file" for a download. */
  readonly ok: ComponentName | "file";
  /** Answers 201 instead of 200. */
  readonly created?: boolean;
}

const json = (name: ComponentName) => ({ content: { "application/json": { schema: componentRef(name) } } });

function errorResponses(family: ErrorFamily): RouteConfig["responses"] {
  const shape: ComponentName = family === "v1" ? "V1Error" : "V2Error";
  const responses: RouteConfig["responses"] = {
    400: { description: "Bad request", ...json(shape) },
    404: { description: "Not found", ...json(shape) },
  };
  if (family === "admin") {
    responses[401] = { description: "Missing or wrong admin token", ...json("V2Error") };
    return responses;
  }
  responses[family === "v1" ? 403 : 401] = {
    description: "Missing or wrong tenant credentials, or a disabled tenant",
    ...json(family === "v1" ? "V1Unauthorized" : "V2Error"),
  };
  responses[429] = {
    description: "Burst limit (`rate_limit_exceeded`) or quota exhausted (`quota_exceeded`); see Retry-After",
    ...json(family === "v1" ? "V1RateLimited" : "V2RateLimited"),
  };
  responses[502] = {
    description: "The upstream failed or answered something that is not JSON",
    ...json(shape),
  };
  responses[504] = { description: "The upstream did not answer in time", ...json(shape) };
  return responses;
}

/** `/api/v2/hosts/:ip{[0-9a-f.:]+}` → `/api/v2/hosts/{ip}`, with the parameter names. */
export function openApiPath(honoPath: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = honoPath.replace(/:([a-z_]+)(\{[^}]*\})?/g, (_, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path, params };
}

/**
 * The OpenAPI operation of a route, as @hono/zod-openapi's `createRoute` takes it: path
 * parameters from the Hono path, query, body and answers from the core wire schemas.
 */
export function openApiOperation(
  method: string,
  honoPath: string,
  shape: OperationShape,
  family: ErrorFamily,
  extra: Partial<RouteConfig> & Record<`x-${string}`, unknown>,
): RouteConfig {
  const { path, params } = openApiPath(honoPath);
  const ok =
    shape.ok === "file"
      ? {
          description: "The file",
          content: { "application/octet-stream": { schema: { type: "string" as const, format: "binary" } } },
        }
      : { description: "Success", ...json(shape.ok) };
  return {
    method: method.toLowerCase() as RouteConfig["method"],
    path,
    summary: shape.summary,
    ...extra,
    request: {
      ...(params.length ? { params: z.object(Object.fromEntries(params.map((p) => [p, z.string()]))) } : {}),
      ...(shape.query ? { query: QUERY_SCHEMAS[shape.query] } : {}),
      ...(shape.body ? { body: { required: true, ...json(shape.body) } } : {}),
    },
    responses: { [shape.created ? 201 : 200]: ok, ...errorResponses(family) },
  };
}
