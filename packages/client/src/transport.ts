import { abortReason, throwIfAborted } from "./abortable-sleep";
import { errorFromResponse } from "./error-mapping";
import { NetworkError, UnexpectedResponseError, type RequestInfo, type ScangateError } from "./errors";
import { decideRetry, type RetryOptions, type RetryState } from "./retry-policy";

/** The slice of `fetch` the client uses; pass a Worker's `SELF.fetch` or a service binding too. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** What the client needs of a schema: core's zod schemas fit it without a zod dependency here. */
export interface WireSchema<T> {
  safeParse(data: unknown):
    | { success: true; data: T }
    | {
        success: false;
        error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> };
      };
}

export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface CallSpec<T> {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Path from the service root, e.g. `/api/v1/account`. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  schema: WireSchema<T>;
  /** The `Accept` header; `application/json` unless given (the Platform API names vendor types). */
  accept?: string;
  /** Safe to send twice (reads): retried after 5xx and network errors. */
  idempotent: boolean;
  signal?: AbortSignal | undefined;
}

export interface RetryEvent {
  request: RequestInfo;
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  error: ScangateError;
}

export interface TransportOptions {
  baseUrl: string;
  /** The full `Authorization` header value, when the client has credentials. */
  authorization: string | undefined;
  fetch: FetchLike;
  retry: RetryOptions;
  /** Per-attempt timeout; a timed-out attempt counts as a network error. */
  timeoutMs: number | undefined;
  validate: boolean;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  onRetry: ((event: RetryEvent) => void) | undefined;
}

/** Sends requests: URL building, auth, retries, error mapping and response validation. */
export class Transport {
  readonly root: string;

  constructor(private readonly options: TransportOptions) {
    this.root = serviceRoot(options.baseUrl);
  }

  /** Sends `spec` and returns its body, validated by `spec.schema`. */
  async call<T>(spec: CallSpec<T>): Promise<T> {
    const { response, request } = await this.send(spec);
    const body = await readBody(response);
    if (body === undefined && response.status !== 204) {
      throw new UnexpectedResponseError(
        `${request.method} ${request.path}: the ${response.status} body is not JSON`,
        {
          status: response.status,
          request,
          issues: ["body: expected JSON"],
        },
      );
    }
    if (!this.options.validate) return body as T;
    const parsed = spec.schema.safeParse(body);
    if (parsed.success) return parsed.data;
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`,
    );
    throw new UnexpectedResponseError(
      `${request.method} ${request.path}: the response does not match the expected shape (${issues.slice(0, 3).join("; ")}${issues.length > 3 ? "; …" : ""})`,
      { status: response.status, body, request, issues },
    );
  }

  /**
   * Sends a GET to an absolute URL (an export file) and returns the raw response. Credentials
   * go only to the service's own origin, never to a third-party file host.
   */
  async download(url: string, signal?: AbortSignal): Promise<Response> {
    const target = new URL(url, this.root);
    const sameOrigin = target.origin === new URL(this.root).origin;
    const { response } = await this.send({
      method: "GET",
      path: target.href,
      schema: { safeParse: (data: unknown) => ({ success: true, data }) },
      idempotent: true,
      signal,
      absolute: true,
      withAuth: sameOrigin,
    });
    return response;
  }

  private async send(
    spec: CallSpec<unknown> & { absolute?: boolean; withAuth?: boolean },
  ): Promise<{ response: Response; request: RequestInfo }> {
    const url = spec.absolute ? spec.path : this.root + spec.path + queryString(spec.query);
    const request: RequestInfo = {
      method: spec.method,
      path: spec.absolute ? url : spec.path + queryString(spec.query),
    };
    const headers: Record<string, string> = { accept: spec.accept ?? "application/json" };
    if (this.options.authorization && spec.withAuth !== false)
      headers.authorization = this.options.authorization;
    if (spec.body !== undefined) headers["content-type"] = "application/json";
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const state: RetryState = { serverRetries: 0, rateLimitRetries: 0 };

    for (;;) {
      throwIfAborted(spec.signal);
      const error = await this.attempt(url, { method: spec.method, headers, body }, request, spec.signal);
      if (error instanceof Response) return { response: error, request };
      const decision = decideRetry(error, state, spec.idempotent, this.options.retry, this.options.random);
      if (!decision.retry) throw error;
      if (decision.reason === "rate_limit") state.rateLimitRetries += 1;
      else state.serverRetries += 1;
      this.options.onRetry?.({
        request,
        attempt: state.rateLimitRetries + state.serverRetries,
        delayMs: decision.delayMs,
        error,
      });
      await this.options.sleep(decision.delayMs, spec.signal);
    }
  }

  /** One attempt: the 2xx response, or the typed error it amounts to. */
  private async attempt(
    url: string,
    init: { method: string; headers: Record<string, string>; body: string | undefined },
    request: RequestInfo,
    signal: AbortSignal | undefined,
  ): Promise<Response | ScangateError> {
    const { timeoutMs } = this.options;
    const timeout = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    const signals = [signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    const combined = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    let response: Response;
    try {
      response = await this.options.fetch(url, { ...init, ...(combined ? { signal: combined } : {}) });
    } catch (cause) {
      // The caller's own abort is not a network failure: it ends the call as the caller asked.
      if (signal?.aborted) throw abortReason(signal);
      const what = timeout?.aborted ? `timed out after ${timeoutMs} ms` : describeCause(cause);
      return new NetworkError(`${request.method} ${request.path} failed: ${what}`, {
        status: 0,
        request,
        cause,
      });
    }
    if (response.ok) return response;
    const body = await readBody(response).catch(() => undefined);
    return errorFromResponse(response.status, body, response.headers, request);
  }
}

/** `https://host/api/` and `https://host` name the same service: paths start at `/api`. */
export function serviceRoot(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TypeError(`baseUrl must be http(s): ${baseUrl}`);
  const path = url.pathname.replace(/\/+$/, "").replace(/\/api$/, "");
  return `${url.origin}${path}`;
}

export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value as readonly string[]) params.append(key, item);
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** JSON when the body parses, the text when it does not, undefined when empty. */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return response.ok ? undefined : text;
  }
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : "";
    return `${cause.message}${inner}`;
  }
  return String(cause);
}
