import type { ApiVersion } from "../errors";

/**
 * The error body shape of a path: v1 routes speak v1, everything else (v2, the admin API,
 * unknown paths) speaks v2.
 */
export function versionOfPath(path: string): ApiVersion {
  return path === "/api/v1" || path.startsWith("/api/v1/") ? "v1" : "v2";
}

/** Where a request URL's target (its path, then its query) starts: the `/` after the authority. */
export function targetStart(url: string): number {
  return url.indexOf("/", url.indexOf("//") + 2);
}

/**
 * The path and query of a request URL as the runtime serialised it (what `URL`'s `pathname` and
 * `search` give, an empty `?` being no query), cut from the string: every request asks, and
 * parsing the whole URL again costs more than the answer of a cached document.
 */
export function requestTarget(url: string): { pathname: string; search: string } {
  const start = targetStart(url);
  const query = url.indexOf("?", start);
  if (query === -1) return { pathname: url.slice(start), search: "" };
  return { pathname: url.slice(start, query), search: query === url.length - 1 ? "" : url.slice(query) };
}
