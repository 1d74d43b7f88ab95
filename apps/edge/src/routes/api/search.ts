import { type ApiContext, defineRoute, type ApiRoute } from "../../pipeline/define-route";
import { onPlatform, readRequestBody, talliedRelay, upstreamPath } from "../../pipeline/exchange";
import { forward } from "../../pipeline/forward";
import { CachedPageTokens, pageTokenId } from "../../pipeline/page-tokens";
import { translatedPrice } from "../../pipeline/price";
import { V1_SEARCH_PAGE_MAX, v1WalkSearches, v1WalkStart } from "../../upstream/legacy-v1";
import { relayedResponse } from "../../upstream/relay";
import {
  CREDIT_COSTS,
  reportBodySchema,
  reportResponseSchema,
  searchBodySchema,
  searchResponseSchema,
} from "@scangate/core";
import { component } from "../../openapi/components";
import { jsonObject } from "../../http/json-body";

/** The `query` and `page` a search body asks for (page 1 when it names none, or one the translation refuses). */
function searchAsked(body: Uint8Array | undefined): { query: string; page: number } {
  const { query, page } = jsonObject(body) ?? {};
  return {
    query: typeof query === "string" ? query.trim() : "",
    page: typeof page === "number" && Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/**
 * A v1 search with a Platform-only upstream (upstream/legacy-v1.ts): page N walks from the
 * nearest page at most V1_SEARCH_PAGE_MAX below it whose page token an earlier page of this
 * tenant's same query kept (pipeline/page-tokens.ts), else from the first page, one Platform
 * search per page walked; a longer walk is refused before any. The most it can cost is held,
 * then settled to the searches the Platform answered (and so charged), whatever the answer: a
 * walk that failed on its third page paid for two.
 */
async function searchOnPlatform(c: ApiContext): Promise<Response> {
  const { cache, clock } = c.get("services");
  const account = c.get("account");
  const body = await readRequestBody(c);
  const { query, page } = searchAsked(body);
  const paging = new CachedPageTokens(
    cache,
    pageTokenId(account.tenant.id, c.req.param("index") ?? "", query),
    () => clock.now(),
  );
  // The translation asks the same paging where the walk starts: it reads no key again.
  const start = await v1WalkStart(page, paging);
  const call = { method: "POST", path: upstreamPath(c), body, paging };
  // A walk longer than V1_SEARCH_PAGE_MAX is refused (a 400) before any search: it holds nothing,
  // so a tenant with little left still hears why, not a 429.
  const walk = v1WalkSearches(page, start);
  const held = walk > V1_SEARCH_PAGE_MAX ? 0 : walk;
  const relayed = await talliedRelay(c, call, held);
  if (relayed.status >= 200 && relayed.status < 300) {
    await paging.save((write) => c.executionCtx.waitUntil(write));
  }
  return relayedResponse(relayed);
}

export const SEARCH_ROUTES: readonly ApiRoute[] = [
  // Forwarded as it is; with a Platform-only upstream, translated and billed per Platform search
  // made (one per page it walks).
  defineRoute({
    method: "POST",
    path: "/api/v1/search/:index",
    operation: "search",
    price: translatedPrice(CREDIT_COSTS.v3_search_query.credits, "page"),
    summary: "Search an index",
    body: component("SearchBody", searchBodySchema),
    ok: component("SearchResponse", searchResponseSchema),
    handler: (c) => (onPlatform(c) ? searchOnPlatform(c) : forward(c)),
  }),
  // Forwarded as it is (a Platform aggregate with a Platform-only upstream).
  defineRoute({
    method: "POST",
    path: "/api/v1/report/:index",
    operation: "report",
    price: translatedPrice(CREDIT_COSTS.v3_search_aggregate.credits),
    summary: "Aggregate report over a query",
    body: component("ReportBody", reportBodySchema),
    ok: component("ReportResponse", reportResponseSchema),
    handler: forward,
  }),
];
