/**
 * What each Platform (v3) operation costs in credits: the one table (V3_OPERATIONS names its
 * row). Sources, Censys's "Credits for Core and Enterprise Organizations" and the SDK's own
 * remarks (`src/funcs/*.ts`, 0.12.5):
 *
 * - most API actions cost 1 credit; every page of up to 100 search results costs 1 (so each
 *   page of a search, global or within a collection, is 1);
 * - the bulk host, certificate and web property lookups cost 1 credit per asset retrieved;
 * - Live Rescan 10; Live Discovery 15; get scan status 0;
 * - host history for a certificate 5 per page of results;
 * - CensEye value counts 1 per count condition; a CensEye job 44 for a host, 28 for a web
 *   property, 7 for a certificate;
 * - host enrichment consumes no standard credits (a daily call allowance instead: limits.ts);
 * - the SDK says "does not cost any credits" of: collections (create, get, list, update,
 *   delete, events), tags, tag assignments and operations, comments, and every account
 *   management call (organization, members, invitations, credits and usage).
 *
 * Not published, so ours: DNS resolutions, service history and the web property timeline cost
 * 1 per call as "most API actions" do; reading a CensEye job, its results and the job list
 * cost nothing, as reading a scan's status costs nothing.
 *
 * `per` says what `credits` multiplies: `call` once per successful call, `asset` each asset
 * the answer holds (unknown ids cost nothing), `condition` each count condition of the body,
 * `target` the price of the kind of asset the job targets (`targets`). Failed calls are never
 * charged.
 */
export type V3CenseyeTargetKind = "host" | "webproperty" | "certificate";

export type CreditCost =
  | { readonly per: "call" | "asset" | "condition"; readonly credits: number }
  | {
      readonly per: "target";
      /** The most a call costs. */
      readonly credits: number;
      readonly targets: Readonly<Record<V3CenseyeTargetKind, number>>;
    };

const FREE = { per: "call", credits: 0 } as const;
const ONE = { per: "call", credits: 1 } as const;

export const CREDIT_COSTS = {
  // Global data: lookups.
  v3_host: ONE,
  v3_hosts: { per: "asset", credits: 1 },
  v3_host_timeline: ONE,
  v3_host_services: ONE,
  v3_host_enrichment: FREE,
  v3_certificate: ONE,
  v3_certificate_raw: ONE,
  v3_certificates: { per: "asset", credits: 1 },
  v3_certificates_raw: { per: "asset", credits: 1 },
  v3_webproperty: ONE,
  v3_webproperties: { per: "asset", credits: 1 },
  v3_webproperty_timeline: ONE,
  // Global data: DNS resolutions.
  v3_dns_ip_bounds: ONE,
  v3_dns_ip_ranges: ONE,
  v3_dns_name_bounds: ONE,
  v3_dns_name_ranges: ONE,
  // Global data: search (routes wired with the CenQL dialect).
  v3_search_query: ONE,
  v3_search_aggregate: ONE,
  v3_search_convert: ONE,
  // Global data: scans.
  v3_scan_rescan: { per: "call", credits: 10 },
  v3_scan: FREE,
  // Collections: managing them is free; searching one costs as global search does.
  v3_collection_create: FREE,
  v3_collections: FREE,
  v3_collection: FREE,
  v3_collection_update: FREE,
  v3_collection_delete: FREE,
  v3_collection_events: FREE,
  v3_collection_search_query: ONE,
  v3_collection_search_aggregate: ONE,
  // Tags, assignments, bulk operations and comments.
  v3_tag_create: FREE,
  v3_tags: FREE,
  v3_tag: FREE,
  v3_tag_update: FREE,
  v3_tag_delete: FREE,
  v3_tag_assignment_create: FREE,
  v3_tag_assignments: FREE,
  v3_tag_assignment_delete: FREE,
  v3_tag_bulk_create: FREE,
  v3_tag_bulk_delete: FREE,
  v3_tag_operations: FREE,
  v3_tag_operation: FREE,
  v3_tag_operation_cancel: FREE,
  v3_comment_create: FREE,
  v3_comments: FREE,
  v3_comment_update: FREE,
  v3_comment_delete: FREE,
  // Threat hunting.
  v3_censeye_job_create: {
    per: "target",
    credits: 44,
    targets: { host: 44, webproperty: 28, certificate: 7 },
  },
  v3_censeye_jobs: FREE,
  v3_censeye_job: FREE,
  v3_censeye_job_results: FREE,
  v3_value_counts: { per: "condition", credits: 1 },
  v3_certificate_host_observations: { per: "call", credits: 5 },
  v3_scan_discovery: { per: "call", credits: 15 },
  v3_threat_hunting_scan: FREE,
  v3_threats: ONE,
  // Account management.
  v3_organization: FREE,
  v3_organization_credits: FREE,
  v3_organization_credit_usage: FREE,
  v3_member_credit_usage: FREE,
  v3_organization_members: FREE,
  v3_organization_invite: FREE,
  v3_organization_member_update: FREE,
  v3_organization_member_remove: FREE,
  v3_user_credits: FREE,
  v3_user_credit_usage: FREE,
} as const satisfies Record<string, CreditCost>;

export type CreditOperation = keyof typeof CREDIT_COSTS;

/** What a call was charged for: how many assets or count conditions, or the kind of target. */
export interface CreditUnits {
  assets?: number;
  conditions?: number;
  target?: V3CenseyeTargetKind;
}

/**
 * Credits a successful call of `operation` costs. `units` is the assets it answered with (a
 * number, as the bulk lookups count them) or what the call was made of.
 */
export function creditsFor(operation: CreditOperation, units: number | CreditUnits = {}): number {
  const cost: CreditCost = CREDIT_COSTS[operation];
  const counted = typeof units === "number" ? { assets: units } : units;
  switch (cost.per) {
    case "call":
      return cost.credits;
    case "asset":
      return cost.credits * (counted.assets ?? 0);
    case "condition":
      return cost.credits * (counted.conditions ?? 0);
    case "target":
      return counted.target === undefined ? cost.credits : cost.targets[counted.target];
  }
}
