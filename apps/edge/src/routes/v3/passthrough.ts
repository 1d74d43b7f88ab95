import { ApiError, type V3BulkIdsField, type V3CenseyeTargetKind, v3BulkInputOfQuery } from "@scangate/core";
import { requestTarget } from "@scangate/core/http";
import type { ApiContext } from "../../pipeline/define-route";
import { readRequestBody } from "../../pipeline/exchange";
import { type PlatformRelayed, relayPlatform } from "../../upstream/platform";
import { jsonObject } from "../../http/json-body";
import { isSuccess, relayedResponse } from "../../upstream/relay";

/** The distinct ids a bulk body asks for under `field` (0 for a body that is not that JSON). */
export function bodyIds(body: Uint8Array | undefined, field: string): number {
  const ids = jsonObject(body)?.[field];
  return Array.isArray(ids) ? new Set(ids.map((id) => JSON.stringify(id))).size : 0;
}

/**
 * The distinct ids a bulk's GET query asks for under `field`, read as the upstream reads them
 * (core v3BulkInputOfQuery: comma-separated, a repeated key adding its ids); 0 for none.
 */
export function queryIds(search: string, field: V3BulkIdsField): number {
  const ids = v3BulkInputOfQuery(new URLSearchParams(search), field)[field];
  return Array.isArray(ids) ? new Set(ids).size : 0;
}

/** The kind of asset a CensEye job's body targets (undefined: none, and the upstream refuses it). */
export function censeyeTargetOf(body: Uint8Array | undefined): V3CenseyeTargetKind | undefined {
  const target = jsonObject(body)?.target;
  if (typeof target !== "object" || target === null) return undefined;
  return (["host", "webproperty", "certificate"] as const).find((kind) => `${kind}_id` in target);
}

/** The assets a bulk answer holds (its `result` list), or null when it cannot be read. */
export function answeredAssets(answer: Uint8Array): number | null {
  const result = jsonObject(answer)?.result;
  return Array.isArray(result) ? result.length : null;
}

export interface ForwardOptions {
  /**
   * For a route priced per asset: where the request lists its ids (the most the answer can hold),
   * its JSON body's `field` (a POST) or its query's (a GET).
   */
  readonly ids?: { readonly field: V3BulkIdsField; readonly in: "body" | "query" } | undefined;
  /** For a route priced per condition or per credit: the units its body asks for. */
  readonly units?: ((body: Uint8Array | undefined) => number) | undefined;
}

/**
 * A /v3 request forwarded to the Platform upstream with a pool token and its organization: the
 * caller's token and organization id never leave the edge. The answer keeps its status, bytes
 * and content type (problem+json errors included).
 *
 * Priced by its route (the account): a per-request price is charged before the call (a call that
 * would overspend is refused and never reaches the upstream) and refunded when the call fails
 * (an error status, a 429, a timeout); a per-asset price holds one per distinct id asked, in the
 * body or the query (`ids`), and settles to the assets answered (an answer that cannot be read
 * settles to the hold; a request naming no id holds nothing, for the upstream's own refusal); a
 * price per condition or per credit charges the units its body asks for, as a per-request price
 * does.
 */
export function forwardPlatform(options: ForwardOptions = {}): (c: ApiContext) => Promise<Response> {
  return async (c) => {
    const { platform, config } = c.get("services");
    if (!platform) {
      throw new ApiError(
        "unavailable",
        "this endpoint has no Platform upstream configured (PLATFORM_CREDENTIALS); tell its operator",
      );
    }
    const account = c.get("account");
    const body = await readRequestBody(c);
    const { pathname, search } = requestTarget(c.req.url);
    const call = () => {
      account.upstreamCall();
      return relayPlatform(
        platform,
        {
          method: c.req.method,
          target: pathname + search,
          body,
          contentType: body ? (c.req.header("content-type") ?? "application/json") : undefined,
          accept: c.req.header("accept"),
        },
        config.upstreamTimeoutMs,
      );
    };
    let relayed: PlatformRelayed;
    if (options.ids !== undefined && account.routePrice.per === "asset") {
      const { field } = options.ids;
      const asked = options.ids.in === "body" ? bodyIds(body, field) : queryIds(search, field);
      const hold = await account.hold(asked);
      try {
        relayed = await call();
      } catch (error) {
        await account.settle(hold, 0);
        throw error;
      }
      await account.settle(hold, isSuccess(relayed.status) ? (answeredAssets(relayed.body) ?? asked) : 0);
    } else {
      const charge = await account.charge(options.units ? options.units(body) : 1);
      try {
        relayed = await call();
      } catch (error) {
        await account.refund(charge);
        throw error;
      }
      if (!isSuccess(relayed.status)) await account.refund(charge);
    }
    return relayedResponse(relayed);
  };
}
