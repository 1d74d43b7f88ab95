import {
  type ApiVersion,
  type ErrorKind,
  errorStatus,
  isApiError,
  renderErrorBody,
  requireUtf8Query,
  type V3SearchAggregateResponse,
  v3SearchAggregateResponseSchema,
  type V3SearchQueryResponse,
  v3SearchQueryResponseSchema,
  wrapV2,
} from "@scangate/core";
import { fromBase64Url, toBase64Url } from "@scangate/core/http";
import type { z } from "zod";
import { jsonOf, jsonOfText } from "../http/json-body";
import type { PlatformTally, UpstreamCall } from "./interface";
import { PLATFORM_REFUSED, type PlatformUpstream, problemDetail } from "./platform";

// What every legacy-on-Platform translation shares: the /v3 calls of one request through the
// Platform pool, the legacy request read (query, body, cursor), and the legacy answers (success
// envelopes, errors, a Platform problem mapped).

/** One /v3 answer, read in full. */
export interface V3Answer {
  readonly status: number;
  readonly text: string;
  /** The body as JSON, or undefined when it is not JSON (a PEM file). */
  readonly json: unknown;
  readonly retryAfter: string | null;
}

/** A legacy answer decided before the translation's end (an error the caller gets as it is). */
export class LegacyAnswer extends Error {
  override readonly name = "LegacyAnswer";
  constructor(readonly response: Response) {
    super(`legacy answer ${response.status}`);
  }
}

/** A legacy error body of `kind` in `version`, with its status unless `status` says another. */
export function legacyError(
  kind: ErrorKind,
  version: ApiVersion,
  message?: string,
  extra?: Record<string, unknown>,
  { status = errorStatus(kind, version), headers }: ResponseInit = {},
) {
  return new LegacyAnswer(Response.json(renderErrorBody(kind, version, message, extra), { status, headers }));
}

/** The v2 success envelope around `result`. */
export const v2Ok = (result: unknown): Response => Response.json(wrapV2(result));

/**
 * A Platform problem as the legacy error: 404 stays a 404, a refused input (400, 422) is the
 * legacy bad query or bad request with the Platform's detail, 429 keeps its Retry-After, 401
 * stays 401 (the relay turns it into the gateway's 502), anything else is the upstream's failure.
 */
function legacyProblem(answer: V3Answer, version: ApiVersion, inputKind: ErrorKind): LegacyAnswer {
  switch (answer.status) {
    case 404:
      return legacyError("not_found", version);
    case 400:
    case 422:
      return legacyError(inputKind, version, problemDetail(answer.json));
    case 401:
      return legacyError("unauthorized", version, undefined, undefined, { status: 401 });
    case 429: {
      const headers = answer.retryAfter ? { "retry-after": answer.retryAfter } : undefined;
      return legacyError("rate_limited", version, undefined, undefined, { headers });
    }
    default:
      return legacyError(
        "upstream_error",
        version,
        answer.status === 403
          ? PLATFORM_REFUSED
          : `the Platform upstream answered HTTP ${answer.status}; retry later`,
      );
  }
}

/** `input` read by `schema`; a bad one is the legacy 400 naming its first issue (`root`: the input itself). */
function parsedAs<T extends z.ZodType>(schema: T, input: unknown, version: ApiVersion, root: string) {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw legacyError("bad_request", version, issue && `${issue.path.join(".") || root}: ${issue.message}`);
}

/**
 * A v2 request's query read by `schema`; a bad one is the legacy 400 naming its first issue.
 * With `lists`, a repeated name is a list (`fields`); else its last value is read.
 */
export function v2Query<T extends z.ZodType>(schema: T, url: URL, lists = false): z.output<T> {
  // Escapes that are not UTF-8 would be read as U+FFFD and searched for: refused as the origin does.
  asLegacy("v2", () => requireUtf8Query(url.href));
  const params = [...new Set(url.searchParams.keys())].map((key) => {
    const values = url.searchParams.getAll(key);
    return [key, lists && values.length > 1 ? values : values.at(-1)];
  });
  return parsedAs(schema, Object.fromEntries(params), "v2", "query");
}

/** `read()`, with an error core's input checks throw as the legacy error of `version`. */
export function asLegacy<T>(version: ApiVersion, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (isApiError(error)) throw legacyError(error.kind, version, error.clientMessage, error.extra);
    throw error;
  }
}

/** A v1 request's JSON body read by `schema`; a bad one is the legacy 400 naming its first issue. */
export function v1Body<T extends z.ZodType>(schema: T, call: UpstreamCall): z.output<T> {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(call.body ?? new Uint8Array()));
  } catch {
    throw legacyError("bad_request", "v1", "request body must be JSON");
  }
  return parsedAs(schema, body, "v1", "body");
}

/**
 * The Platform page token (or offset) a v2 cursor carries, null without one. A cursor is bound
 * to the list it pages (`list`: the query, or what names the list) and to the page size; one of
 * another list is refused with `mismatch`, one whose token fails `valid` as not valid.
 */
export function cursorToken(
  text: string | undefined,
  list: string,
  perPage: number,
  mismatch: string,
  valid: (token: string) => boolean = () => true,
): string | null {
  if (text === undefined || text === "") return null;
  const bytes = fromBase64Url(text);
  const cursor = bytes ? jsonOf(bytes) : null;
  const [token, q, size] = Array.isArray(cursor) ? (cursor as unknown[]) : [];
  if (typeof token !== "string" || typeof q !== "string" || typeof size !== "number" || !valid(token))
    throw legacyError("bad_request", "v2", "cursor is not valid");
  if (q !== list || size !== perPage) throw legacyError("bad_request", "v2", mismatch);
  return token;
}

/** The v2 link to the page `token` starts, in `list` at `perPage` a page: none for no token. */
export function cursorLink(token: string, list: string, perPage: number): string {
  return token === "" ? "" : toBase64Url(new TextEncoder().encode(JSON.stringify([token, list, perPage])));
}

/** A legacy call being translated, with the /v3 session its translation calls through. */
export interface LegacyCall {
  readonly session: PlatformSession;
  /** The path parameter the route captures (an address, a fingerprint, an index), as sent; else "". */
  readonly id: string;
  readonly url: URL;
  readonly call: UpstreamCall;
}

/** The /v3 calls of one translated request, through the Platform pool, sharing its abort signal. */
export class PlatformSession {
  /** The pool entry that answered last (the legacy answer's credential id). */
  credentialId = "platform";

  constructor(
    private readonly platform: PlatformUpstream,
    /** The legacy API version of the request: the shape of its errors. */
    readonly version: ApiVersion,
    private readonly signal: AbortSignal,
    /** The edge's clock: the instant time-dependent legacy fields (certificate tags) are judged at. */
    readonly now: () => number,
    /** Where the calls that succeeded (what the Platform charges) are counted, when the route asks. */
    private readonly tally?: PlatformTally,
  ) {}

  async send(method: string, target: string, body?: unknown): Promise<V3Answer> {
    const { response, credentialId } = await this.platform.call({
      method,
      target,
      body: body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body)),
      contentType: body === undefined ? undefined : "application/json",
      signal: this.signal,
    });
    this.credentialId = credentialId;
    if (this.tally && response.status >= 200 && response.status < 300) this.tally.answered += 1;
    const text = new TextDecoder().decode(await response.arrayBuffer());
    const json = jsonOfText(text);
    return { status: response.status, text, json, retryAfter: response.headers.get("retry-after") };
  }

  /** The `result` of a successful JSON answer; any other answer is thrown as its legacy error. */
  async result(
    method: string,
    target: string,
    body?: unknown,
    inputKind: ErrorKind = "bad_request",
  ): Promise<unknown> {
    const answer = await this.send(method, target, body);
    if (answer.status < 200 || answer.status >= 300) throw legacyProblem(answer, this.version, inputKind);
    const json = answer.json as { result?: unknown } | undefined;
    if (typeof json !== "object" || json === null || !("result" in json)) {
      throw legacyError(
        "upstream_error",
        this.version,
        "the Platform upstream answered with no result; retry later",
      );
    }
    return json.result;
  }

  /** A GET's `result` read by `schema`; one it cannot read (`what`: "a timeline") is the upstream's failure. */
  async get<T extends z.ZodType>(schema: T, what: string, target: string): Promise<z.output<T>> {
    return this.readAs(schema, what, await this.result("GET", target));
  }

  /** One page of the Platform's global search: the first, or the one `pageToken` starts. */
  async search(
    body: { query: string; page_size: number },
    pageToken: string | null,
    inputKind?: ErrorKind,
  ): Promise<V3SearchQueryResponse> {
    const asked = pageToken ? { ...body, page_token: pageToken } : body;
    const page = await this.result("POST", "/v3/global/search/query", asked, inputKind);
    return this.readAs(v3SearchQueryResponseSchema, "a search page", page);
  }

  /** An aggregate of the Platform's global search. */
  async aggregate(body: object, inputKind?: ErrorKind): Promise<V3SearchAggregateResponse> {
    const aggregate = await this.result("POST", "/v3/global/search/aggregate", body, inputKind);
    return this.readAs(v3SearchAggregateResponseSchema, "an aggregate", aggregate);
  }

  private readAs<T extends z.ZodType>(schema: T, what: string, result: unknown): z.output<T> {
    const read = schema.safeParse(result);
    if (read.success) return read.data;
    throw legacyError(
      "upstream_error",
      this.version,
      `the Platform upstream answered ${what} we cannot read`,
    );
  }

  /** The `resource` of the host asset of `ip`, now or at `atTime`. */
  async host(ip: string, atTime: string | null | undefined, inputKind?: ErrorKind): Promise<unknown> {
    const query = atTime === undefined || atTime === null ? "" : `?at_time=${encodeURIComponent(atTime)}`;
    const asset = await this.result("GET", `/v3/global/asset/host/${ip}${query}`, undefined, inputKind);
    return (asset as { resource?: unknown }).resource;
  }
}
