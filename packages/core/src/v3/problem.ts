import { z } from "zod";
import type { ErrorKind } from "../errors";

/**
 * Errors of the Censys Platform API (v3), as `application/problem+json` (RFC 9457). The kinds
 * are core's one closed list (errors.ts); this is the v3 column of that table: status and title
 * per kind, and the body the Platform sends.
 */

export const V3_PROBLEM_MEDIA_TYPE = "application/problem+json";

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
 * `components.AuthenticationErrorDetail` (code, message, reason, status); our 401 is a problem
 * document that carries that object too, so both readings find what they look for.
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
 * The problem body of `kind`. `extra` may carry `errors` (a list of V3ErrorDetail) and other
 * members; a member never replaces type, title, status or detail.
 */
export function renderV3Problem(
  kind: ErrorKind,
  detail?: string,
  extra?: Record<string, unknown>,
): { status: number; body: V3Problem & Record<string, unknown> } {
  const spec = V3_ERROR_TABLE[kind];
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
