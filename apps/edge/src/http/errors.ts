import { type ApiError, type ApiVersion, renderError } from "@scangate/core";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Renders an ApiError from core's one error table; headers already set on `c` are kept. */
export function errorResponse(c: Context, error: ApiError, version: ApiVersion): Response {
  return renderedError(c, error.kind, version, error.clientMessage, error.extra);
}

export function renderedError(c: Context, ...args: Parameters<typeof renderError>): Response {
  const { status, body } = renderError(...args);
  return c.json(body, status as ContentfulStatusCode);
}
