import { CREDIT_COSTS } from "@scangate/core";
import { V1_SEARCH_PAGE_MAX } from "./legacy-certificates";

// What a legacy call costs in Platform credits when the upstream speaks only the Platform API
// (UPSTREAM_API=platform): the credits of the /v3 calls legacy-on-platform.ts turns it into, by
// core's cost table. Calls translated into one /v3 call (a host view, a hosts search page, an
// aggregate) cost their route's 1, as in legacy mode; the certificate calls cost more. A cached
// answer saves what its call would have cost (counted in the credits saved).

/** A host view (at a point in time too): the host asset. */
export const HOST_VIEW_CREDITS = CREDIT_COSTS.v3_host.credits;

/** A certificate view: the certificate asset and its raw PEM (the v1 `raw`), one call each. */
export const CERTIFICATE_VIEW_CREDITS =
  CREDIT_COSTS.v3_certificate.credits + CREDIT_COSTS.v3_certificate_raw.credits;

/** Each certificate a bulk answers: its asset and its PEM, from one bulk call each. */
export const BULK_CERTIFICATE_CREDITS =
  CREDIT_COSTS.v3_certificates.credits + CREDIT_COSTS.v3_certificates_raw.credits;

/**
 * A v1 certificate search page: one Platform search per page up to it (the Platform pages by
 * token). `pages`, the pages the answer says there are, tells how far the search went when the
 * page asked is past the last one; without it, the most it can cost. Pages past
 * V1_SEARCH_PAGE_MAX are refused before any search.
 */
export function certificateSearchCredits(page: number, pages?: number): number {
  const asked = Math.min(Math.max(1, page), V1_SEARCH_PAGE_MAX);
  const searched = pages === undefined ? asked : Math.min(asked, Math.max(1, pages));
  return searched * CREDIT_COSTS.v3_search_query.credits;
}
