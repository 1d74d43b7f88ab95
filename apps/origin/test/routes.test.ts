import { OpenAPIHono } from "@hono/zod-openapi";
import { v1ErrorSchema, v2ErrorSchema } from "@scangate/core";
import { describe, expect, it } from "vitest";
import { ORIGIN_ROUTES } from "../src/routes";
import { call } from "./support/requests";
import { concreteRoutes } from "./support/routes";

describe("the route definitions", () => {
  it("define each method and path once", () => {
    const keys = ORIGIN_ROUTES.map((route) => `${route.definition.method} ${route.definition.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("describe every route in an OpenAPI document", () => {
    const documented = new OpenAPIHono();
    for (const { definition } of ORIGIN_ROUTES) documented.openAPIRegistry.registerPath(definition);
    const document = documented.getOpenAPI31Document({
      openapi: "3.1.0",
      info: { title: "scangate origin", version: "1" },
    });
    const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    expect(operations.sort()).toEqual(
      ORIGIN_ROUTES.map((route) => `${route.definition.method} ${route.definition.path}`).sort(),
    );
  });

  /** The methods each concrete path is served with (the tag and comment paths take several). */
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of concreteRoutes()) {
    const methods = methodsByPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    methodsByPath.set(route.path, methods);
  }

  it.each(concreteRoutes())("answer another method on $method $path with 405 and Allow", async (route) => {
    const served = methodsByPath.get(route.path) ?? new Set<string>();
    const other = ["POST", "GET", "PATCH"].find((method) => !served.has(method)) ?? "PATCH";
    const res = await call(other, route.path, { body: other === "GET" ? undefined : {} });
    expect(res.status).toBe(405);
    const allowed = (res.headers.get("Allow") ?? "").split(", ").sort();
    expect(allowed).toEqual([...served, ...(served.has("GET") ? ["HEAD"] : [])].sort());
    const body: unknown = await res.json();
    if (route.path.startsWith("/api/v1/"))
      expect(v1ErrorSchema.parse(body)).toEqual({ error_code: 405, error: "method not allowed" });
    else expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 405, status: "Method Not Allowed" });
  });
});
