import { ApiError } from "@scangate/core";
import type { Upstream, UpstreamAnswer, UpstreamCall } from "./interface";

/** An upstream answer read in full and proven to be JSON. */
export interface Relayed {
  readonly status: number;
  /** The upstream's bytes, unchanged. */
  readonly body: Uint8Array;
  /** The body as text, where the relay decoded it already (a cached row keeps it). */
  readonly text?: string;
  readonly json: unknown;
  readonly contentType: string;
  readonly retryAfter: string | null;
  readonly credentialId: string;
}

class DeadlineExceeded extends Error {
  override readonly name = "DeadlineExceeded";
}

/** Runs `work` with an abort signal that fires after `ms`; past it the call fails at once. */
export async function withDeadline<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new DeadlineExceeded());
      reject(new DeadlineExceeded());
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Maps a failure to reach or read the upstream to the edge's 502 / 504. */
export function upstreamFailure(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DeadlineExceeded)
    return new ApiError("upstream_timeout", undefined, undefined, { cause: error });
  return new ApiError("upstream_error", "upstream service unreachable; retry later", undefined, {
    cause: error,
  });
}

/**
 * Sends with `send` and reads the whole answer within `timeoutMs`: a 504 past it, a 502 when
 * unreachable. A body with no type is taken as JSON.
 */
export async function readWithin(
  timeoutMs: number,
  send: (signal: AbortSignal) => Promise<UpstreamAnswer>,
): Promise<Omit<Relayed, "text" | "json">> {
  return withDeadline(timeoutMs, async (signal) => {
    const { response, credentialId } = await send(signal);
    return {
      status: response.status,
      body: new Uint8Array(await response.arrayBuffer()),
      contentType: response.headers.get("content-type") ?? "application/json",
      retryAfter: response.headers.get("retry-after"),
      credentialId,
    };
  }).catch((error: unknown) => {
    throw upstreamFailure(error);
  });
}

export const CREDENTIALS_REFUSED = "upstream service refused the gateway's credentials; tell the operator";

/**
 * Refuses to relay an answer that contains an upstream credential (a debug page, a proxy error
 * that echoes it must not leak it), and a 401: the upstream refused every credential of the
 * pool, the gateway's fault, not the caller's. Both are a 502; `refused` says the 401's.
 */
export function guardAnswer(
  upstream: Pick<Upstream, "revealsCredential">,
  status: number,
  text: string,
  refused = CREDENTIALS_REFUSED,
): void {
  if (upstream.revealsCredential(text)) {
    console.error("upstream answer contained an upstream credential; withheld");
    throw new ApiError("upstream_error");
  }
  if (status === 401) throw new ApiError("upstream_error", refused);
}

const NOT_JSON = "upstream service answered with a body that is not JSON; retry later";

/**
 * Sends `call` and reads the whole answer within `timeoutMs`. Non-JSON or truncated bodies
 * become a 502 and a late answer a 504 (thrown as ApiError), as do the answers `guardAnswer` refuses.
 */
export async function relayJson(
  upstream: Upstream,
  call: Omit<UpstreamCall, "signal">,
  timeoutMs: number,
): Promise<Relayed> {
  const relayed = await readWithin(timeoutMs, (signal) => upstream.call({ ...call, signal }));
  let json: unknown;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(relayed.body);
    json = JSON.parse(text);
  } catch (cause) {
    throw new ApiError("upstream_error", NOT_JSON, { upstream_status: relayed.status }, { cause });
  }
  guardAnswer(upstream, relayed.status, text);
  return { ...relayed, text, json };
}

/**
 * The upstream's answer as the caller gets it: status, bytes and content type unchanged, with
 * `headers` of the edge's own. Bodies are read whole, so no length or encoding header of the
 * upstream's is kept; a status that has no body (204, 205, 304) gets none.
 */
export function relayedResponse(
  relayed: Pick<Relayed, "status" | "body" | "contentType" | "retryAfter">,
  headers: Readonly<Record<string, string>> = {},
): Response {
  const all: Record<string, string> = { ...headers, "content-type": relayed.contentType };
  if (relayed.retryAfter !== null) all["retry-after"] = relayed.retryAfter;
  const bodiless = relayed.status === 204 || relayed.status === 205 || relayed.status === 304;
  return new Response(bodiless ? null : relayed.body, { status: relayed.status, headers: all });
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}
