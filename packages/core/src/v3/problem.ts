import { z } from "zod";
import { ApiError, type ErrorKind } from "../errors";

/**
 * Errors of the Censys Platform API (v3), as `application/problem+json` (RFC 9457). The kinds
 * are core's one closed list (errors.ts); this is the v3 column of that table: status and title
 * per kind, and the body the Platform sends.
 */

export const V3_PROBLEM_MEDIA_TYPE = "application/problem+json";

/**
 * The media type of an error of `status`. The SDK reads a 401 as its typed
 * `AuthenticationError` only in `application/json` (its `M.jsonErr(401, ...)` names no other
 * type, so the matcher's default applies); every other error is problem+json, as its
 * `ErrorModel` matchers ask.
 */
export function v3ErrorMediaType(status: number): string {
  return status === 401 ? "application/json" : V3_PROBLEM_MEDIA_TYPE;
}

/** One entry of `errors`; follows the SDK's `components.ErrorDetail` (where, what, which value). */
export const v3ErrorDetailSchema = z
  .object({
    location: z.string().optional(),
    message: z.string().optional(),
    value: z.unknown().optional(),
  })
  .loose();
export type V3ErrorDetail = z.infer<typeof v3ErrorDetailSchema>;

/** The problem document; follows the SDK's `errors.ErrorModel` (type, title, status, detail, instance, errors). */
export const v3ProblemSchema = z
  .object({
    type: z.string().default("about:blank"),
    title: z.string(),
    status: z.number().int().min(400).max(599),
    detail: z.string().optional(),
    instance: z.string().optional(),
    errors: z.array(v3ErrorDetailSchema).nullable().optional(),
  })
  .loose();
export type V3Problem = z.infer<typeof v3ProblemSchema>;

/**
 * The 401 body. The SDK reads a 401 as `errors.AuthenticationError`, whose `error` is a
 * `components.AuthenticationErrorDetail` (code, message, reason, status), from an
 * `application/json` answer (v3ErrorMediaType); the body also carries the problem members, so
 * a client reading problems finds what it looks for too.
 */
export const v3AuthenticationErrorDetailSchema = z
  .object({
    code: z.number().int().optional(),
    message: z.string().optional(),
    reason: z.string().optional(),
    request: z.string().optional(),
    status: z.string().optional(),
  })
  .loose();
export const v3AuthenticationErrorSchema = v3ProblemSchema.extend({
  status: z.literal(401),
  error: v3AuthenticationErrorDetailSchema,
});
export type V3AuthenticationError = z.infer<typeof v3AuthenticationErrorSchema>;

interface V3Rendering {
  readonly status: number;
  readonly title: string;
  /** The default `detail` when the thrower gives none. */
  readonly detail: string;
}

/**
 * The v3 column of core's error table. Invalid input of any kind is a 400 (the status the
 * SDK declares for every global-data operation). An exhausted credit balance is the 422 the
 * Platform answers (`errors: [{message: "insufficient balance"}]`).
 */
export const V3_ERROR_TABLE: Readonly<Record<ErrorKind, V3Rendering>> = {
  invalid_query: { status: 400, title: "Bad Request", detail: "The query could not be parsed." },
  bad_request: { status: 400, title: "Bad Request", detail: "The request is not valid." },
  unauthorized: {
    status: 401,
    title: "Unauthorized",
    detail: "Access credentials are invalid: send Authorization: Bearer <personal access token>.",
  },
  forbidden: { status: 403, title: "Forbidden", detail: "Access to this resource is not allowed." },
  not_found: { status: 404, title: "Not Found", detail: "The requested resource was not found." },
  method_not_allowed: { status: 405, title: "Method Not Allowed", detail: "Method not allowed." },
  conflict: { status: 409, title: "Conflict", detail: "The request conflicts with the resource's state." },
  payload_too_large: { status: 413, title: "Payload Too Large", detail: "The request body is too large." },
  unsupported_media_type: {
    status: 415,
    title: "Unsupported Media Type",
    detail: "The request body must be JSON.",
  },
  rate_limited: { status: 429, title: "Too Many Requests", detail: "Rate limit exceeded." },
  quota_exceeded: { status: 422, title: "Unprocessable Entity", detail: "Unprocessable Entity" },
  upstream_error: { status: 502, title: "Bad Gateway", detail: "Upstream service error; retry later." },
  upstream_timeout: { status: 504, title: "Gateway Timeout", detail: "Upstream service timed out." },
  unavailable: {
    status: 503,
    title: "Service Unavailable",
    detail: "Service temporarily unavailable; retry later.",
  },
  internal: { status: 500, title: "Internal Server Error", detail: "An unexpected error occurred." },
};

/** The `errors` entries a kind carries when the thrower gives none. */
const DEFAULT_ERRORS: Partial<Record<ErrorKind, V3ErrorDetail[]>> = {
  quota_exceeded: [{ message: "insufficient balance" }],
};

/**
 * Input that was read but is not valid for the operation: a field out of its schema, an unknown
 * id format, a CenQL query that does not parse. It answers the operation's invalid-input
 * status (400 or 422, V3RenderOptions); a body that cannot be read at all (not JSON, not UTF-8,
 * a lone surrogate) is a plain `bad_request`, always 400.
 */
export class V3InputError extends ApiError {
  constructor(kind: "bad_request" | "invalid_query", message: string, extra?: Record<string, unknown>) {
    super(kind, message, extra);
  }
}

/** A V3InputError naming one input: `location` (`body.name`, `query.page_size`), why, and the value sent. */
export function v3InputError(location: string, message: string, value: unknown): V3InputError {
  return new V3InputError("bad_request", `validation failed: ${location}: ${message}`, {
    errors: [{ location, message, value }],
  });
}

/** Kinds that mean "the request's input is not valid". */
const INVALID_INPUT: ReadonlySet<ErrorKind> = new Set(["bad_request", "invalid_query"]);

const UNPROCESSABLE: V3Rendering = {
  status: 422,
  title: "Unprocessable Entity",
  detail: "The request is not valid.",
};

export interface V3RenderOptions {
  /**
   * The status invalid input answers on this operation (core v3/operations.ts,
   * `v3InvalidInputStatus`): 422 where the SDK declares no 400.
   */
  invalidInputStatus?: 400 | 422;
}

/**
 * The problem body of `kind`. `extra` may carry `errors` (a list of V3ErrorDetail) and other
 * members; a member never replaces type, title, status or detail.
 */
export function renderV3Problem(
  kind: ErrorKind,
  detail?: string,
  extra?: Record<string, unknown>,
  options: V3RenderOptions = {},
): { status: number; body: V3Problem & Record<string, unknown> } {
  const spec =
    options.invalidInputStatus === 422 && INVALID_INPUT.has(kind) ? UNPROCESSABLE : V3_ERROR_TABLE[kind];
  const body: V3Problem & Record<string, unknown> = {
    type: "about:blank",
    title: spec.title,
    status: spec.status,
    detail: detail ?? spec.detail,
  };
  const errors = DEFAULT_ERRORS[kind];
  if (errors) body.errors = errors;
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (!(key in body) || key === "errors") body[key] = value;
  }
  if (kind === "unauthorized") {
    body.error = {
      code: 401,
      message: "Access credentials are invalid",
      reason: body.detail,
      status: "Unauthorized",
    };
  }
  return { status: spec.status, body };
}
