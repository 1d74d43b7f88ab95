import { ApiError } from "@scangate/core";
import { jsonOf } from "../http/json-body";
import { CREDENTIALS_REFUSED, isSuccess, relayedResponse, upstreamFailure, withDeadline } from "./relay";

/** Headers of a file answer worth passing on (not Content-Length/-Encoding: fetch decoded the body). */
const FILE_HEADERS = ["content-type", "content-disposition", "etag", "last-modified"];

/**
 * Streams a file from the upstream: the deadline covers the answer's head, not the download.
 * A failed answer keeps its status and JSON body (the upstream's 404 stays a 404); one that is
 * not JSON becomes a 502.
 */
export async function relayFile(
  timeoutMs: number,
  fetchFile: (signal: AbortSignal) => Promise<Response>,
): Promise<Response> {
  const file = await withDeadline(timeoutMs, fetchFile).catch((error: unknown) => {
    throw upstreamFailure(error);
  });
  if (!isSuccess(file.status)) {
    const body = new Uint8Array(await file.arrayBuffer());
    if (jsonOf(body) === undefined)
      throw new ApiError("upstream_error", "upstream file download failed; retry later");
    if (file.status === 401) throw new ApiError("upstream_error", CREDENTIALS_REFUSED);
    return relayedResponse({
      status: file.status,
      body,
      contentType: "application/json",
      retryAfter: file.headers.get("retry-after"),
    });
  }
  const headers = new Headers();
  for (const name of FILE_HEADERS) {
    const value = file.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(file.body, { status: file.status, headers });
}
