import type { z } from "zod";
import { ORIGIN_ROUTES } from "../../src/routes";
import type { OriginRoute } from "../../src/routing";

export const FINGERPRINT_A = "a".repeat(64);
export const UNKNOWN_JOB_ID = `job_${"0".repeat(32)}`;

export interface ConcreteRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  body?: unknown;
}

/** Values for each path parameter, by name; the first the route's params schema takes is used. */
const PARAM_VALUES: Record<string, readonly string[]> = {
  index: ["ipv4", "certificates"],
  id: ["1.1.1.1"],
  ip: ["1.1.1.1"],
  sha256: [FINGERPRINT_A],
  job_id: [UNKNOWN_JOB_ID],
  page: ["1"],
  series: ["ipv4"],
  result: ["20240515T2359"],
  label: ["hosts"],
  name: ["x.csv"],
  fingerprint: [FINGERPRINT_A],
  tag_id: [`tag_${"0".repeat(32)}`],
  comment_id: [`cmt_${"0".repeat(32)}`],
};

/** A request body for each operation that takes one. */
const BODIES: Record<string, unknown> = {
  search: { query: "*" },
  report: { query: "", field: "location.country" },
  bulk: { fingerprints: [FINGERPRINT_A] },
  query_start: { query: "SELECT 1" },
  export_start: { query: "SELECT 1" },
  tag_create: { name: "a-tag" },
  tag_update: { name: "a-tag" },
  comment_create: { contents: "a note" },
  comment_update: { contents: "a note" },
};

/** A query string for each operation whose route takes one that matters. */
const QUERIES: Record<string, string> = {
  hosts_search: "q=",
  hosts_aggregate: "field=services.port",
};

function fillParams(route: OriginRoute): string {
  const { path, request } = route.definition;
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? "");
  let chosen: Record<string, string> = {};
  const choose = (i: number): boolean => {
    const name = names[i];
    if (name === undefined) {
      const schema = request?.params as z.ZodType | undefined;
      return schema === undefined || schema.safeParse(chosen).success;
    }
    for (const value of PARAM_VALUES[name] ?? []) {
      chosen = { ...chosen, [name]: value };
      if (choose(i + 1)) return true;
    }
    return false;
  };
  if (!choose(0)) throw new Error(`no sample value fits the parameters of ${path}`);
  return path.replace(/\{(\w+)\}/g, (_, name: string) => chosen[name] ?? "");
}

/**
 * A concrete request for every route of ORIGIN_ROUTES under `/api` (path parameters filled in,
 * a body for POST routes), for the checks every route must pass.
 */
export function concreteRoutes(): ConcreteRequest[] {
  return ORIGIN_ROUTES.filter((route) => route.definition.path.startsWith("/api/")).map((route) => {
    const method = route.definition.method.toUpperCase() as ConcreteRequest["method"];
    const query = route.definition.request?.query ? QUERIES[route.operation] : undefined;
    const path = fillParams(route) + (query === undefined ? "" : `?${query}`);
    if (method !== "POST" && !(method === "PUT" && route.operation in BODIES)) return { method, path };
    if (!(route.operation in BODIES)) throw new Error(`no sample body for ${route.operation}`);
    return { method, path, body: BODIES[route.operation] };
  });
}
