import {
  AuthenticationError,
  BadRequestError,
  InvalidQueryError,
  NotFoundError,
  QuotaExceededError,
  RateLimitError,
  ScangateError,
  ServerError,
  UpstreamError,
  type RequestInfo,
  type ScangateErrorInit,
} from "./errors";
import { parseRetryAfter } from "./retry-after";

/**
 * Maps a non-2xx response to its typed error. Works on v1 bodies (`{error_code, error}`), v2
 * bodies (`{code, status, error}`), v3 problem documents (`{type, title, status, detail,
 * errors}`), and on anything else a proxy may put in between.
 */
export function errorFromResponse(
  status: number,
  body: unknown,
  headers: Headers,
  request: RequestInfo,
  now: number = Date.now(),
): ScangateError {
  const fields = isRecord(body) ? body : {};
  const problem = readProblem(fields);
  if (problem) return errorFromProblem(status, problem, body, headers, request, now);
  const serviceMessage = typeof fields.error === "string" ? fields.error : undefined;
  const init: ScangateErrorInit = { status, body, request, serviceMessage };
  // Some bodies carry the specific reason beside a fixed message (v2 422: "Invalid search...").
  const detail =
    typeof fields.detail === "string" && !(serviceMessage ?? "").includes(fields.detail)
      ? `: ${fields.detail}`
      : "";
  const describe = (extra = ""): string =>
    `${request.method} ${request.path} failed with ${status}: ${serviceMessage ?? describeBody(body)}${detail}${extra}`;

  if (status === 429) {
    const retryAfter = parseRetryAfter(headers.get("retry-after"), now);
    if (isQuotaBody(fields)) {
      const resetsAt =
        parseResetsAt(fields.resets_at) ??
        (retryAfter === undefined ? undefined : new Date(now + retryAfter * 1000));
      const when = resetsAt ? ` (quota resets at ${resetsAt.toISOString()})` : "";
      return new QuotaExceededError(describe(when), { ...init, ...(resetsAt ? { resetsAt } : {}) });
    }
    const wait = retryAfter === undefined ? "" : ` (retry after ${retryAfter} s)`;
    return new RateLimitError(describe(wait), {
      ...init,
      ...(retryAfter === undefined ? {} : { retryAfter }),
    });
  }
  if (status === 401 || status === 403) return new AuthenticationError(describe(), init);
  if (status === 404) return new NotFoundError(describe(), init);
  if (status === 422 || (status === 400 && isQueryFailure(fields, serviceMessage))) {
    const position = typeof fields.position === "number" ? fields.position : undefined;
    const token = typeof fields.token === "string" ? fields.token : undefined;
    const where = [
      position === undefined ? "" : `at position ${position}`,
      token === undefined ? "" : `near ${JSON.stringify(token)}`,
    ]
      .filter(Boolean)
      .join(" ");
    return new InvalidQueryError(describe(where ? ` (${where})` : ""), {
      ...init,
      ...(position === undefined ? {} : { position }),
      ...(token === undefined ? {} : { token }),
    });
  }
  if (status === 502 || status === 504) return new UpstreamError(describe(), init);
  if (status >= 500) return new ServerError(describe(), init);
  if (status >= 400) return new BadRequestError(describe(), init);
  return new ScangateError(describe(), init);
}

/** What a Platform (v3) `application/problem+json` body says (RFC 9457, the SDKs' `ErrorModel`). */
interface ProblemFields {
  title: string;
  detail: string | undefined;
  /** `location: message` of each `errors` entry. */
  errors: { location: string | undefined; message: string | undefined }[];
  position: number | undefined;
  token: string | undefined;
}

/** The problem document in a body, or undefined when the body is not one (v1/v2 and proxies). */
function readProblem(fields: Record<string, unknown>): ProblemFields | undefined {
  if (typeof fields.title !== "string" || typeof fields.status !== "number") return undefined;
  if (typeof fields.error_code === "number" || typeof fields.code === "number") return undefined;
  const errors = (Array.isArray(fields.errors) ? fields.errors : []).filter(isRecord).map((entry) => ({
    location: typeof entry.location === "string" ? entry.location : undefined,
    message: typeof entry.message === "string" ? entry.message : undefined,
  }));
  const nested = (Array.isArray(fields.errors) ? fields.errors : []).filter(isRecord)[0] ?? {};
  const position = [fields.position, nested.position].find((v): v is number => typeof v === "number");
  const token = [fields.token, nested.token].find((v): v is string => typeof v === "string");
  return {
    title: fields.title,
    detail: typeof fields.detail === "string" && fields.detail !== "" ? fields.detail : undefined,
    errors,
    position,
    token,
  };
}

/** CenQL inputs: a 400 naming one of them is a query the service could not parse. */
const QUERY_LOCATIONS = new Set(["body.query", "body.field", "query", "field"]);

/**
 * Maps a problem+json answer of the Platform API. The message is `detail` (or `title`) plus
 * each `errors` entry the detail does not already say; a 422 `insufficient balance` is a spent
 * credit allowance (QuotaExceededError, never retried), a 400 naming a CenQL input (or giving a
 * position) an InvalidQueryError.
 */
function errorFromProblem(
  status: number,
  problem: ProblemFields,
  body: unknown,
  headers: Headers,
  request: RequestInfo,
  now: number,
): ScangateError {
  const serviceMessage = problem.detail ?? problem.title;
  const extra = problem.errors.flatMap(({ location, message }) =>
    message === undefined || serviceMessage.includes(message)
      ? []
      : [location === undefined ? message : `${location}: ${message}`],
  );
  const title = problem.detail !== undefined && problem.title !== problem.detail ? `${problem.title}: ` : "";
  const message = `${request.method} ${request.path} failed with ${status}: ${title}${serviceMessage}${
    extra.length > 0 ? ` (${extra.join("; ")})` : ""
  }`;
  const init: ScangateErrorInit = { status, body, request, serviceMessage };
  const messages = problem.errors.map((entry) => entry.message ?? "").join(" ");
  if (status === 422 && /insufficient balance|credit/i.test(`${messages} ${serviceMessage}`)) {
    return new QuotaExceededError(message, init);
  }
  if (status === 429) {
    const retryAfter = parseRetryAfter(headers.get("retry-after"), now);
    const wait = retryAfter === undefined ? "" : ` (retry after ${retryAfter} s)`;
    return new RateLimitError(message + wait, {
      ...init,
      ...(retryAfter === undefined ? {} : { retryAfter }),
    });
  }
  if (status === 401 || status === 403) return new AuthenticationError(message, init);
  if (status === 404) return new NotFoundError(message, init);
  const namesQuery = problem.errors.some(
    (entry) => entry.location !== undefined && QUERY_LOCATIONS.has(entry.location),
  );
  if (status === 400 && (namesQuery || problem.position !== undefined)) {
    return new InvalidQueryError(message, {
      ...init,
      ...(problem.position === undefined ? {} : { position: problem.position }),
      ...(problem.token === undefined ? {} : { token: problem.token }),
    });
  }
  if (status === 502 || status === 504) return new UpstreamError(message, init);
  if (status >= 500) return new ServerError(message, init);
  if (status >= 400) return new BadRequestError(message, init);
  return new ScangateError(message, init);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The quota body has `error_type: quota_exceeded`; the public service words it "full quota". */
function isQuotaBody(fields: Record<string, unknown>): boolean {
  if (fields.error_type === "quota_exceeded") return true;
  if (fields.error_type === "rate_limit_exceeded") return false;
  return typeof fields.error === "string" && /quota/i.test(fields.error);
}

/** v1 answers 400 for a query that cannot be run (parse failure or time-out), per the spec. */
function isQueryFailure(fields: Record<string, unknown>, message: string | undefined): boolean {
  if (typeof fields.position === "number" || typeof fields.token === "string") return true;
  return message !== undefined && /pars|syntax|timed out|time-out|timeout/i.test(message);
}

/** `resets_at` as the account endpoint spells it (`YYYY-MM-DD hh:mm:ss`, UTC) or ISO 8601. */
export function parseResetsAt(value: unknown): Date | undefined {
  if (typeof value !== "string") return undefined;
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/.test(value)
    ? `${value.replace(" ", "T")}Z`
    : value;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

function describeBody(body: unknown): string {
  if (body === undefined || body === "") return "empty body";
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
