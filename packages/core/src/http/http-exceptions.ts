import type { ErrorKind } from "../errors";

/** The statuses Hono's own middleware throw (as `HTTPException`), as our error kinds. */
const HTTP_EXCEPTION_KINDS: ReadonlyMap<number, ErrorKind> = new Map([
  [400, "bad_request"],
  [401, "unauthorized"],
  [403, "forbidden"],
  [404, "not_found"],
  [405, "method_not_allowed"],
  [413, "payload_too_large"],
  [415, "unsupported_media_type"],
]);

/**
 * The error kind an `HTTPException` of `status` is answered with: the table's kind, otherwise
 * `internal` for a 5xx and `bad_request` for any other status (a client error is never a 500).
 */
export function errorKindOfHttpStatus(status: number): ErrorKind {
  return HTTP_EXCEPTION_KINDS.get(status) ?? (status >= 500 ? "internal" : "bad_request");
}
