import type { RouteConfig } from "@hono/zod-openapi";
import { z } from "zod";
import { type Component, ERROR_COMPONENTS } from "./components";

/** Which error bodies a route answers with: the Censys v1 or v2 shape, problem+json (/v3), or the admin API's. */
export type ErrorFamily = "v1" | "v2" | "v3" | "admin";

/** What a route takes and answers, as core wire schemas. */
export interface OperationShape {
  readonly summary: string;
  readonly body?: Component;
  /** Query parameters, each an `in: query` parameter. */
  readonly query?: z.ZodObject;
  /** The success answer; "file" for a download, "empty" for a 204 without a body. */
  readonly ok: Component | "file" | "empty";
  /** Answers 201 instead of 200. */
  readonly created?: boolean;
}

const json = ({ name }: Component, mediaType = "application/json") => ({
  content: { [mediaType]: { schema: { $ref: `#/components/schemas/${name}` } } },
});

/** The refusals of each family, by status: what each means and the error body it carries. */
function errorAnswers(family: ErrorFamily): Record<number, { description: string; body: Component }> {
  if (family === "v3") {
    const body = ERROR_COMPONENTS.v3;
    return {
      400: { description: "Bad request", body },
      401: { description: "Missing, unknown or revoked bearer token, or a disabled tenant", body },
      404: { description: "Not found", body },
      422: { description: "Insufficient balance: the tenant's credits would be overspent", body },
      429: { description: "Burst limit, or too many failed authentications; see Retry-After", body },
      502: { description: "The upstream failed", body },
      503: { description: "No Platform upstream is configured", body },
      504: { description: "The upstream did not answer in time", body },
    };
  }
  const body = family === "v1" ? ERROR_COMPONENTS.v1 : ERROR_COMPONENTS.v2;
  const common = {
    400: { description: "Bad request", body },
    404: { description: "Not found", body },
  };
  if (family === "admin") {
    return { ...common, 401: { description: "Missing or wrong admin token", body: ERROR_COMPONENTS.v2 } };
  }
  return {
    ...common,
    [family === "v1" ? 403 : 401]: {
      description: "Missing or wrong tenant credentials, or a disabled tenant",
      body: family === "v1" ? ERROR_COMPONENTS.v1Unauthorized : ERROR_COMPONENTS.v2,
    },
    429: {
      description:
        "Burst limit (`rate_limit_exceeded`) or quota exhausted (`quota_exceeded`); see Retry-After",
      body: family === "v1" ? ERROR_COMPONENTS.v1RateLimited : ERROR_COMPONENTS.v2RateLimited,
    },
    502: { description: "The upstream failed or answered something that is not JSON", body },
    504: { description: "The upstream did not answer in time", body },
  };
}

/** The components an operation refers to: its body, its answer and its error bodies. */
export function componentsOf(shape: OperationShape, family: ErrorFamily): Component[] {
  return [
    ...(shape.body ? [shape.body] : []),
    ...(typeof shape.ok === "string" ? [] : [shape.ok]),
    ...new Set(Object.values(errorAnswers(family)).map(({ body }) => body)),
  ];
}

function errorResponses(family: ErrorFamily): RouteConfig["responses"] {
  // A /v3 route refuses with problem+json, as the Platform's SDKs read it.
  const mediaType = family === "v3" ? "application/problem+json" : "application/json";
  return Object.fromEntries(
    Object.entries(errorAnswers(family)).map(([status, { description, body }]) => [
      status,
      { description, ...json(body, mediaType) },
    ]),
  );
}

/** `/api/v2/hosts/:ip{[0-9a-f.:]+}` → `/api/v2/hosts/{ip}`, with the parameter names. */
export function openApiPath(honoPath: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = honoPath
    .replace(/:([a-z_]+)(\{[^}]*\})?/g, (_, name: string) => {
      params.push(name);
      return `{${name}}`;
    })
    .replace(/\/\*$/, () => {
      params.push("operation_path");
      return "/{operation_path}";
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
      : shape.ok === "empty"
        ? { description: "Done (no body)" }
        : { description: "Success", ...json(shape.ok) };
  return {
    method: method.toLowerCase() as RouteConfig["method"],
    path,
    summary: shape.summary,
    ...extra,
    request: {
      ...(params.length ? { params: z.object(Object.fromEntries(params.map((p) => [p, z.string()]))) } : {}),
      ...(shape.query ? { query: shape.query } : {}),
      ...(shape.body ? { body: { required: true, ...json(shape.body) } } : {}),
    },
    responses: {
      [shape.ok === "empty" ? 204 : shape.created ? 201 : 200]: ok,
      ...errorResponses(family),
    },
  };
}
