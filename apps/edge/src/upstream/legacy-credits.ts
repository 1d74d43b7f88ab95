import { CREDIT_COSTS } from "@scangate/core";
import { FREE, type Price, type RoutePrice } from "../pipeline/price";
import { V1_SEARCH_PAGE_MAX } from "./legacy-v1";

// What a legacy call costs when the upstream speaks only the Platform API (UPSTREAM_API=platform):
// the credits of the /v3 calls legacy-on-platform.ts turns it into, by core's cost table. With a
// legacy upstream each costs one query of the tenant's quota, as the legacy API counts them.
// These are the declared prices of the translated routes (pipeline/price.ts).

const ONE_QUERY = { credits: 1, per: "request" } as const;

/** `legacy` (one query) with a legacy upstream; `credits` per `per` (request, asset, page) on the Platform. */
const onPlatform = (
  credits: number,
  per: "request" | "asset" | "page" = "request",
  legacy: Price = ONE_QUERY,
): RoutePrice => ({ legacy, platform: { credits, per } });

/** A host view (at a point in time too): the host asset. */
export const HOST_VIEW_PRICE = onPlatform(CREDIT_COSTS.v3_host.credits);

/** A certificate view: the certificate asset and its raw PEM (the v1 `raw`), one call each. */
export const CERTIFICATE_VIEW_PRICE = onPlatform(
  CREDIT_COSTS.v3_certificate.credits + CREDIT_COSTS.v3_certificate_raw.credits,
);

/** A certificate bulk: each certificate answered costs its asset and its PEM, from one bulk call each. */
export const CERTIFICATE_BULK_PRICE = onPlatform(
  CREDIT_COSTS.v3_certificates.credits + CREDIT_COSTS.v3_certificates_raw.credits,
  "asset",
);

/** A v1 search page (any index): one Platform search per page it walks (one when an earlier page left its token). */
export const V1_SEARCH_PRICE = onPlatform(CREDIT_COSTS.v3_search_query.credits, "page");

/** A v2 hosts search page or aggregate: one Platform search or aggregate. */
export const HOSTS_SEARCH_PRICE = onPlatform(CREDIT_COSTS.v3_search_query.credits);

/** A v1 report (any index): one Platform aggregate. */
export const V1_REPORT_PRICE = onPlatform(CREDIT_COSTS.v3_search_aggregate.credits);

/** A v1 ipv4 or websites view: the host asset, or one search for the web properties of the name (1 each). */
export const V1_VIEW_PRICE = onPlatform(
  Math.max(CREDIT_COSTS.v3_host.credits, CREDIT_COSTS.v3_search_query.credits),
);

/** A page of a host's events: one read of its timeline. */
export const HOST_EVENTS_PRICE = onPlatform(CREDIT_COSTS.v3_host_timeline.credits);

/** A host diff: its two hosts, one lookup each (held for both, settled to the lookups that answered). */
export const HOST_DIFF_PRICE = onPlatform(CREDIT_COSTS.v3_host.credits, "asset");

/** A host's names page: one page of its DNS resolutions. */
export const HOST_NAMES_PRICE = onPlatform(CREDIT_COSTS.v3_dns_ip_bounds.credits);

/** A page of the hosts presenting a certificate: one host search on its fingerprint. */
export const CERTIFICATE_HOSTS_PRICE = onPlatform(CREDIT_COSTS.v3_search_query.credits);

/** Host metadata (free with a legacy upstream): one aggregate of the service names. */
export const HOSTS_METADATA_PRICE = onPlatform(CREDIT_COSTS.v3_search_aggregate.credits, "request", FREE);

/**
 * The most Platform searches a v1 search page costs: one when an earlier page left its token
 * (`kept`), else one per page up to it (pages past V1_SEARCH_PAGE_MAX are refused before any).
 */
export function v1SearchPagesHeld(page: number, kept: boolean): number {
  return kept ? 1 : Math.min(Math.max(1, page), V1_SEARCH_PAGE_MAX);
}
