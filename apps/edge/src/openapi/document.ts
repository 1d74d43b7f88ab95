import { OpenAPIHono } from "@hono/zod-openapi";
import { API_ROUTES } from "../routes/api";
import { openApiOperation, type OperationShape } from "./operation";
import { COMPONENT_SCHEMAS, jsonSchema } from "./schemas";

// The admin API's routes are not yet definitions of their own: their shapes are listed here.
interface AdminRoute {
  method: string;
  path: string;
  shape: OperationShape;
}

const ADMIN_ROUTES: AdminRoute[] = [
  {
    method: "POST",
    path: "/admin/tenants",
    shape: {
      summary: "Create a tenant (its secret is shown only here)",
      body: "TenantCreateBody",
      ok: "TenantWithSecret",
      created: true,
    },
  },
  { method: "GET", path: "/admin/tenants", shape: { summary: "List tenants", ok: "TenantList" } },
  { method: "GET", path: "/admin/tenants/:id", shape: { summary: "Show a tenant", ok: "Tenant" } },
  {
    method: "PATCH",
    path: "/admin/tenants/:id",
    shape: {
      summary: "Change allowance, period, tier, disabled, name, email or used",
      body: "TenantPatchBody",
      ok: "Tenant",
    },
  },
  { method: "DELETE", path: "/admin/tenants/:id", shape: { summary: "Delete a tenant", ok: "Tenant" } },
  {
    method: "POST",
    path: "/admin/tenants/:id/rotate",
    shape: {
      summary: "Rotate the secret, optionally keeping the old one for a grace period",
      body: "TenantRotateBody",
      ok: "TenantWithSecret",
    },
  },
  {
    method: "DELETE",
    path: "/admin/cache/:index/:id",
    shape: { summary: "Purge one cached document", ok: "CachePurgeResult" },
  },
  {
    method: "GET",
    path: "/admin/audit",
    shape: { summary: "The audit log, newest first", query: "auditList", ok: "AuditList" },
  },
  {
    method: "GET",
    path: "/admin/usage",
    shape: { summary: "Hourly usage rollups, newest first", query: "usageList", ok: "UsageList" },
  },
];

/** The OpenAPI 3.1 document of the edge: the Censys routes it serves and its admin API. */
export function buildOpenApiDocument(serverUrl: string): Record<string, unknown> {
  const generator = new OpenAPIHono();
  const registry = generator.openAPIRegistry;
  // Every component, referenced or not, as JSON Schema 2020-12 (what OpenAPI 3.1 uses) from zod.
  for (const [name, schema] of Object.entries(COMPONENT_SCHEMAS)) {
    registry.registerComponent("schemas", name, jsonSchema(schema));
  }
  registry.registerComponent("securitySchemes", "tenantBasic", {
    type: "http",
    scheme: "basic",
    description: "Tenant API ID as user name, secret as password",
  });
  registry.registerComponent("securitySchemes", "adminBearer", {
    type: "http",
    scheme: "bearer",
    description: "The ADMIN_TOKEN secret",
  });
  for (const route of API_ROUTES) registry.registerPath(route.openapi);
  for (const route of ADMIN_ROUTES) {
    registry.registerPath(
      openApiOperation(route.method, route.path, route.shape, "admin", {
        tags: ["Admin"],
        security: [{ adminBearer: [] }],
      }),
    );
  }
  return generator.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "scangate edge",
      version: "1.0.0",
      description:
        "A team endpoint for the Censys Search API v1 and v2 hosts: every tenant authenticates with its own " +
        "API ID and secret (HTTP Basic); documents are cached and shared; each tenant has a quota " +
        "(x-quota-cost per call; cache hits are free by default) and a burst limit. The admin API manages tenants.",
    },
    servers: [{ url: serverUrl }],
    tags: [{ name: "Censys v1" }, { name: "Censys v2" }, { name: "Admin" }],
  }) as unknown as Record<string, unknown>;
}
