import type { ApiVersion } from "../errors";
import { getPath } from "hono/utils/url";

/**
 * The request's path with `//` collapsed and a trailing `/` dropped: the official client joins
 * its base URL and the endpoint with a `/`, so a base URL given with a trailing slash yields
 * `/api//v2/...`. Both workers route on this path (Hono's `getPath` option).
 */
export function lenientPath(request: Request): string {
  const path = getPath(request).replace(/\/{2,}/g, "/");
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/**
 * The error body shape of a path: v1 routes speak v1, everything else (v2, the admin API,
 * unknown paths) speaks v2.
 */
export function versionOfPath(path: string): ApiVersion {
  return path === "/api/v1" || path.startsWith("/api/v1/") ? "v1" : "v2";
}
