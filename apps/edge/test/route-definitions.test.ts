import { describe, expect, it } from "vitest";
import { CACHED_OPERATIONS, operationCost, operationCosts } from "../src/api/catalog";
import { API_ROUTES } from "../src/routes/api";
import { buildRequest, workerFetch } from "./support/requests";

interface Operation {
  "x-quota-cost"?: number;
  "x-operation"?: string;
  "x-cached"?: boolean;
}

describe("the route definitions", () => {
  it("define each method and path once", () => {
    const keys = API_ROUTES.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("give routes that share an operation the same cost, and that table prices every operation", () => {
    const costs = operationCosts();
    for (const route of API_ROUTES) expect(costs.get(route.operation), route.path).toBe(route.cost);
    expect(operationCost("search")).toBe(1);
    expect(operationCost("account")).toBe(0);
    // An operation no route has (an old usage row's) costs nothing, and prototype names are not operations.
    for (const name of ["no_such_operation", "constructor", "__proto__", "toString", "hasOwnProperty"]) {
      expect(operationCost(name), name).toBe(0);
    }
  });

  it("mark the routes the cache serves, and only those", () => {
    expect([...CACHED_OPERATIONS].sort()).toEqual([
      "bulk",
      "certificate_hosts",
      "host_names",
      "host_view",
      "view",
    ]);
  });

  it("are what /openapi.json describes: path, parameter patterns, cost and cache flag", async () => {
    const res = await workerFetch(buildRequest("GET", "/openapi.json"));
    const doc = await res.json<{ paths: Record<string, Record<string, Operation>> }>();
    for (const route of API_ROUTES) {
      const path = route.path.replace(/:([a-z_]+)(\{[^}]*\})?/g, "{$1}");
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${path}`).toBeDefined();
      expect(op?.["x-quota-cost"]).toBe(route.cost);
      expect(op?.["x-operation"]).toBe(route.operation);
      expect(op?.["x-cached"] ?? false).toBe(route.cache.kind !== "none");
    }
  });

  it("carry the router's parameter patterns where a parameter is narrower than a segment", () => {
    // The export download takes only a number.
    const patterned = API_ROUTES.filter((route) => /\{[^}]+\}/.test(route.path));
    expect(patterned.map((route) => route.operation).sort()).toEqual(["export_download"]);
  });
});
