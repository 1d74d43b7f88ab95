import { CREDIT_COSTS, type CreditOperation } from "@scangate/core";

// Which cost table entry (core v3/credit-costs.ts) a /v3 request is, and what it may cost at most
// before its answer is known. Credits are spent from the tenant's one quota ledger (the same
// counter and allowance as legacy queries: see the edge README, "Platform credits").

const ROUTES: readonly { method: "GET" | "POST"; pattern: RegExp; operation: CreditOperation }[] = [
  { method: "GET", pattern: /^\/v3\/global\/asset\/host\/[^/]+\/timeline$/, operation: "v3_host_timeline" },
  { method: "GET", pattern: /^\/v3\/global\/asset\/host\/[^/]+$/, operation: "v3_host" },
  { method: "POST", pattern: /^\/v3\/global\/asset\/host$/, operation: "v3_hosts" },
  { method: "POST", pattern: /^\/v3\/global\/asset\/certificate\/raw$/, operation: "v3_certificates_raw" },
  {
    method: "GET",
    pattern: /^\/v3\/global\/asset\/certificate\/[^/]+\/raw$/,
    operation: "v3_certificate_raw",
  },
  { method: "GET", pattern: /^\/v3\/global\/asset\/certificate\/[^/]+$/, operation: "v3_certificate" },
  { method: "POST", pattern: /^\/v3\/global\/asset\/certificate$/, operation: "v3_certificates" },
  { method: "GET", pattern: /^\/v3\/global\/asset\/webproperty\/[^/]+$/, operation: "v3_webproperty" },
  { method: "POST", pattern: /^\/v3\/global\/asset\/webproperty$/, operation: "v3_webproperties" },
  { method: "POST", pattern: /^\/v3\/global\/search\/query$/, operation: "v3_search_query" },
  { method: "POST", pattern: /^\/v3\/global\/search\/aggregate$/, operation: "v3_search_aggregate" },
  { method: "POST", pattern: /^\/v3\/global\/search\/convert$/, operation: "v3_search_convert" },
  {
    method: "GET",
    pattern: /^\/v3\/accounts\/organizations\/[^/]+\/members\/[^/]+\/credits\/usage$/,
    operation: "v3_member_credit_usage",
  },
  {
    method: "GET",
    pattern: /^\/v3\/accounts\/organizations\/[^/]+\/credits\/usage$/,
    operation: "v3_organization_credit_usage",
  },
  {
    method: "GET",
    pattern: /^\/v3\/accounts\/organizations\/[^/]+\/credits$/,
    operation: "v3_organization_credits",
  },
  { method: "GET", pattern: /^\/v3\/accounts\/organizations\/[^/]+$/, operation: "v3_organization" },
];

/** The list field of each bulk operation's body: its ids are the most assets the answer can hold. */
const BULK_IDS: Partial<Record<CreditOperation, string>> = {
  v3_hosts: "host_ids",
  v3_certificates: "certificate_ids",
  v3_certificates_raw: "certificate_ids",
  v3_webproperties: "webproperty_ids",
};

/** The cost table entry of a request, or null for a path the table does not know (charged 1, as most Platform actions). */
export function platformOperation(method: string, pathname: string): CreditOperation | null {
  const path = pathname.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
  for (const route of ROUTES) {
    if (route.method === method && route.pattern.test(path)) return route.operation;
  }
  return null;
}

/** Whether a call's cost is known only from its answer (a bulk: one credit per asset found). */
export function isVariableCost(operation: CreditOperation | null): boolean {
  return operation !== null && CREDIT_COSTS[operation].per === "asset";
}

/**
 * The most a call can cost, held before it is forwarded: a per-call entry's credits; for a bulk,
 * one per distinct id asked (a body that is not the expected JSON holds nothing: the upstream
 * refuses it with a 4xx, which is never charged).
 */
export function maximumCredits(operation: CreditOperation | null, body: Uint8Array | undefined): number {
  if (operation === null) return 1;
  const cost = CREDIT_COSTS[operation];
  if (cost.per === "call") return cost.credits;
  const ids = bodyIds(body, BULK_IDS[operation] ?? "");
  return ids * cost.credits;
}

function bodyIds(body: Uint8Array | undefined, field: string): number {
  if (!body) return 0;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(body));
    if (typeof parsed !== "object" || parsed === null) return 0;
    const ids = (parsed as Record<string, unknown>)[field];
    return Array.isArray(ids) ? new Set(ids.map((id) => JSON.stringify(id))).size : 0;
  } catch {
    return 0;
  }
}

/**
 * What a successful call really cost, from its answer: per-call entries their credits, a bulk
 * one per asset in `result` (unknown ids are left out and cost nothing). Never more than the
 * hold, so an answer that cannot be read settles to the hold.
 */
export function settledCredits(operation: CreditOperation | null, held: number, answer: Uint8Array): number {
  if (operation === null || CREDIT_COSTS[operation].per === "call") return held;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(answer));
    const result = (parsed as { result?: unknown } | null)?.result;
    if (!Array.isArray(result)) return held;
    return Math.min(held, result.length * CREDIT_COSTS[operation].credits);
  } catch {
    return held;
  }
}
