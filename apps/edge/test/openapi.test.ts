import { describe, expect, it } from "vitest";
import { API_ROUTES } from "../src/routes/api";
import { buildRequest, workerFetch } from "./support/requests";

interface Doc {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        parameters: Array<{ name: string; in: string; required: boolean }>;
        responses: Record<string, unknown>;
        security: unknown[];
      }
    >
  >;
  components: { schemas: Record<string, Record<string, unknown>> };
}

async function document(): Promise<Doc> {
  const res = await workerFetch(buildRequest("GET", "/openapi.json"));
  expect(res.status).toBe(200);
  return res.json<Doc>();
}

function refs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, found));
  else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      if (key === "$ref" && typeof v === "string") found.push(v);
      else refs(v, found);
    }
  }
  return found;
}

describe("GET /openapi.json", () => {
  it("describes every Censys route the edge serves, with Basic auth and path parameters", async () => {
    const doc = await document();
    expect(doc.openapi).toBe("3.1.0");
    for (const route of API_ROUTES) {
      const path = route.path.replace(/:([a-z_]+)(\{[^}]*\})?/g, "{$1}");
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${path}`).toBeDefined();
      expect(op?.security).toEqual([{ tenantBasic: [] }]);
      for (const [, name] of path.matchAll(/\{([a-z_]+)\}/g)) {
        expect(op?.parameters).toContainEqual(expect.objectContaining({ name, in: "path", required: true }));
      }
      const success = route.ok === "empty" ? "204" : "200";
      expect(Object.keys(op?.responses ?? {})).toEqual(
        expect.arrayContaining([success, "429", "502", "504"]),
      );
    }
    expect(doc.paths["/api/v2/hosts/aggregate"]?.get?.parameters).toContainEqual(
      expect.objectContaining({ name: "field", in: "query", required: true }),
    );
  });

  it("describes the admin API with bearer auth", async () => {
    const doc = await document();
    expect(Object.keys(doc.paths["/admin/tenants"] ?? {}).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/admin/tenants/{id}"] ?? {}).sort()).toEqual(["delete", "get", "patch"]);
    expect(doc.paths["/admin/tenants/{id}/rotate"]?.post?.security).toEqual([{ adminBearer: [] }]);
    expect(doc.paths["/admin/cache/{index}/{id}"]?.delete).toBeDefined();
    expect(doc.paths["/admin/audit"]?.get).toBeDefined();
    expect(doc.paths["/admin/comments/{id}"]?.delete?.security).toEqual([{ adminBearer: [] }]);
  });

  it("takes its schemas from the core wire schemas, and every reference resolves", async () => {
    const doc = await document();
    expect(doc.components.schemas.Account).toMatchObject({ type: "object" });
    expect(doc.components.schemas.Account?.required).toEqual(expect.arrayContaining(["login", "quota"]));
    expect(doc.components.schemas.TenantWithSecret?.required).toEqual(expect.arrayContaining(["api_secret"]));
    for (const ref of refs(doc)) {
      expect(doc.components.schemas[ref.replace("#/components/schemas/", "")], ref).toBeDefined();
    }
  });
});
