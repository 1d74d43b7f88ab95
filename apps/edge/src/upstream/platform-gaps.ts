import type { ApiVersion } from "@scangate/core";

// The legacy routes an edge whose upstream speaks only the Censys Platform API cannot answer:
// no Platform call gives what they return. Each answers 501 in its version's error shape,
// saying why and what to use instead (and costs nothing: the edge refunds every non-2xx).

const WHY = "the upstream speaks only the Censys Platform API";

interface Gap {
  readonly pattern: RegExp;
  readonly message: string;
}

const GAPS: readonly Gap[] = [
  {
    pattern: /^\/v1\/query(\/|$)/,
    message: `${WHY}; SQL query jobs have no Platform equivalent (use POST /api/v1/search or /api/v2/hosts/search, or the Platform's /v3/global/search/query)`,
  },
  {
    pattern: /^\/v1\/query_definitions(\/|$)/,
    message: `${WHY}; the SQL query series have no Platform equivalent (use the Platform's /v3/global/search/query)`,
  },
  {
    pattern: /^\/v1\/export(\/|$)/,
    message: `${WHY}; export jobs have no Platform equivalent (page through /api/v2/hosts/search or POST /api/v1/search instead)`,
  },
  {
    pattern: /^\/v1\/data(\/|$)/,
    message: `${WHY}; raw data series and files have no Platform equivalent (use the documents: /api/v2/hosts/{ip}, /api/v1/view/certificates/{sha256})`,
  },
  {
    pattern: /^\/v1\/report(\/|$)/,
    message: `${WHY}; v1 reports are not translated (use GET /api/v2/hosts/aggregate, or the Platform's /v3/global/search/aggregate)`,
  },
  {
    pattern: /^\/v1\/(view|search)\/(ipv4|websites)(\/|$)/,
    message: `${WHY}; only the certificates index is translated (use /api/v2/hosts/{ip} and /api/v2/hosts/search for hosts, the Platform's web properties for websites)`,
  },
  {
    pattern: /^\/v1\/account$/,
    message: `${WHY}; there is no legacy upstream account (GET /api/v1/account through the edge answers with your own)`,
  },
  {
    pattern: /^\/v2\/hosts\/[^/]+\/names$/,
    message: `${WHY}; a host's names have no Platform equivalent (the names are on its certificates: /api/v2/hosts/{ip} and /api/v1/view/certificates/{sha256})`,
  },
  {
    pattern: /^\/v2\/(experimental\/)?hosts\/[^/]+\/(events|diff)$/,
    message: `${WHY}; host events and diffs are not translated (compare /api/v2/hosts/{ip}?at_time=... at two times, or use the Platform's /v3/global/asset/host/{ip}/timeline)`,
  },
  {
    pattern: /^\/v2\/certificates\/[^/]+\/hosts$/,
    message: `${WHY}; hosts by certificate are not translated (search /api/v2/hosts/search?q=services.certificate:{sha256})`,
  },
  {
    pattern: /^\/v2\/metadata(\/|$)/,
    message: `${WHY}; host metadata has no Platform equivalent (aggregate services.service_name with /api/v2/hosts/aggregate)`,
  },
];

const FALLBACK = `${WHY}; this legacy route has no Platform equivalent`;

/** The API version a path below the base belongs to (its error shape). */
export function versionOf(path: string): ApiVersion {
  return path.startsWith("/v2/") ? "v2" : "v1";
}

/** Why `path` (below the API base, without its query) cannot be translated. */
export function gapMessage(path: string): string {
  return GAPS.find((gap) => gap.pattern.test(path))?.message ?? FALLBACK;
}

/**
 * Why a legacy API route (`path` below the API base, e.g. `/v1/query`) has no Platform
 * equivalent, or null when it has one or the edge answers it itself (the tenant's account, tags,
 * comments): such a request is answered 501 before it is charged or rate counted twice.
 */
export function untranslatedRoute(path: string): string | null {
  if (path === "/v1/account") return null;
  return GAPS.find((gap) => gap.pattern.test(path))?.message ?? null;
}

/** The 501 for `path` in its version's error shape (v1 `{error_code, error}`, v2 `{code, status, error}`). */
export function notImplementedResponse(path: string): Response {
  const message = gapMessage(path);
  const body =
    versionOf(path) === "v2"
      ? { code: 501, status: "Not Implemented", error: message }
      : { error_code: 501, error: message };
  return Response.json(body, { status: 501 });
}
