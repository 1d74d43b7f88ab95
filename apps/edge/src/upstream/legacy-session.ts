import { type ApiVersion, type ErrorKind, errorStatus, renderErrorBody, wrapV2 } from "@scangate/core";
import type { PlatformTally } from "./interface";
import type { PlatformUpstream } from "./platform";

// What every legacy-on-Platform translation shares: the /v3 calls of one request through the
// Platform pool, and the legacy answers (success envelopes, errors, a Platform problem mapped).

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

export function legacyJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers });
}

/** A legacy error body of `kind` in `version`, with its status. */
export function legacyError(
  kind: ErrorKind,
  version: ApiVersion,
  message?: string,
  extra?: Record<string, unknown>,
) {
  return new LegacyAnswer(
    legacyJson(renderErrorBody(kind, version, message, extra), errorStatus(kind, version)),
  );
}

/** The v2 success envelope around `result`. */
export const v2Ok = (result: unknown): Response => legacyJson(wrapV2(result));

const problemDetail = (answer: V3Answer): string | undefined => {
  const body = answer.json;
  if (body === null || typeof body !== "object") return undefined;
  const { detail, title } = body as { detail?: unknown; title?: unknown };
  return typeof detail === "string" ? detail : typeof title === "string" ? title : undefined;
};

/**
 * A Platform problem as the legacy error: 404 stays a 404, a refused input (400, 422) is the
 * legacy bad query or bad request with the Platform's detail, 429 keeps its Retry-After, 401
 * stays 401 (the relay turns it into the gateway's 502), anything else is the upstream's failure.
 */
export function legacyProblem(answer: V3Answer, version: ApiVersion, inputKind: ErrorKind): LegacyAnswer {
  switch (answer.status) {
    case 404:
      return legacyError("not_found", version);
    case 400:
    case 422:
      return legacyError(inputKind, version, problemDetail(answer));
    case 401:
      return new LegacyAnswer(legacyJson(renderErrorBody("unauthorized", version), 401));
    case 429:
      return new LegacyAnswer(
        legacyJson(
          renderErrorBody("rate_limited", version),
          429,
          answer.retryAfter ? { "retry-after": answer.retryAfter } : {},
        ),
      );
    default:
      return legacyError(
        "upstream_error",
        version,
        answer.status === 403
          ? "the Platform refused the gateway's tokens; tell the endpoint's operator"
          : `the Platform upstream answered HTTP ${answer.status}; retry later`,
      );
  }
}

/** The /v3 calls of one translated request, through the Platform pool, sharing its abort signal. */
export class PlatformSession {
  /** The pool entry that answered last (the legacy answer's credential id). */
  credentialId = "platform";

  constructor(
    private readonly platform: PlatformUpstream,
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
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, text, json, retryAfter: response.headers.get("retry-after") };
  }

  /** The `result` of a successful JSON answer; any other answer is thrown as its legacy error. */
  async result(
    method: string,
    target: string,
    body: unknown,
    version: ApiVersion,
    inputKind: ErrorKind = "bad_request",
  ): Promise<unknown> {
    const answer = await this.send(method, target, body);
    if (answer.status < 200 || answer.status >= 300) throw legacyProblem(answer, version, inputKind);
    const json = answer.json as { result?: unknown } | undefined;
    if (json === undefined || json === null || typeof json !== "object" || !("result" in json)) {
      throw legacyError(
        "upstream_error",
        version,
        "the Platform upstream answered with no result; retry later",
      );
    }
    return json.result;
  }
}
