import { type ApiError, type ErrorKind, renderV3Problem, V3_PROBLEM_MEDIA_TYPE } from "@scangate/core";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

// The Platform API's (/v3) error shape: RFC 9457 problem details as the official SDKs' ErrorModel
// reads them, rendered by core's v3 error table (the one the origin's Platform surface answers
// with), so a tool sees the same statuses and bodies through the edge as from the Platform.

/** Whether a path belongs to the Platform API, whose errors are problem details. */
export function isPlatformPath(path: string): boolean {
  return path === "/v3" || path.startsWith("/v3/");
}

/** Default details said for the edge's own credentials (a scangate token, not a Censys one). */
const PLATFORM_DETAILS: Partial<Record<ErrorKind, string>> = {
  unauthorized: "Authenticate with Authorization: Bearer <your scangate Platform token>.",
};

/** Renders an ApiError as problem+json; headers already set on `c` (Retry-After, WWW-Authenticate) are kept. */
export function problemResponse(c: Context, error: ApiError): Response {
  const { status, body } = renderV3Problem(
    error.kind,
    error.clientMessage ?? PLATFORM_DETAILS[error.kind],
    error.extra,
  );
  c.header("Content-Type", V3_PROBLEM_MEDIA_TYPE);
  return c.body(JSON.stringify(body), status as ContentfulStatusCode);
}
