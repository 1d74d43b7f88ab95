import { type ApiError, type ErrorKind, errorStatus, reasonPhrase, renderError } from "@scangate/core";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

// The Platform API's (/v3) error shape: RFC 9457 problem details, as the official SDKs' ErrorModel
// reads them (censys-sdk-typescript src/models/errors/errormodel.ts: type, title, status, detail,
// instance, errors). The status of each kind is the one core's error table gives v2, so one
// table still decides every status; only the body differs.

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** Whether a path belongs to the Platform API, whose errors are problem details. */
export function isPlatformPath(path: string): boolean {
  return path === "/v3" || path.startsWith("/v3/");
}

export interface ProblemBody {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
}

/** Default details the v2 table words for Basic credentials, said the Platform's way. */
const PLATFORM_DETAILS: Partial<Record<ErrorKind, string>> = {
  unauthorized: "Authenticate with Authorization: Bearer <your scangate Platform token>.",
};

export function problemBody(kind: ErrorKind, detail?: string): ProblemBody {
  const status = errorStatus(kind, "v2");
  return {
    type: "about:blank",
    title: reasonPhrase(status),
    status,
    detail: detail ?? PLATFORM_DETAILS[kind] ?? renderError(kind, "v2").body.error,
  };
}

/** Renders an ApiError as problem+json; headers already set on `c` (Retry-After, WWW-Authenticate) are kept. */
export function problemResponse(c: Context, error: ApiError): Response {
  const body = problemBody(error.kind, error.clientMessage);
  c.header("Content-Type", PROBLEM_CONTENT_TYPE);
  return c.body(JSON.stringify(body), body.status as ContentfulStatusCode);
}
