import { ApiError } from "@scangate/core";
import type { Upstream, UpstreamCall } from "./interface";

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

const NOT_JSON = "upstream service answered with a body that is not JSON; retry later";

/**
 * Sends `call` and reads the whole answer within `timeoutMs`. Non-JSON or truncated bodies
 * become a 502 and a late answer a 504 (thrown as ApiError). A 401 means the upstream refused
 * every credential of the pool, which is the gateway's fault, not the caller's: also a 502.
 */
export async function relayJson(
  upstream: Upstream,
  call: Omit<UpstreamCall, "signal">,
  timeoutMs: number,
): Promise<Relayed> {
  const relayed = await withDeadline(timeoutMs, async (signal) => {
    const { response, credentialId } = await upstream.call({ ...call, signal });
    const body = new Uint8Array(await response.arrayBuffer());
    return { response, credentialId, body };
  }).catch((error: unknown) => {
    throw upstreamFailure(error);
  });
  const { response, credentialId, body } = relayed;
  let json: unknown;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(body);
    json = JSON.parse(text);
  } catch (cause) {
    throw new ApiError("upstream_error", NOT_JSON, { upstream_status: response.status }, { cause });
  }
  if (upstream.revealsCredential(text)) {
    // An upstream that echoes our credential (a debug page, a proxy error) must not leak it.
    console.error("upstream answer contained an upstream credential; withheld");
    throw new ApiError("upstream_error");
  }
  if (response.status === 401) {
    throw new ApiError(
      "upstream_error",
      "upstream service refused the gateway's credentials; tell the operator",
    );
  }
  return {
    status: response.status,
    body,
    text,
    json,
    contentType: response.headers.get("content-type") ?? "application/json",
    retryAfter: response.headers.get("retry-after"),
    credentialId,
  };
}

/** The upstream's answer as the caller gets it: status, bytes and content type unchanged. */
export function relayedResponse(
  relayed: Pick<Relayed, "status" | "body" | "contentType" | "retryAfter">,
): Response {
  const headers = new Headers({ "content-type": relayed.contentType });
  if (relayed.retryAfter !== null) headers.set("retry-after", relayed.retryAfter);
  return new Response(relayed.body, { status: relayed.status, headers });
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}
