import { OpenAPIHono } from "@hono/zod-openapi";
import { ADMIN_ROUTES } from "../routes/admin";
import { tenantRoutes } from "../pipeline/catalog";
import { type Component, jsonSchema } from "./components";
import { componentsOf } from "./operation";

/** Every component the route definitions name, once; one name for two schemas is an error. */
export function routeComponents(): Component[] {
  const byName = new Map<string, Component>();
  const shapes = [
    ...tenantRoutes().map((route) => componentsOf(route, route.api)),
    ...ADMIN_ROUTES.map((route) => componentsOf(route, "admin")),
  ];
  for (const found of shapes.flat()) {
    const known = byName.get(found.name);
    if (known && known.schema !== found.schema) {
      throw new Error(`two schemas are named ${found.name} in the route definitions`);
    }
    byName.set(found.name, found);
  }
  return [...byName.values()];
}

/** The OpenAPI 3.1 document of the edge: the Censys routes it serves and its admin API. */
export function buildOpenApiDocument(serverUrl: string): Record<string, unknown> {
  const generator = new OpenAPIHono();
  const registry = generator.openAPIRegistry;
  // The components the routes refer to, as JSON Schema 2020-12 (what OpenAPI 3.1 uses) from zod.
  for (const { name, schema } of routeComponents())
    registry.registerComponent("schemas", name, jsonSchema(schema));
  const schemes = {
    tenantBasic: { scheme: "basic", description: "Tenant API ID as user name, secret as password" },
    tenantBearer: {
      scheme: "bearer",
      description: "The tenant's scangate Platform token (the Platform API, /v3)",
    },
    adminBearer: { scheme: "bearer", description: "The ADMIN_TOKEN secret" },
  };
  for (const [name, scheme] of Object.entries(schemes)) {
    registry.registerComponent("securitySchemes", name, { type: "http", ...scheme });
  }
  for (const route of [...tenantRoutes(), ...ADMIN_ROUTES]) registry.registerPath(route.openapi);
  return generator.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "scangate edge",
      version: "1.0.0",
      description:
        "A team endpoint for the Censys Search API v1 and v2 hosts and the Censys Platform API (/v3): every " +
        "tenant authenticates with its own API ID and secret (HTTP Basic) or its Platform token (bearer); " +
        "documents are cached and shared; each tenant has a quota and a burst limit. `x-price` says what a " +
        "request costs with a legacy and with a Platform-only upstream (credits per request, per asset or " +
        "per page; cache hits are free by default; `untranslated`: a 501 with a Platform-only upstream). " +
        "The admin API manages tenants.",
    },
    servers: [{ url: serverUrl }],
    tags: [{ name: "Censys v1" }, { name: "Censys v2" }, { name: "Censys Platform" }, { name: "Admin" }],
  }) as unknown as Record<string, unknown>;
}
