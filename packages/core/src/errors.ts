import { z } from "zod";
import { MAX_REQUEST_BODY_BYTES } from "./limits";

/**
 * The one closed list of error kinds and the one table that maps each to its HTTP status and
 * body, per API version. Routes throw `ApiError(kind)`; the error handler calls `renderError`.
 */
export const ERROR_KINDS = [
  "invalid_query",
  "bad_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "quota_exceeded",
  "upstream_error",
  "upstream_timeout",
  "unavailable",
  "internal",
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];
export type ApiVersion = "v1" | "v2";

// ---- body schemas -------------------------------------------------------------------------

/** v1: `{error_code, error}`, error_code equal to the HTTP status. */
export const v1ErrorSchema = z.looseObject({
  error_code: z.number().int().min(400).max(599),
  error: z.string(),
});
export type V1Error = z.infer<typeof v1ErrorSchema>;

/** v1 account without valid auth (403). `unathorized` is spelled so in the spec. */
export const v1UnauthorizedErrorSchema = z.looseObject({
  status: z.literal("error"),
  error_type: z.literal("unathorized"),
  error: z.string(),
});
export type V1UnauthorizedError = z.infer<typeof v1UnauthorizedErrorSchema>;

/** 429 bodies, burst and quota alike; v1 adds `error_code`, v2 adds `code`. */
export const rateLimitErrorSchema = z.looseObject({
  status: z.literal("error"),
  error_type: z.enum(["rate_limit_exceeded", "quota_exceeded"]),
  error: z.string(),
});
export type RateLimitError = z.infer<typeof rateLimitErrorSchema>;
export const v1RateLimitErrorSchema = rateLimitErrorSchema.extend({ error_code: z.literal(429) });
export type V1RateLimitError = z.infer<typeof v1RateLimitErrorSchema>;
export const v2RateLimitErrorSchema = rateLimitErrorSchema.extend({ code: z.literal(429) });
export type V2RateLimitError = z.infer<typeof v2RateLimitErrorSchema>;

/** v2: `{code, status: "<reason phrase>", error}`, plus extras. */
export const v2ErrorSchema = z.looseObject({
  code: z.number().int().min(400).max(599),
  status: z.string().min(1),
  error: z.string(),
});
export type V2Error = z.infer<typeof v2ErrorSchema>;

/** v2 422 for a query that does not parse: where it failed, on which token, and why. */
export const v2InvalidQueryErrorSchema = v2ErrorSchema.extend({
  code: z.literal(422),
  position: z.number().int().min(0).optional(),
  token: z.string().optional(),
  detail: z.string().optional(),
});
export type V2InvalidQueryError = z.infer<typeof v2InvalidQueryErrorSchema>;

/** A bulk entry for a fingerprint the service does not know (inside a 200 body). */
export const bulkUnknownCertificateSchema = z.object({
  error: z.string(),
  error_type: z.literal("unknown"),
  status: z.literal("error"),
});
export type BulkUnknownCertificate = z.infer<typeof bulkUnknownCertificateSchema>;

export type ErrorBody = V1Error | V1UnauthorizedError | V1RateLimitError | V2RateLimitError | V2Error;

// ---- the table ----------------------------------------------------------------------------

type BodyShape = "v1" | "v1_unauthorized" | "v1_rate_limit" | "v2" | "v2_rate_limit";

const BODY_SCHEMAS: Record<BodyShape, z.ZodType<ErrorBody>> = {
  v1: v1ErrorSchema,
  v1_unauthorized: v1UnauthorizedErrorSchema,
  v1_rate_limit: v1RateLimitErrorSchema,
  v2: v2ErrorSchema,
  v2_rate_limit: v2RateLimitErrorSchema,
};

interface Rendering {
  readonly status: number;
  readonly message: string;
  readonly shape: BodyShape;
}
interface ErrorSpec {
  readonly v1: Rendering;
  readonly v2: Rendering;
  /** `error_type` of the rate-limit shapes. */
  readonly errorType?: RateLimitError["error_type"];
}

const AUTH_MESSAGE = "You must authenticate with a valid API ID and secret.";
const same = (status: number, message: string): Pick<ErrorSpec, "v1" | "v2"> => ({
  v1: { status, message, shape: "v1" },
  v2: { status, message, shape: "v2" },
});

export const ERROR_TABLE: Readonly<Record<ErrorKind, ErrorSpec>> = {
  invalid_query: {
    v1: { status: 400, message: "query could not be parsed", shape: "v1" },
    v2: { status: 422, message: "Invalid search. Your query could not be parsed", shape: "v2" },
  },
  bad_request: same(400, "bad request"),
  unauthorized: {
    v1: { status: 403, message: AUTH_MESSAGE, shape: "v1_unauthorized" },
    v2: { status: 401, message: AUTH_MESSAGE, shape: "v2" },
  },
  forbidden: same(403, "access to this resource is not allowed"),
  not_found: {
    v1: { status: 404, message: "page not found", shape: "v1" },
    v2: { status: 404, message: "The requested resource was not found.", shape: "v2" },
  },
  method_not_allowed: same(405, "method not allowed"),
  /** A write that would break a uniqueness rule (a second tag of the same name). */
  conflict: same(409, "the request conflicts with the resource's current state"),
  payload_too_large: same(413, `request body exceeds ${MAX_REQUEST_BODY_BYTES} bytes`),
  unsupported_media_type: same(415, "request body must be JSON (Content-Type: application/json)"),
  rate_limited: {
    v1: { status: 429, message: "rate limit exceeded", shape: "v1_rate_limit" },
    v2: { status: 429, message: "rate limit exceeded", shape: "v2_rate_limit" },
    errorType: "rate_limit_exceeded",
  },
  quota_exceeded: {
    v1: {
      status: 429,
      message: "You have used your full quota for this billing period.",
      shape: "v1_rate_limit",
    },
    v2: {
      status: 429,
      message: "You have used your full quota for this billing period.",
      shape: "v2_rate_limit",
    },
    errorType: "quota_exceeded",
  },
  upstream_error: same(502, "upstream service error; retry later"),
  upstream_timeout: same(504, "upstream service timed out; retry later"),
  /** A part of the service this request needs (the job queue) is down for now. */
  unavailable: same(503, "service temporarily unavailable; retry later"),
  internal: same(500, "unknown error occurred"),
};

export const HTTP_REASON_PHRASES: Readonly<Record<number, string>> = {
  200: "OK",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export function reasonPhrase(status: number): string {
  return HTTP_REASON_PHRASES[status] ?? "Error";
}

// ---- rendering ----------------------------------------------------------------------------

/** The status differs by version for some kinds (unauthorized: v1 403 / v2 401; invalid_query: 400 / 422). */
export function errorStatus(kind: ErrorKind, version: ApiVersion): number {
  return ERROR_TABLE[kind][version].status;
}

export function errorBodySchema(kind: ErrorKind, version: ApiVersion): z.ZodType<ErrorBody> {
  return BODY_SCHEMAS[ERROR_TABLE[kind][version].shape];
}

/**
 * The JSON body for `kind` in `version`. `message` replaces the default text (`""` is kept:
 * v1 query-series 404 has an empty text). `extra` keys are added but never replace the
 * shape's own keys.
 */
export function renderErrorBody(
  kind: ErrorKind,
  version: ApiVersion,
  message?: string,
  extra?: Record<string, unknown>,
): ErrorBody {
  const spec = ERROR_TABLE[kind];
  const { status, shape } = spec[version];
  const error = message ?? spec[version].message;
  const errorType = spec.errorType ?? "rate_limit_exceeded";
  const base: ErrorBody = (() => {
    switch (shape) {
      case "v1":
        return { error_code: status, error };
      case "v1_unauthorized":
        return { status: "error", error_type: "unathorized", error };
      case "v1_rate_limit":
        return { error_code: 429, status: "error", error_type: errorType, error };
      case "v2":
        return { code: status, status: reasonPhrase(status), error };
      case "v2_rate_limit":
        return { code: 429, status: "error", error_type: errorType, error };
    }
  })();
  const body: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (!(key in base)) body[key] = value;
  }
  return body as ErrorBody;
}

export function renderError(
  kind: ErrorKind,
  version: ApiVersion,
  message?: string,
  extra?: Record<string, unknown>,
): { status: number; body: ErrorBody } {
  return { status: errorStatus(kind, version), body: renderErrorBody(kind, version, message, extra) };
}

/** What routes throw; the app's error handler renders it for the route's API version. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly kind: ErrorKind;
  /** The text shown to the client, or undefined for the kind's default. */
  readonly clientMessage: string | undefined;
  readonly extra: Record<string, unknown> | undefined;

  constructor(kind: ErrorKind, message?: string, extra?: Record<string, unknown>, options?: ErrorOptions) {
    super(message ?? ERROR_TABLE[kind].v1.message, options);
    this.kind = kind;
    this.clientMessage = message;
    this.extra = extra;
  }

  status(version: ApiVersion): number {
    return errorStatus(this.kind, version);
  }

  render(version: ApiVersion): { status: number; body: ErrorBody } {
    return renderError(this.kind, version, this.clientMessage, this.extra);
  }
}

/**
 * What is wrong with a client's input, in one line naming each failed input and why (the first
 * five): `fingerprints.0: at most 256 characters per fingerprint`.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
