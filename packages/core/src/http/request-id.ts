import type { MiddlewareHandler } from "hono";

/** The header a request id travels in, both ways. */
export const REQUEST_ID_HEADER = "X-Request-Id";
const REQUEST_ID_MAX_LENGTH = 255;
const REQUEST_ID_CHARACTERS = /^[\w\-=]+$/;

/** The caller's own request id when it is a plausible one (as Hono's request-id middleware takes it), else a new UUID. */
export function requestIdOf(sent: string | undefined): string {
  return sent !== undefined && sent.length <= REQUEST_ID_MAX_LENGTH && REQUEST_ID_CHARACTERS.test(sent)
    ? sent
    : crypto.randomUUID();
}

/**
 * Gives every request an id (`c.get("requestId")`, for log lines) and every answer the
 * X-Request-Id header. The header goes on the answer after the route has made it: Hono's own
 * request-id middleware sets it before, where a route that returns a Response of its own (a
 * cached document, a relayed answer) loses it.
 */
export function requestIds(): MiddlewareHandler<{ Variables: { requestId: string } }> {
  return async function requestIds(c, next) {
    const id = requestIdOf(c.req.header(REQUEST_ID_HEADER));
    c.set("requestId", id);
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, id);
  };
}
