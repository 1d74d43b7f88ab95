import type { FetchLike } from "../../../src/index";
import { edgeFetch } from "./stack";

export interface RecordedRequest {
  method: string;
  url: string;
  body: unknown;
}

/**
 * Passes every request to the real edge and records it, with how many were in flight at
 * once, so tests can see what the client sent (chunks, cursors, retries).
 */
export function recordingFetch(inner: FetchLike = edgeFetch) {
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let peak = 0;
  const fetch: FetchLike = async (input, init) => {
    const body = typeof init.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
    requests.push({ method: init.method ?? "GET", url: input, body });
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    try {
      return await inner(input, init);
    } finally {
      inFlight -= 1;
    }
  };
  return { fetch, requests, peak: () => peak };
}

/**
 * Answers the first `faults.length` requests with the given faults instead of sending them,
 * then passes requests to the real edge: 429/5xx answers and network failures on demand.
 */
export function faultyFetch(faults: (Response | Error)[], inner: FetchLike = edgeFetch) {
  const recorder = recordingFetch(async (input, init) => {
    const fault = faults.shift();
    if (fault instanceof Error) throw fault;
    if (fault) return fault;
    return inner(input, init);
  });
  return recorder;
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}
