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
 * Maps a non-2xx response to its typed error. Works on both v1 bodies (`{error_code, error}`)
 * and v2 bodies (`{code, status, error}`), and on anything else a proxy may put in between.
 */
export function errorFromResponse(
  status: number,
  body: unknown,
  headers: Headers,
  request: RequestInfo,
  now: number = Date.now(),
): ScangateError {
  const fields = isRecord(body) ? body : {};
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
