// The soak's traffic: a weighted mix of the edge's routes (cached and uncached views, searches,
// aggregates, bulk, account reads, SQL jobs, and bad requests that must be 4xx), and what each
// answer was charged by the edge's rules (src/quota/billing.ts there): a route's cost when the
// answer is a success the upstream served, nothing for a cache hit, a stale copy or a failure.
import type { SqlEndpoint } from "./sql-jobs";

export interface SoakRequest {
  kind: string;
  method: "GET" | "POST";
  path: string;
  body?: string;
  /** The route's cost, from the edge's /openapi.json (`x-quota-cost`). */
  cost: number;
}

export interface Traffic {
  ips: string[];
  fingerprints: string[];
  /** The next request; account reads and SQL jobs only when their pacing allows. */
  next(allowed: { account: boolean; job: boolean }): SoakRequest;
}

/** What the edge charged for this answer, by its own rules, from what the answer says. */
export function charged(request: SoakRequest, response: Response): number {
  if (response.status < 200 || response.status >= 300) return 0;
  const cache = response.headers.get("cache-status") ?? "";
  if (/;\s*hit\b/.test(cache) || /detail=stale-if-error/.test(cache)) return 0;
  return request.cost;
}

async function json(response: Response, what: string): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as unknown;
}

const pick = <T>(list: readonly T[]): T => {
  const item = list[Math.floor(Math.random() * list.length)];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
};

/** Route templates of the mix, as /openapi.json names them, with their method. */
const ROUTES = {
  view: ["get", "/api/v1/view/{index}/{id}"],
  hostView: ["get", "/api/v2/hosts/{ip}"],
  search: ["get", "/api/v2/hosts/search"],
  aggregate: ["get", "/api/v2/hosts/aggregate"],
  v1Search: ["post", "/api/v1/search/{index}"],
  bulk: ["post", "/api/v1/bulk/{index}"],
  metadata: ["get", "/api/v2/metadata/hosts"],
  account: ["get", "/api/v1/account"],
  query: ["post", "/api/v1/query"],
  queryStatus: ["get", "/api/v1/query/{job_id}"],
} as const;

/** The mix over the local system's dataset (hosts and certificates read from the origin). */
export async function trafficMix(edgeUrl: string, origin: SqlEndpoint, table: string): Promise<Traffic> {
  const headers = { authorization: origin.authorization, "content-type": "application/json" };
  const hostPage = (await json(
    await fetch(`${origin.originUrl}/api/v2/hosts/search?q=*&per_page=100`, { headers }),
    "origin host search",
  )) as { result: { hits: Array<{ ip: string }> } };
  const certificatePage = (await json(
    await fetch(`${origin.originUrl}/api/v1/search/certificates`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query: "*", fields: ["parsed.fingerprint_sha256"], per_page: 100 }),
    }),
    "origin certificate search",
  )) as { results: Array<Record<string, unknown>> };
  const ips = hostPage.result.hits.map((h) => h.ip);
  const fingerprints = certificatePage.results.map((r) => String(r["parsed.fingerprint_sha256"]));
  if (ips.length === 0 || fingerprints.length === 0)
    throw new Error("the local dataset has no hosts or certificates");

  const openapi = (await json(await fetch(`${edgeUrl}/openapi.json`), "edge /openapi.json")) as {
    paths: Record<string, Record<string, { "x-quota-cost"?: number }>>;
  };
  const cost = (route: keyof typeof ROUTES): number => {
    const [method, template] = ROUTES[route];
    const value = openapi.paths[template]?.[method]?.["x-quota-cost"];
    if (typeof value !== "number") throw new Error(`/openapi.json gives no cost for ${method} ${template}`);
    return value;
  };
  const costs = Object.fromEntries(
    Object.keys(ROUTES).map((r) => [r, cost(r as keyof typeof ROUTES)]),
  ) as Record<keyof typeof ROUTES, number>;

  // A few popular documents (mostly cache hits after their first call), and the long tail.
  const popular = { ips: ips.slice(0, 8), fingerprints: fingerprints.slice(0, 8) };
  const someIp = () => (Math.random() < 0.7 ? pick(popular.ips) : pick(ips));
  const someFingerprint = () => (Math.random() < 0.7 ? pick(popular.fingerprints) : pick(fingerprints));
  const queries = ["services.port: 22", "services.service_name: HTTP", "location.country: US", "*"];
  const fields = ["location.country", "services.port", "services.service_name"];

  const mix: Array<[number, () => SoakRequest]> = [
    [
      14,
      () => ({
        kind: "v1 view certificate",
        method: "GET",
        path: `/api/v1/view/certificates/${someFingerprint()}`,
        cost: costs.view,
      }),
    ],
    [
      14,
      () => ({
        kind: "v2 host view",
        method: "GET",
        path: `/api/v2/hosts/${someIp()}`,
        cost: costs.hostView,
      }),
    ],
    [
      8,
      () => ({
        kind: "v1 view ipv4",
        method: "GET",
        path: `/api/v1/view/ipv4/${someIp()}`,
        cost: costs.view,
      }),
    ],
    [
      4,
      () => ({
        kind: "v2 host view at_time",
        method: "GET",
        path: `/api/v2/hosts/${someIp()}?at_time=2026-01-01T00:00:00Z`,
        cost: costs.hostView,
      }),
    ],
    [
      10,
      () => ({
        kind: "v2 search",
        method: "GET",
        path: `/api/v2/hosts/search?q=${encodeURIComponent(pick(queries))}&per_page=5`,
        cost: costs.search,
      }),
    ],
    [
      6,
      () => ({
        kind: "v2 aggregate",
        method: "GET",
        path: `/api/v2/hosts/aggregate?q=*&field=${pick(fields)}&num_buckets=5`,
        cost: costs.aggregate,
      }),
    ],
    [
      8,
      () => ({
        kind: "v1 search",
        method: "POST",
        path: "/api/v1/search/certificates",
        body: JSON.stringify({ query: "*", per_page: 5, page: 1 + Math.floor(Math.random() * 3) }),
        cost: costs.v1Search,
      }),
    ],
    [
      8,
      () => ({
        kind: "bulk",
        method: "POST",
        path: "/api/v1/bulk/certificates",
        body: JSON.stringify({ fingerprints: [someFingerprint(), someFingerprint(), pick(fingerprints)] }),
        cost: costs.bulk,
      }),
    ],
    [3, () => ({ kind: "v2 metadata", method: "GET", path: "/api/v2/metadata/hosts", cost: costs.metadata })],
    [
      8,
      () =>
        pick<SoakRequest>([
          // Each at its route's cost: the edge refuses most before any charge, and whatever it
          // serves after all is charged as the route is.
          { kind: "bad request", method: "GET", path: "/api/v2/hosts/not-an-ip", cost: costs.hostView },
          { kind: "bad request", method: "GET", path: "/api/v1/view/nothing/x", cost: costs.view },
          { kind: "bad request", method: "GET", path: "/api/v2/hosts/search?per_page=0", cost: costs.search },
          {
            kind: "bad request",
            method: "POST",
            path: "/api/v1/search/certificates",
            body: "{",
            cost: costs.v1Search,
          },
          { kind: "bad request", method: "GET", path: "/api/v2/no-such-route", cost: 0 },
          {
            kind: "bad request",
            method: "GET",
            path: `/api/v1/query/job_${"0".repeat(32)}`,
            cost: costs.queryStatus,
          },
        ]),
    ],
  ];
  const total = mix.reduce((sum, [weight]) => sum + weight, 0);
  return {
    ips,
    fingerprints,
    next(allowed) {
      if (allowed.job && Math.random() < 0.5)
        return {
          kind: "sql job",
          method: "POST",
          path: "/api/v1/query",
          body: JSON.stringify({ query: `select ip from "${table}" limit 3` }),
          cost: costs.query,
        };
      if (allowed.account && Math.random() < 0.1)
        return { kind: "account", method: "GET", path: "/api/v1/account", cost: costs.account };
      let roll = Math.random() * total;
      for (const [weight, make] of mix) {
        roll -= weight;
        if (roll < 0) return make();
      }
      return mix[0]?.[1]() as SoakRequest;
    },
  };
}
