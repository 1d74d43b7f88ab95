import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { RememberedRoutes } from "../src/http/remembered-routes";
import { concreteRoutes, FINGERPRINT_A } from "./support/routes";

type Handler = (typeof app.routes)[number]["handler"];

const app = createApp();

/** Hono's default router and ours, given every route and middleware of the edge app. */
function routers() {
  const hono = new SmartRouter<Handler>({ routers: [new RegExpRouter(), new TrieRouter()] });
  const remembered = new RememberedRoutes<Handler>();
  for (const { method, path, handler } of app.routes) {
    hono.add(method, path, handler);
    remembered.add(method, path, handler);
  }
  return { hono, remembered };
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Every API route's own path, and paths of the pages, the admin and Platform APIs, and none. */
const PATHS = [
  ...new Set([
    ...concreteRoutes().map((route) => route.path),
    "/",
    "/health",
    "/openapi.json",
    "/dashboard",
    "/dashboard/login",
    "/admin/console/tenants/tnt_1",
    "/admin/tenants/tnt_1",
    "/admin/cache/certificates/abc",
    "/v3/global/asset/host/1.1.1.1",
    "/v3/global/asset/certificate/abc/raw",
    "/v3/global/search/query",
    "/api/v1/view/ipv4/1.1.1.1",
    "/api/v2/hosts/search",
    "/api/v2/hosts/aggregate",
    "/api/v2/hosts/search/extra",
    "/api/v1/export/job-1/files/x",
    "/api/nowhere",
    "/nowhere",
  ]),
];

describe("the edge's router", () => {
  it("is the one the app routes with", () => {
    expect(app.router).toBeInstanceOf(RememberedRoutes);
  });

  it("matches every path and method as Hono's default router does, first time and remembered", () => {
    const { hono, remembered } = routers();
    for (const path of PATHS) {
      for (const method of METHODS) {
        const expected = hono.match(method, path);
        expect(expected[0].length, `${method} ${path}`).toBeGreaterThan(0);
        expect(remembered.match(method, path), `${method} ${path}`).toEqual(expected);
        expect(remembered.match(method, path), `${method} ${path}, again`).toEqual(expected);
      }
    }
  });

  it("gives a path's parameters, remembered or not", () => {
    const { remembered } = routers();
    const path = `/api/v1/view/certificates/${FINGERPRINT_A}`;
    const first = remembered.match("GET", path);
    const again = remembered.match("GET", path);
    expect(again).toBe(first);
    const params = first[0].map(([, found]) => found).find((found) => "id" in (found as object));
    // The certificate view's own route (a fixed index) is registered before the one with `:index`.
    expect(params).toEqual({ id: FINGERPRINT_A });
  });

  it("matches a long path afresh each time, and still right", () => {
    const { hono, remembered } = routers();
    const path = `/api/v1/view/certificates/${"a".repeat(300)}`;
    const first = remembered.match("GET", path);
    expect(first).toEqual(hono.match("GET", path));
    expect(remembered.match("GET", path)).not.toBe(first);
  });

  it("keeps matching right once it has remembered as many paths as it holds", () => {
    const { hono, remembered } = routers();
    for (let i = 0; i < 1100; i++) remembered.match("GET", `/api/v1/view/certificates/${i}`);
    for (const i of [0, 1023, 1024, 1099]) {
      const path = `/api/v1/view/certificates/${i}`;
      expect(remembered.match("GET", path), path).toEqual(hono.match("GET", path));
    }
  });
});
