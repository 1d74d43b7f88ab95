import type { ApiVersion } from "@scangate/core";
import type { Operation } from "../../quota/costs";

/** Who answers a route: the generic forwarder, or a module with edge behaviour of its own. */
export type RouteHandler = "forward" | "file" | "account" | "view" | "bulk" | "host_view" | "jobs";

export interface ApiRoute {
  readonly method: "GET" | "POST";
  /** Hono path pattern. */
  readonly path: string;
  readonly operation: Operation;
  readonly version: ApiVersion;
  readonly handler: RouteHandler;
  readonly summary: string;
}

/**
 * Every route of the spec (v1 and v2, at the same paths under /api) plus the edge's export
 * download route. Route modules register their own handlers; this list feeds the generic
 * forwarder, the 405 answers, and /openapi.json.
 */
export const API_ROUTES: readonly ApiRoute[] = [
  {
    method: "POST",
    path: "/api/v1/query",
    operation: "query_start",
    version: "v1",
    handler: "jobs",
    summary: "Start a query job",
  },
  {
    method: "GET",
    path: "/api/v1/query/:job_id",
    operation: "query_status",
    version: "v1",
    handler: "jobs",
    summary: "Status of a query job (its owner only)",
  },
  {
    method: "GET",
    path: "/api/v1/query/:job_id/:page",
    operation: "query_results",
    version: "v1",
    handler: "jobs",
    summary: "A page of a query job's results (its owner only)",
  },
  {
    method: "GET",
    path: "/api/v1/query_definitions",
    operation: "query_definitions",
    version: "v1",
    handler: "forward",
    summary: "Series that can be queried",
  },
  {
    method: "GET",
    path: "/api/v1/query_definitions/:series",
    operation: "query_definitions",
    version: "v1",
    handler: "forward",
    summary: "Fields and tables of a series",
  },
  {
    method: "GET",
    path: "/api/v1/data",
    operation: "data",
    version: "v1",
    handler: "forward",
    summary: "Raw-data series",
  },
  {
    method: "GET",
    path: "/api/v1/data/:series",
    operation: "data",
    version: "v1",
    handler: "forward",
    summary: "Scans of a raw-data series",
  },
  {
    method: "GET",
    path: "/api/v1/data/:series/:result",
    operation: "data",
    version: "v1",
    handler: "forward",
    summary: "Files of one raw-data scan",
  },
  {
    method: "GET",
    path: "/api/v1/data/:series/:result/files/:label",
    operation: "data_download",
    version: "v1",
    handler: "file",
    summary: "Download one raw-data file (where the upstream serves it under /api)",
  },
  {
    method: "POST",
    path: "/api/v1/export",
    operation: "export_start",
    version: "v1",
    handler: "jobs",
    summary: "Start an export job",
  },
  {
    method: "GET",
    path: "/api/v1/export/:job_id",
    operation: "export_status",
    version: "v1",
    handler: "jobs",
    summary: "Status of an export job; download_paths point at the edge (its owner only)",
  },
  {
    method: "GET",
    path: "/api/v1/export/:job_id/files/:file",
    operation: "export_download",
    version: "v1",
    handler: "jobs",
    summary: "Download one file of an export job (edge route, its owner only)",
  },
  {
    method: "POST",
    path: "/api/v1/search/:index",
    operation: "search",
    version: "v1",
    handler: "forward",
    summary: "Search an index",
  },
  {
    method: "GET",
    path: "/api/v1/view/:index/:id",
    operation: "view",
    version: "v1",
    handler: "view",
    summary: "One document (cached)",
  },
  {
    method: "POST",
    path: "/api/v1/report/:index",
    operation: "report",
    version: "v1",
    handler: "forward",
    summary: "Aggregate report over a query",
  },
  {
    method: "POST",
    path: "/api/v1/bulk/:index",
    operation: "bulk",
    version: "v1",
    handler: "bulk",
    summary: "Up to 50 certificates (cached per certificate)",
  },
  {
    method: "GET",
    path: "/api/v1/account",
    operation: "account",
    version: "v1",
    handler: "account",
    summary: "The tenant's own account and quota",
  },
  {
    method: "GET",
    path: "/api/v2/hosts/aggregate",
    operation: "hosts_aggregate",
    version: "v2",
    handler: "forward",
    summary: "Aggregate hosts into buckets",
  },
  {
    method: "GET",
    path: "/api/v2/hosts/search",
    operation: "hosts_search",
    version: "v2",
    handler: "forward",
    summary: "Search hosts (cursor pagination)",
  },
  {
    method: "GET",
    path: "/api/v2/hosts/:ip",
    operation: "host_view",
    version: "v2",
    handler: "host_view",
    summary: "One host, optionally at a point in time (cached)",
  },
];

export function routesHandledBy(handler: RouteHandler): ApiRoute[] {
  return API_ROUTES.filter((route) => route.handler === handler);
}
