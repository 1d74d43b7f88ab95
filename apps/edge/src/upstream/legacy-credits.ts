import { CREDIT_COSTS } from "@scangate/core";
import type { RoutePrice } from "../pipeline/price";
import { V1_SEARCH_PAGE_MAX } from "./legacy-certificates";

// What a legacy call costs when the upstream speaks only the Platform API (UPSTREAM_API=platform):
// the credits of the /v3 calls legacy-on-platform.ts turns it into, by core's cost table. With a
// legacy upstream each costs one query of the tenant's quota, as the legacy API counts them.
// These are the declared prices of the translated routes (pipeline/price.ts).

const ONE_QUERY = { credits: 1, per: "request" } as const;

/** A host view (at a point in time too): the host asset. */
export const HOST_VIEW_PRICE: RoutePrice = {
  legacy: ONE_QUERY,
  platform: { credits: CREDIT_COSTS.v3_host.credits, per: "request" },
};

/** A certificate view: the certificate asset and its raw PEM (the v1 `raw`), one call each. */
export const CERTIFICATE_VIEW_PRICE: RoutePrice = {
  legacy: ONE_QUERY,
  platform: {
    credits: CREDIT_COSTS.v3_certificate.credits + CREDIT_COSTS.v3_certificate_raw.credits,
    per: "request",
  },
};

/** A certificate bulk: each certificate answered costs its asset and its PEM, from one bulk call each. */
export const CERTIFICATE_BULK_PRICE: RoutePrice = {
  legacy: ONE_QUERY,
  platform: {
    credits: CREDIT_COSTS.v3_certificates.credits + CREDIT_COSTS.v3_certificates_raw.credits,
    per: "asset",
  },
};

/** A v1 certificate search page: one Platform search per page up to it (the Platform pages by token). */
export const CERTIFICATE_SEARCH_PRICE: RoutePrice = {
  legacy: ONE_QUERY,
  platform: { credits: CREDIT_COSTS.v3_search_query.credits, per: "page" },
};

/** A v2 hosts search page or aggregate: one Platform search or aggregate. */
export const HOSTS_SEARCH_PRICE: RoutePrice = {
  legacy: ONE_QUERY,
  platform: { credits: CREDIT_COSTS.v3_search_query.credits, per: "request" },
};

/**
 * The Platform searches a v1 certificate search page costs: one per page up to it. `pages`,
 * the pages the answer says there are, tells how far the search went when the page asked is
 * past the last one; without it, the most it can cost. Pages past V1_SEARCH_PAGE_MAX are
 * refused before any search.
 */
export function certificateSearchPages(page: number, pages?: number): number {
  const asked = Math.min(Math.max(1, page), V1_SEARCH_PAGE_MAX);
  return pages === undefined ? asked : Math.min(asked, Math.max(1, pages));
}
