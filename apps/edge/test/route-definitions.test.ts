import { describe, expect, it } from "vitest";
import { CACHED_OPERATIONS, operationPrices, tenantRoutes } from "../src/pipeline/catalog";
import { buildRequest, workerFetch } from "./support/requests";

interface Operation {
  "x-price"?: unknown;
  "x-operation"?: string;
  "x-cached"?: boolean;
}

describe("the route definitions", () => {
  it("define each method and path once", () => {
    const keys = tenantRoutes().map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("give routes that share an operation the same legacy price, and that table prices every operation", () => {
    const prices = operationPrices();
    for (const route of tenantRoutes()) {
      expect(prices.get(route.operation), route.path).toEqual(
        "untranslated" in route.price.legacy ? undefined : route.price.legacy,
      );
    }
    expect(prices.get("search")).toEqual({ credits: 1, per: "request" });
    expect(prices.get("account")).toEqual({ credits: 0, per: "request" });
    // An operation no route has (an old usage row's) has no price, and prototype names are not operations.
    for (const name of ["no_such_operation", "constructor", "__proto__", "toString", "hasOwnProperty"]) {
      expect(prices.get(name), name).toBeUndefined();
    }
  });

  it("mark the routes the cache serves, and only those", () => {
    expect([...CACHED_OPERATIONS].sort()).toEqual([
      "bulk",
      "certificate_hosts",
      "host_names",
      "host_view",
      "v3_certificate",
      "v3_certificate_raw",
      "v3_certificates",
      "v3_host",
      "v3_hosts",
      "v3_webproperties",
      "v3_webproperty",
      "view",
    ]);
  });

  it("are what /openapi.json describes: path, parameter patterns, price in both modes and cache flag", async () => {
    const res = await workerFetch(buildRequest("GET", "/openapi.json"));
    const doc = await res.json<{ paths: Record<string, Record<string, Operation>> }>();
    for (const route of tenantRoutes()) {
      const path = route.path
        .replace(/:([a-z_]+)(\{[^}]*\})?/g, "{$1}")
        .replace(/\/\*$/, "/{operation_path}");
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${path}`).toBeDefined();
      expect(op?.["x-price"], `${route.method} ${path}`).toEqual({
        legacy: route.price.legacy,
        platform: route.price.platform,
      });
      expect(op?.["x-operation"]).toBe(route.operation);
      expect(op?.["x-cached"] ?? false).toBe(route.cache.kind !== "none");
    }
  });

  it("carry the router's parameter patterns where a parameter is narrower than a segment", () => {
    // The export download takes only a number.
    const patterned = tenantRoutes().filter((route) => /\{[^}]+\}/.test(route.path));
    expect(patterned.map((route) => route.operation).sort()).toEqual(["export_download"]);
  });
});
