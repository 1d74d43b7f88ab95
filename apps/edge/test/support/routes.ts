import type { ApiRoute } from "../../src/api/define-route";
import { API_ROUTES } from "../../src/routes/api";

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
