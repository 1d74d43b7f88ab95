/**
 * What each Platform (v3) operation costs in credits: the one table. From Censys's "Credits for
 * Core and Enterprise Organizations": most API actions cost 1 credit; every additional page of
 * 100 search results costs 1 more (so each page of `global/search/query` is 1); the bulk host,
 * certificate and web property endpoints cost 1 credit for each asset retrieved. Reading the
 * organization's own account (details, credits, usage) costs nothing.
 *
 * `per: "call"` charges `credits` once per successful call; `per: "asset"` charges `credits` for
 * each asset the answer holds (unknown ids cost nothing). Failed calls are never charged.
 */
export type CreditCost = { readonly per: "call" | "asset"; readonly credits: number };

export const CREDIT_COSTS = {
  // Global data: lookups.
  v3_host: { per: "call", credits: 1 },
  v3_hosts: { per: "asset", credits: 1 },
  v3_host_timeline: { per: "call", credits: 1 },
  v3_certificate: { per: "call", credits: 1 },
  v3_certificate_raw: { per: "call", credits: 1 },
  v3_certificates: { per: "asset", credits: 1 },
  v3_certificates_raw: { per: "asset", credits: 1 },
  v3_webproperty: { per: "call", credits: 1 },
  v3_webproperties: { per: "asset", credits: 1 },
  // Global data: search (routes wired with the CenQL dialect).
  v3_search_query: { per: "call", credits: 1 },
  v3_search_aggregate: { per: "call", credits: 1 },
  v3_search_convert: { per: "call", credits: 1 },
  // Account management.
  v3_organization: { per: "call", credits: 0 },
  v3_organization_credits: { per: "call", credits: 0 },
  v3_organization_credit_usage: { per: "call", credits: 0 },
  v3_member_credit_usage: { per: "call", credits: 0 },
} as const satisfies Record<string, CreditCost>;

export type CreditOperation = keyof typeof CREDIT_COSTS;

/** Credits a successful call of `operation` costs, given how many assets it answered with. */
export function creditsFor(operation: CreditOperation, assets: number): number {
  const cost: CreditCost = CREDIT_COSTS[operation];
  return cost.per === "asset" ? cost.credits * assets : cost.credits;
}
