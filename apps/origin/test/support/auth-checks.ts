import { env } from "cloudflare:workers";
import { v1UnauthorizedErrorSchema, v2ErrorSchema } from "@scangate/core";
import { describe, expect, it } from "vitest";
import { basicAuth, call, configuredAccount } from "./requests";

export interface ProtectedRoute {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  body?: unknown;
}

function versionOf(path: string): "v1" | "v2" {
  return path.startsWith("/api/v1/") ? "v1" : "v2";
}

async function expectRefused(route: ProtectedRoute, auth: string | null): Promise<void> {
  const before = await env.DB.prepare(
    "select coalesce(sum(used), 0) as used, count(*) as n from account_usage",
  ).first();
  const res = await call(route.method, route.path, { body: route.body, auth });
  const body: unknown = await res.json();
  if (versionOf(route.path) === "v1") {
    // The spec's v1 refusal: 403 with the `unathorized` (sic) body.
    expect(res.status).toBe(403);
    expect(v1UnauthorizedErrorSchema.parse(body).error).toMatch(/API ID and secret/);
  } else {
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toBe('Basic realm="scangate"');
    expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 401, status: "Unauthorized" });
  }
  const after = await env.DB.prepare(
    "select coalesce(sum(used), 0) as used, count(*) as n from account_usage",
  ).first();
  expect(after).toEqual(before);
}

/** The same authentication checks, generated for every protected route. */
export function describeAuthChecks(routes: readonly ProtectedRoute[]): void {
  for (const route of routes) {
    describe(`${route.method} ${route.path} authentication`, () => {
      const account = configuredAccount();
      it("refuses a request without credentials", () => expectRefused(route, null));
      it("refuses a wrong secret", () =>
        expectRefused(route, basicAuth(account.api_id, `${account.api_secret}x`)));
      it("refuses an unknown API ID", () => expectRefused(route, basicAuth("nobody", account.api_secret)));
      it("refuses a secret that is a prefix of the real one", () =>
        expectRefused(route, basicAuth(account.api_id, account.api_secret.slice(0, -1))));
      it("refuses a non-Basic scheme", () => expectRefused(route, `Bearer ${account.api_secret}`));
      it("refuses Basic credentials that are not base64", () => expectRefused(route, "Basic ***"));
      it("refuses Basic credentials without a colon", () =>
        expectRefused(route, `Basic ${btoa(account.api_id)}`));
      it("lets the configured account through", async () => {
        const res = await call(route.method, route.path, { body: route.body });
        expect([401, 403]).not.toContain(res.status);
        expect(res.status).toBeLessThan(500);
      });
    });
  }
}
