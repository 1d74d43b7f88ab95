import {
  CREDIT_COSTS,
  creditsFor,
  v3InvalidInputStatus,
  v3Operation,
  V3_BULK_QUERY_FORMS,
  V3_OPERATIONS,
} from "@scangate/core";
import { describe, expect, it } from "vitest";
import { ORIGIN_ROUTES } from "../src/routes";

/**
 * The one table of the Platform's operations (core v3/operations.ts) against what the origin
 * registers: every operation is a route with its method, path, success status and media type,
 * and no v3 route is outside the table.
 */

interface Definition {
  method: string;
  path: string;
  operationId?: string;
  responses: Record<string, { content?: Record<string, unknown> }>;
}

const v3Routes = ORIGIN_ROUTES.filter((route) => route.definition.path.startsWith("/v3/"));
const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

describe("the Platform operations table", () => {
  it("lists the SDK's 65 functions once each", () => {
    expect(V3_OPERATIONS).toHaveLength(65);
    expect(new Set(V3_OPERATIONS.map((o) => o.sdk)).size).toBe(65);
    expect(new Set(V3_OPERATIONS.map((o) => key(o.method, o.path))).size).toBe(65);
  });

  it("is what the origin registers: method, path, operation, success status and media type", () => {
    const registered = new Map(
      v3Routes.map((route) => [key(route.definition.method, route.definition.path), route]),
    );
    for (const operation of [...V3_OPERATIONS, ...V3_BULK_QUERY_FORMS]) {
      const route = registered.get(key(operation.method, operation.path));
      expect(route, operation.sdk).toBeDefined();
      const definition = route!.definition as unknown as Definition;
      expect(definition.operationId).toBe(operation.operationId);
      expect(route!.operation).toBe(operation.operation);
      const success = Object.entries(definition.responses).filter(([status]) => status.startsWith("2"));
      expect(
        success.map(([status]) => Number(status)),
        operation.sdk,
      ).toEqual([operation.status]);
      const types = Object.keys(success[0]?.[1].content ?? {});
      expect(types, operation.sdk).toEqual(operation.mediaType === null ? [] : [operation.mediaType]);
    }
    expect(v3Routes).toHaveLength(V3_OPERATIONS.length + V3_BULK_QUERY_FORMS.length);
  });

  it("gives each bulk lookup the GET form the SDKs before 0.6 send, priced as its POST", () => {
    expect(V3_BULK_QUERY_FORMS.map((o) => `${o.method} ${o.path} ${o.operationId}`)).toEqual([
      "GET /v3/global/asset/host v3-globaldata-asset-host-list",
      "GET /v3/global/asset/certificate v3-globaldata-asset-certificate-list",
      "GET /v3/global/asset/webproperty v3-globaldata-asset-webproperty-list",
    ]);
    for (const form of V3_BULK_QUERY_FORMS) expect(form.operation).toBe(v3Operation(form.sdk).operation);
  });

  it("prices every operation from CREDIT_COSTS", () => {
    for (const operation of V3_OPERATIONS)
      expect(CREDIT_COSTS[operation.operation], operation.sdk).toBeDefined();
    expect(creditsFor("v3_censeye_job_create", { target: "webproperty" })).toBe(28);
    expect(creditsFor("v3_value_counts", { conditions: 3 })).toBe(3);
    expect(creditsFor("v3_scan_rescan")).toBe(10);
    expect(creditsFor("v3_hosts", 4)).toBe(4);
    expect(creditsFor("v3_tag_create")).toBe(0);
  });

  it("answers invalid input with 400 where the SDK declares it, else 422", () => {
    const status = (sdk: string) => v3InvalidInputStatus(v3Operation(sdk));
    expect(status("globalDataSearch")).toBe(400);
    expect(status("tagsAndCommentsCreateTag")).toBe(422);
    expect(status("accountManagementGetUserCredits")).toBe(400);
    expect(() => v3Operation("noSuchFunction")).toThrow();
  });
});
