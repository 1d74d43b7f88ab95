import { type ApiVersion, renderError } from "../errors";
import { renderV3Problem, V3_PROBLEM_MEDIA_TYPE } from "../v3/problem";
import { REQUEST_ID_HEADER, requestIdOf } from "./request-id";
import { requestTarget, targetStart, versionOfPath } from "./paths";

// One spelling of every request path, decided once where a request enters a worker. Routing,
// pricing, authorisation, organization replacement, cache keys and what goes upstream all read
// the request after this, so `/v3/global/asset/%68ost` is `/v3/global/asset/host` to every one
// of them (a decision made from one spelling while another part acts on another is how a priced
// path and a routed path come apart).

/** Characters a path segment keeps as they are (RFC 3986 `pchar` without `%`); the rest are percent-encoded. */
const SEGMENT_SAFE = /[A-Za-z0-9\-._~!$&'()*+,;=:@]/;
/** A path already in canonical form: segments of safe characters alone, none empty, `.` or `..`. */
const CANONICAL_PATH = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9\-._~!$&'()*+,;=:@]+)+$/;

export type CanonicalPath = { ok: true; path: string } | { ok: false; problem: string };

function encodeSegment(segment: string): string {
  let out = "";
  for (const char of segment) out += SEGMENT_SAFE.test(char) ? char : encodeURIComponent(char);
  return out;
}

/**
 * Why a segment does not decode: escapes that are not `%XX`, or bytes that are not UTF-8 text
 * (a lone surrogate such as `%ED%A0%80`, a cut sequence such as `%C3`).
 */
function malformedEscapes(raw: string): string {
  return /%(?![0-9a-fA-F]{2})/.test(raw)
    ? "the request path has malformed percent-encoding"
    : "the request path has malformed percent-encoding: the bytes it encodes are not UTF-8 text (a lone surrogate or a cut sequence)";
}

/**
 * The canonical form of a URL path (as the runtime serialised it: ASCII, percent-encoded):
 * each segment percent-decoded once and encoded again the one way (`encodeSegment`), empty
 * segments (`//`, a trailing `/`) dropped, `.` and `..` resolved after decoding. Refused, with
 * the reason for a 400: malformed percent-encoding, an encoded `/` or `\` inside a segment
 * (decoding it would move a segment boundary), a control character, or `..` above the root.
 */
export function canonicalPath(pathname: string): CanonicalPath {
  if (CANONICAL_PATH.test(pathname)) return { ok: true, path: pathname };
  const segments: string[] = [];
  for (const raw of pathname.split("/")) {
    if (raw === "") continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { ok: false, problem: malformedEscapes(raw) };
    }
    if (segment.includes("/") || segment.includes("\\"))
      return { ok: false, problem: "the request path has an encoded '/' or '\\' inside a segment" };
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(segment))
      return { ok: false, problem: "the request path has a control character" };
    if (segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) return { ok: false, problem: "the request path climbs above its root" };
      segments.pop();
      continue;
    }
    segments.push(encodeSegment(segment));
  }
  return { ok: true, path: `/${segments.join("/")}` };
}

/**
 * The path a worker routes `request` on: its canonical path (still percent-encoded), or, when it
 * has none (the worker refuses it), the path as sent with repeated slashes collapsed. The official
 * client joins its base URL and the endpoint with a `/`, so a base URL with a trailing slash
 * yields `/api//v2/...`: the same route.
 */
export function lenientPath(request: Request): string {
  const { pathname } = requestTarget(request.url);
  const canonical = canonicalPath(pathname);
  if (canonical.ok) return canonical.path;
  // Refused: still name the API the path is under, however its letters were spelled.
  return pathname.replace(/\/{2,}/g, "/").replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9._~-]/.test(char) ? char : escape;
  });
}

export type CanonicalRequest = { ok: true; request: Request } | { ok: false; problem: string };

/**
 * The request with its path in canonical form (the same object when it already was), its query
 * as sent. Only the path moves: method, headers, body and signal are the request's own.
 */
export function canonicalRequest(request: Request): CanonicalRequest {
  const url = request.url;
  const start = targetStart(url);
  const queryAt = url.indexOf("?", start);
  const pathname = queryAt === -1 ? url.slice(start) : url.slice(start, queryAt);
  const canonical = canonicalPath(pathname);
  if (!canonical.ok) return canonical;
  if (canonical.path === pathname) return { ok: true, request };
  const rest = queryAt === -1 ? "" : url.slice(queryAt);
  return { ok: true, request: new Request(url.slice(0, start) + canonical.path + rest, request) };
}

/**
 * The 400 for a path `canonicalRequest` refused, in the body shape of the API the path names
 * (problem+json on /v3, v1 or v2 bodies elsewhere): it is answered before any route is found.
 */
export function refusedTargetResponse(request: Request, problem: string): Response {
  const path = lenientPath(request);
  const platform = path === "/v3" || path.startsWith("/v3/");
  const version: ApiVersion = versionOfPath(path);
  const { status, body } = platform
    ? renderV3Problem("bad_request", problem)
    : renderError("bad_request", version, problem);
  // A HEAD answer has the headers of the GET answer and no body.
  return new Response(request.method === "HEAD" ? null : JSON.stringify(body), {
    status,
    headers: {
      "content-type": platform ? V3_PROBLEM_MEDIA_TYPE : "application/json",
      [REQUEST_ID_HEADER]: requestIdOf(request.headers.get(REQUEST_ID_HEADER) ?? undefined),
      "Cache-Control": "no-store",
    },
  });
}

/**
 * A worker's `fetch` that sees every request in canonical form: a path that has none is
 * answered with `refusedTargetResponse` before the worker sees it.
 */
export function canonicalFetch<Env, Ctx>(
  fetch: (request: Request, env: Env, ctx: Ctx) => Response | Promise<Response>,
): (request: Request, env: Env, ctx: Ctx) => Response | Promise<Response> {
  return (request, env, ctx) => {
    const canonical = canonicalRequest(request);
    return canonical.ok
      ? fetch(canonical.request, env, ctx)
      : refusedTargetResponse(request, canonical.problem);
  };
}
