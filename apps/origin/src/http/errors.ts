import {
  ApiError,
  renderV3Problem,
  v3ErrorMediaType,
  v3InvalidInputStatus,
  V3InputError,
  type ApiVersion,
  type ErrorKind,
  type V3Operation,
} from "@scangate/core";
import { errorKindOfHttpStatus, versionOfPath } from "@scangate/core/http";
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";

/** An ApiError that also sets response headers (Retry-After, WWW-Authenticate, Allow). */
export class ApiErrorWithHeaders extends ApiError {
  readonly headers: Record<string, string>;
  constructor(
    kind: ErrorKind,
    headers: Record<string, string>,
    message?: string,
    extra?: Record<string, unknown>,
  ) {
    super(kind, message, extra);
    this.headers = headers;
  }
}

/** Headers every rendering of a kind carries, whatever threw it. */
function kindHeaders(error: ApiError, version: ApiVersion): Record<string, string> {
  if (error.kind === "unauthorized" && version === "v2")
    return { "WWW-Authenticate": 'Basic realm="scangate"' };
  return {};
}

/** Paths of the Platform API, whose errors are problem documents. */
export function isPlatformPath(path: string): boolean {
  return path === "/v3" || path.startsWith("/v3/");
}

/**
 * An ApiError as the Platform answers it (core's v3 error table): a problem document, whose
 * status for invalid input is the operation's own (400, or 422 where the SDK declares only
 * that), in problem+json, except a 401 in the JSON the SDK reads as `AuthenticationError`.
 */
function renderProblem(c: Context, error: ApiError): Response {
  const operation = c.get("v3Operation") as V3Operation | undefined;
  const invalidInputStatus =
    error instanceof V3InputError && operation ? v3InvalidInputStatus(operation) : undefined;
  const { status, body } = renderV3Problem(error.kind, error.clientMessage, error.extra, {
    invalidInputStatus,
  });
  const headers: Record<string, string> = {
    ...(error.kind === "unauthorized" ? { "WWW-Authenticate": 'Bearer realm="scangate"' } : {}),
    ...(error instanceof ApiErrorWithHeaders ? error.headers : {}),
    "Cache-Control": "no-store",
    "Content-Type": v3ErrorMediaType(status),
  };
  return c.body(JSON.stringify(body), status as 400, headers);
}

/** Renders an ApiError as the JSON body of the request's API version (core's one error table). */
export function renderApiError(c: Context, error: ApiError): Response {
  if (isPlatformPath(c.req.path)) return renderProblem(c, error);
  const version = versionOfPath(c.req.path);
  const { status, body } = error.render(version);
  const headers = {
    ...kindHeaders(error, version),
    ...(error instanceof ApiErrorWithHeaders ? error.headers : {}),
    "Cache-Control": "no-store",
  };
  return c.json(body, status as 400, headers);
}

export const handleError: ErrorHandler = (error, c) => {
  if (error instanceof ApiError) return renderApiError(c, error);
  // Hono's own exceptions (from its middleware), mapped onto our error kinds.
  if (error instanceof HTTPException)
    return renderApiError(c, new ApiError(errorKindOfHttpStatus(error.status)));
  // Unexpected: log with the request id so the operator can find it; the client sees the
  // table's generic 500 text, never a stack trace.
  console.error(`[${c.get("requestId") ?? "-"}] ${c.req.method} ${c.req.path}:`, error);
  return renderApiError(c, new ApiError("internal"));
};

export const handleNotFound: NotFoundHandler = (c) => renderApiError(c, new ApiError("not_found"));
