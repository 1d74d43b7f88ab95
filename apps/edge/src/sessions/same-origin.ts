import type { Context } from "hono";

/**
 * Whether a form POST comes from one of our own pages. Browsers send `Sec-Fetch-Site` and
 * `Origin` on every form POST; when present they must say same-origin. A request with neither
 * is not from a browser (curl, scripts), so it is no cross-site forgery; CSRF tokens still
 * guard every signed-in form.
 */
export function fromSameOrigin(c: Context): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined && site !== "same-origin") return false;
  const origin = c.req.header("origin");
  if (origin !== undefined && origin !== new URL(c.req.url).origin) return false;
  return true;
}
