import {
  ApiError,
  describeIssues,
  MAX_REQUEST_BODY_BYTES,
  requireWellFormedJson,
  type ErrorKind,
} from "@scangate/core";
import type { Context, MiddlewareHandler } from "hono";
import { requestLimitProblem } from "@scangate/core/http";
import { bodyLimit } from "hono/body-limit";
import type { z } from "zod";

/** Validates client input against a core schema; failures are 4xx of `kind`, never 500. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  kind: ErrorKind = "bad_request",
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiError(kind, describeIssues(result.error));
  return result.data;
}

/** Our length limits on the URL, `q` and `cursor` (core's limits.ts): a 400 in the route's shape. */
export function limitRequestTarget(): MiddlewareHandler {
  return async function limitRequestTarget(c, next) {
    const problem = requestLimitProblem(c.req.url);
    if (problem !== undefined) throw new ApiError("bad_request", problem);
    await next();
  };
}

/** Refuses request bodies over the limit while they stream in (413 in the route's shape). */
export function limitBodySize(): MiddlewareHandler {
  return bodyLimit({
    maxSize: MAX_REQUEST_BODY_BYTES,
    onError: () => {
      throw new ApiError("payload_too_large");
    },
  });
}

/**
 * The request body as JSON. The Content-Type is not insisted on (curl's `-d` sends a form type
 * and the public service accepted it); an empty or malformed body, or one whose strings hold a
 * lone surrogate, is a 400.
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await readUtf8Body(c);
  if (text.trim() === "") throw new ApiError("bad_request", "request body is required (a JSON object)");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "request body is not valid JSON");
  }
  requireWellFormedJson(value);
  return value;
}

/** The request body as text; bytes that are not UTF-8 are a 400 rather than U+FFFD in a query. */
export async function readUtf8Body(c: Context): Promise<string> {
  const bytes = await c.req.arrayBuffer();
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ApiError("bad_request", "request body is not valid UTF-8");
  }
}
