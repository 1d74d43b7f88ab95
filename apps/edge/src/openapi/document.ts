import { operationCost } from "../quota/costs";
import { API_ROUTES, type ApiRoute } from "../routes/api/catalog";
import {
  type ComponentName,
  COMPONENT_SCHEMAS,
  jsonSchema,
  QUERY_SCHEMAS,
  type QuerySchemaName,
} from "./schemas";

interface Shape {
  body?: ComponentName;
  query?: QuerySchemaName;
  /** The 200 answer; "file" for a download. */
  ok: ComponentName | "file";
  created?: boolean;
}

/** What each Censys route takes and answers, keyed `METHOD path` as in the route catalog. */
const CENSYS_SHAPES: Record<string, Shape> = {
  "POST /api/v1/query": { body: "QueryJobStartBody", ok: "QueryJob" },
  "GET /api/v1/query/:job_id": { ok: "QueryJob" },
  "GET /api/v1/query/:job_id/:page": { ok: "QueryResultsPage" },
  "GET /api/v1/query_definitions": { ok: "SeriesList" },
  "GET /api/v1/query_definitions/:series": { ok: "SeriesDetails" },
  "GET /api/v1/data": { ok: "RawSeriesList" },
  "GET /api/v1/data/:series": { ok: "RawSeriesDetails" },
  "GET /api/v1/data/:series/:result": { ok: "RawResultDetails" },
  "GET /api/v1/data/:series/:result/files/:label": { ok: "file" },
  "POST /api/v1/export": { body: "ExportStartBody", ok: "ExportJob" },
  "GET /api/v1/export/:job_id": { ok: "ExportJob" },
  "GET /api/v1/export/:job_id/files/:file": { ok: "file" },
  "POST /api/v1/search/:index": { body: "SearchBody", ok: "SearchResponse" },
  "GET /api/v1/view/:index/:id": { ok: "V1Document" },
  "POST /api/v1/report/:index": { body: "ReportBody", ok: "ReportResponse" },
  "POST /api/v1/bulk/:index": { body: "BulkBody", ok: "BulkResponse" },
  "GET /api/v1/account": { ok: "Account" },
  "GET /api/v2/hosts/aggregate": { query: "hostsAggregate", ok: "HostsAggregateResponse" },
  "GET /api/v2/hosts/search": { query: "hostsSearch", ok: "HostsSearchResponse" },
  "GET /api/v2/hosts/:ip": { query: "hostView", ok: "HostResponse" },
};

interface AdminRoute {
  method: string;
  path: string;
  summary: string;
  shape: Shape;
}

const ADMIN_ROUTES: AdminRoute[] = [
  {
    method: "POST",
    path: "/admin/tenants",
    summary: "Create a tenant (its secret is shown only here)",
    shape: { body: "TenantCreateBody", ok: "TenantWithSecret", created: true },
  },
  { method: "GET", path: "/admin/tenants", summary: "List tenants", shape: { ok: "TenantList" } },
  { method: "GET", path: "/admin/tenants/:id", summary: "Show a tenant", shape: { ok: "Tenant" } },
  {
    method: "PATCH",
    path: "/admin/tenants/:id",
    summary: "Change allowance, period, tier, disabled, name, email or used",
    shape: { body: "TenantPatchBody", ok: "Tenant" },
  },
  { method: "DELETE", path: "/admin/tenants/:id", summary: "Delete a tenant", shape: { ok: "Tenant" } },
  {
    method: "POST",
    path: "/admin/tenants/:id/rotate",
    summary: "Rotate the secret, optionally keeping the old one for a grace period",
    shape: { body: "TenantRotateBody", ok: "TenantWithSecret" },
  },
  {
    method: "DELETE",
    path: "/admin/cache/:index/:id",
    summary: "Purge one cached document",
    shape: { ok: "CachePurgeResult" },
  },
  {
    method: "GET",
    path: "/admin/audit",
    summary: "The audit log, newest first",
    shape: { query: "auditList", ok: "AuditList" },
  },
  {
    method: "GET",
    path: "/admin/usage",
    summary: "Hourly usage rollups, newest first",
    shape: { query: "usageList", ok: "UsageList" },
  },
];

const ref = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (name: ComponentName) => ({ content: { "application/json": { schema: ref(name) } } });

/** `/api/v2/hosts/:ip{[0-9a-f.:]+}` → `/api/v2/hosts/{ip}`, with the parameter names. */
function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = path.replace(/:([a-z_]+)(\{[^}]*\})?/g, (_, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: converted, params };
}

function queryParameters(name: QuerySchemaName | undefined) {
  if (!name) return [];
  const schema = jsonSchema(QUERY_SCHEMAS[name]) as {
    properties?: Record<string, unknown>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([param, paramSchema]) => ({
    name: param,
    in: "query",
    required: schema.required?.includes(param) ?? false,
    schema: paramSchema,
  }));
}

function errorResponses(version: "v1" | "v2" | "admin") {
  const shape: ComponentName = version === "v1" ? "V1Error" : "V2Error";
  const responses: Record<string, unknown> = {
    "400": { description: "Bad request", ...jsonContent(shape) },
    "404": { description: "Not found", ...jsonContent(shape) },
  };
  if (version === "admin") {
    responses["401"] = { description: "Missing or wrong admin token", ...jsonContent("V2Error") };
    return responses;
  }
  responses[version === "v1" ? "403" : "401"] = {
    description: "Missing or wrong tenant credentials, or a disabled tenant",
    ...jsonContent(version === "v1" ? "V1Unauthorized" : "V2Error"),
  };
  responses["429"] = {
    description: "Burst limit (`rate_limit_exceeded`) or quota exhausted (`quota_exceeded`); see Retry-After",
    ...jsonContent(version === "v1" ? "V1RateLimited" : "V2RateLimited"),
  };
  responses["502"] = {
    description: "The upstream failed or answered something that is not JSON",
    ...jsonContent(shape),
  };
  responses["504"] = { description: "The upstream did not answer in time", ...jsonContent(shape) };
  return responses;
}

function operation(
  summary: string,
  shape: Shape,
  path: string,
  version: "v1" | "v2" | "admin",
  extra: Record<string, unknown>,
) {
  const { params } = openApiPath(path);
  const ok =
    shape.ok === "file"
      ? {
          description: "The file",
          content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
        }
      : { description: "Success", ...jsonContent(shape.ok) };
  return {
    summary,
    ...extra,
    parameters: [
      ...params.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
      ...queryParameters(shape.query),
    ],
    ...(shape.body ? { requestBody: { required: true, ...jsonContent(shape.body) } } : {}),
    responses: { [shape.created ? "201" : "200"]: ok, ...errorResponses(version) },
  };
}

function censysOperation(route: ApiRoute) {
  const shape = CENSYS_SHAPES[`${route.method} ${route.path}`];
  if (!shape) throw new Error(`no OpenAPI shape for ${route.method} ${route.path}`);
  const cached = route.handler === "view" || route.handler === "bulk" || route.handler === "host_view";
  return operation(route.summary, shape, route.path, route.version, {
    tags: [route.version === "v1" ? "Censys v1" : "Censys v2"],
    security: [{ tenantBasic: [] }],
    "x-quota-cost": operationCost(route.operation),
    ...(cached ? { "x-cached": true } : {}),
  });
}

/** The OpenAPI 3.1 document of the edge: the Censys routes it serves and its admin API. */
export function buildOpenApiDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (path: string, method: string, op: unknown) => {
    const key = openApiPath(path).path;
    paths[key] = { ...paths[key], [method.toLowerCase()]: op };
  };
  for (const route of API_ROUTES) add(route.path, route.method, censysOperation(route));
  for (const route of ADMIN_ROUTES) {
    add(
      route.path,
      route.method,
      operation(route.summary, route.shape, route.path, "admin", {
        tags: ["Admin"],
        security: [{ adminBearer: [] }],
      }),
    );
  }
  const schemas = Object.fromEntries(
    Object.entries(COMPONENT_SCHEMAS).map(([name, schema]) => [name, jsonSchema(schema)]),
  );
  return {
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
    paths,
    components: {
      schemas,
      securitySchemes: {
        tenantBasic: {
          type: "http",
          scheme: "basic",
          description: "Tenant API ID as user name, secret as password",
        },
        adminBearer: { type: "http", scheme: "bearer", description: "The ADMIN_TOKEN secret" },
      },
    },
  };
}
