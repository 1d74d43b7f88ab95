import { CREDIT_COSTS } from "@scangate/core";
import type { Price, RoutePrice } from "../pipeline/price";

// What a legacy call costs when the upstream speaks only the Platform API (UPSTREAM_API=platform):
// the credits of the /v3 calls legacy-on-platform.ts turns it into, by core's cost table. With a
// legacy upstream each costs one query of the tenant's quota, as the legacy API counts them.
// Each translated route states its price in its own definition with `translatedPrice`.

const ONE_QUERY = { credits: 1, per: "request" } as const;

/** `legacy` (one query) with a legacy upstream; `credits` per `per` (request, asset, page) on the Platform. */
export const translatedPrice = (
  credits: number,
  per: "request" | "asset" | "page" = "request",
  legacy: Price = ONE_QUERY,
): RoutePrice => ({ legacy, platform: { credits, per } });

/** A certificate bulk: each certificate answered costs its asset and its PEM, from one bulk call each. */
export const CERTIFICATE_BULK_PRICE = translatedPrice(
  CREDIT_COSTS.v3_certificates.credits + CREDIT_COSTS.v3_certificates_raw.credits,
  "asset",
);
