/**
 * Typed errors of the client. Every error a call can throw is a `ScangateError`; the subclass
 * says what went wrong, and `status` and `body` keep what the service answered so nothing is
 * lost when a caller needs more than the message.
 */

/** Where a failed call went; credentials are never part of it. */
export interface RequestInfo {
  readonly method: string;
  /** Path and query string, e.g. `/api/v1/search/ipv4`. */
  readonly path: string;
}

export interface ScangateErrorInit {
  /** HTTP status; 0 when no response arrived (network error). */
  status: number;
  /** The parsed JSON body, or the raw text when the body was not JSON. */
  body?: unknown;
  request?: RequestInfo;
  /** The service's own message (`error` of the body), without our prefix. */
  serviceMessage?: string;
  cause?: unknown;
}

export class ScangateError extends Error {
  override name = "ScangateError";
  readonly status: number;
  readonly body: unknown;
  readonly request: RequestInfo | undefined;
  readonly serviceMessage: string | undefined;

  constructor(message: string, init: ScangateErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.body = init.body;
    this.request = init.request;
    this.serviceMessage = init.serviceMessage;
  }
}

/** 401, or 403: the credential is missing, wrong, disabled, or not allowed this resource. */
export class AuthenticationError extends ScangateError {
  override name = "AuthenticationError";
}

/** 404: unknown index, document, job, series or result. */
export class NotFoundError extends ScangateError {
  override name = "NotFoundError";
}

/** A 4xx for a malformed request (bad parameter, body too large, wrong method). */
export class BadRequestError extends ScangateError {
  override name = "BadRequestError";
}

/** 400 for a query that cannot be run (v1), 422 for one that does not parse (v2). */
export class InvalidQueryError extends BadRequestError {
  override name = "InvalidQueryError";
  /** Where parsing failed (0-based character offset), when the service says. */
  readonly position: number | undefined;
  /** The token that failed to parse, when the service says. */
  readonly token: string | undefined;

  constructor(message: string, init: ScangateErrorInit & { position?: number; token?: string }) {
    super(message, init);
    this.position = init.position;
    this.token = init.token;
  }
}

/** 429 from the burst rate limit: slow down and try again after `retryAfter` seconds. */
export class RateLimitError extends ScangateError {
  override name = "RateLimitError";
  /** Seconds to wait, from `Retry-After`, when the service sent it. */
  readonly retryAfter: number | undefined;

  constructor(message: string, init: ScangateErrorInit & { retryAfter?: number }) {
    super(message, init);
    this.retryAfter = init.retryAfter;
  }
}

/** 429 because the allowance of this period is spent; retrying before `resetsAt` is useless. */
export class QuotaExceededError extends ScangateError {
  override name = "QuotaExceededError";
  /** When the quota resets, when the service says (body `resets_at` or `Retry-After`). */
  readonly resetsAt: Date | undefined;

  constructor(message: string, init: ScangateErrorInit & { resetsAt?: Date }) {
    super(message, init);
    this.resetsAt = init.resetsAt;
  }
}

/** 5xx: the service failed; worth retrying later. */
export class ServerError extends ScangateError {
  override name = "ServerError";
}

/** 502/504: the service's own upstream failed or timed out. */
export class UpstreamError extends ServerError {
  override name = "UpstreamError";
}

/** No response: DNS, connection refused, reset, or the per-request timeout. */
export class NetworkError extends ScangateError {
  override name = "NetworkError";
}

/** A 2xx whose body does not match the wire schema of `@scangate/core`. */
export class UnexpectedResponseError extends ScangateError {
  override name = "UnexpectedResponseError";
  /** `path: message` of each schema issue. */
  readonly issues: readonly string[];

  constructor(message: string, init: ScangateErrorInit & { issues: readonly string[] }) {
    super(message, init);
    this.issues = init.issues;
  }
}

/** A query or export job ended as `error` (or `expired` before its files were read). */
export class JobFailedError extends ScangateError {
  override name = "JobFailedError";
  readonly jobId: string;
  readonly jobStatus: string;

  constructor(message: string, init: ScangateErrorInit & { jobId: string; jobStatus: string }) {
    super(message, init);
    this.jobId = init.jobId;
    this.jobStatus = init.jobStatus;
  }
}

/** A job helper gave up waiting (its `timeoutMs` passed); the job may still finish. */
export class JobTimeoutError extends ScangateError {
  override name = "JobTimeoutError";
  readonly jobId: string;

  constructor(message: string, init: ScangateErrorInit & { jobId: string }) {
    super(message, init);
    this.jobId = init.jobId;
  }
}

/** Results were asked of a query job that has not finished yet. */
export class JobNotReadyError extends ScangateError {
  override name = "JobNotReadyError";
  readonly jobId: string;

  constructor(message: string, init: ScangateErrorInit & { jobId: string }) {
    super(message, init);
    this.jobId = init.jobId;
  }
}
