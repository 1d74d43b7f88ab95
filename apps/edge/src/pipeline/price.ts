// What a route costs, declared once in its definition (pipeline/define-route.ts) for each
// upstream mode. The request account (pipeline/account.ts) charges it; /openapi.json and the
// dashboards' cost table read the same declaration.

/** Whether the edge answers the legacy routes from a legacy upstream or from the Platform alone. */
export type UpstreamMode = "legacy" | "platform";

/**
 * Credits per unit. A `request` is charged once, before its upstream call; an `asset` or a
 * `page` is held at its most before the call (the ids or pages asked) and settled to what the
 * answer held; a `condition` (a value count's) and a `credit` (a CensEye job costs its target
 * kind's credits) are read off the request body, held, and kept when the call succeeds. Cache
 * hits are free unless the edge charges them (CACHE_HITS_CHARGED).
 */
export interface Price {
  readonly credits: number;
  readonly per: "request" | "asset" | "page" | "condition" | "credit";
}

/** A route the Platform cannot answer in `platform` mode: a 501 that costs nothing, and why. */
export interface Untranslated {
  readonly untranslated: string;
}

export interface RoutePrice {
  readonly legacy: Price;
  readonly platform: Price | Untranslated;
}

export const FREE: Price = { credits: 0, per: "request" };

/** One credit per request, in either mode. */
export const ONE_PER_REQUEST = inBothModes({ credits: 1, per: "request" });

/** Free in either mode (answered by the edge itself). */
export const ALWAYS_FREE = inBothModes(FREE);

/**
 * A legacy route's price: `legacy` (one query, as the legacy API counts them) with a legacy
 * upstream; with a Platform-only upstream (UPSTREAM_API=platform), `credits` per `per` (request,
 * asset, page): the credits of the /v3 calls upstream/legacy-on-platform.ts turns it into, by
 * core's cost table.
 */
export const translatedPrice = (
  credits: number,
  per: "request" | "asset" | "page" = "request",
  legacy: Price = { credits: 1, per: "request" },
): RoutePrice => ({ legacy, platform: { credits, per } });

/** The same price in both modes (the Platform's own routes: /v3 goes to the Platform either way). */
export function inBothModes(price: Price): RoutePrice {
  return { legacy: price, platform: price };
}

export function isUntranslated(price: Price | Untranslated): price is Untranslated {
  return "untranslated" in price;
}

/** A route's price in `mode`: an untranslated route costs nothing (it answers 501). */
export function priceIn(price: RoutePrice, mode: UpstreamMode): Price {
  const declared = price[mode];
  return isUntranslated(declared) ? FREE : declared;
}
