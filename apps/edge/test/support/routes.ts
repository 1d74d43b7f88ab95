import type { ApiRoute } from "../../src/pipeline/define-route";
import { API_ROUTES } from "../../src/routes/api";
import { PLATFORM_ROUTES } from "../../src/routes/v3";

export const FINGERPRINT_A = "a".repeat(64);

/** A concrete request for every API route the edge serves (path parameters filled in). */
export function concreteRoutes(): Array<{ method: ApiRoute["method"]; path: string; body?: unknown }> {
  const fill: Record<string, string> = {
    ":job_id": "job-1",
    ":page": "1",
    ":series": "ipv4",
    ":result": "20240101T0000",
    ":file": "1",
    ":index": "certificates",
    ":id": FINGERPRINT_A,
    ":ip": "1.1.1.1",
    ":fingerprint": FINGERPRINT_A,
    ":tag_id": "tag_0",
    ":comment_id": "cmt_0",
    ":sha256": FINGERPRINT_A,
  };
  return API_ROUTES.map((route) => {
    const path = route.path.replace(
      /:[a-z_]+(\{[^}]*\})?/g,
      (param) => fill[param.replace(/\{.*$/, "")] ?? "x",
    );
    const body =
      route.method !== "POST" && route.method !== "PUT"
        ? undefined
        : path.includes("/comments")
          ? { contents: "a note" }
          : path.startsWith("/api/v2/tags")
            ? { name: "a-tag" }
            : path.includes("/tags/")
              ? undefined
              : path.includes("/bulk/")
                ? { fingerprints: [FINGERPRINT_A] }
                : path.includes("/report/")
                  ? { query: "*", field: "parsed.issuer_dn" }
                  : { query: "select 1" };
    return { method: route.method, path, body };
  });
}

/** A concrete request for every Platform (/v3) route the edge serves, as a tenant's token sends it. */
export function concretePlatformRoutes(): Array<{
  method: ApiRoute["method"];
  path: string;
  body?: unknown;
}> {
  const fill: Record<string, string> = {
    ":host_id": "1.1.1.1",
    ":certificate_id": FINGERPRINT_A,
    ":webproperty_id": "example.com:443",
    ":organization_id": "00000000-0000-4000-8000-000000000001",
    ":member_id": "00000000-0000-4000-8000-000000000002",
  };
  const bodies: Record<string, unknown> = {
    "/v3/global/asset/host": { host_ids: ["1.1.1.1"] },
    "/v3/global/asset/certificate": { certificate_ids: [FINGERPRINT_A] },
    "/v3/global/asset/certificate/raw": { certificate_ids: [FINGERPRINT_A] },
    "/v3/global/asset/webproperty": { webproperty_ids: ["example.com:443"] },
    "/v3/global/search/query": { query: "host.services.port=22" },
    "/v3/global/search/aggregate": { query: "host.services.port=22", field: "host.services.port" },
    "/v3/global/search/convert": { queries: ["services.port: 22"] },
  };
  return PLATFORM_ROUTES.map((route) => {
    const path = route.path
      .replace(/:[a-z_]+(\{[^}]*\})?/g, (param) => fill[param.replace(/\{.*$/, "")] ?? "x")
      .replace(/\/\*$/, "/global/some/operation");
    const body = route.method === "POST" ? (bodies[path] ?? {}) : undefined;
    return { method: route.method, path, body };
  });
}
