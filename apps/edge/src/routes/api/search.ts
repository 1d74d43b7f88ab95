import { defineRoute } from "../../pipeline/define-route";
import { askUpstream, type ApiContext, readRequestBody, upstreamPath } from "../../pipeline/exchange";
import { forward } from "../../pipeline/forward";
import { ONE_PER_REQUEST } from "../../pipeline/price";
import { legacyOnly } from "../../pipeline/untranslated";
import { CERTIFICATE_SEARCH_PRICE, certificateSearchPages } from "../../upstream/legacy-credits";
import { type Relayed, relayedResponse } from "../../upstream/relay";
import {
  reportBodySchema,
  reportResponseSchema,
  searchBodySchema,
  searchResponseSchema,
} from "@scangate/core";
import { component } from "../../openapi/components";

/** The `page` a search body asks for (1 when it names none, or is not one the upstream reads). */
function pageAsked(body: Uint8Array | undefined): number {
  try {
    const { page } = JSON.parse(new TextDecoder().decode(body)) as { page?: unknown };
    return typeof page === "number" && Number.isInteger(page) && page > 0 ? page : 1;
  } catch {
    return 1;
  }
}

/**
 * A certificate search with a Platform-only upstream, where page N is N Platform searches
 * (upstream/legacy-certificates.ts): the most it can cost is held, then settled to the searches
 * made, which stop at the last page there is. A failed search gives it all back.
 */
async function searchOnPlatform(c: ApiContext): Promise<Response> {
  const account = c.get("account");
  const body = await readRequestBody(c);
  const page = pageAsked(body);
  const hold = await account.hold(certificateSearchPages(page));
  let relayed: Relayed;
  try {
    relayed = await askUpstream(c, { method: "POST", path: upstreamPath(c), body });
  } catch (error) {
    await account.settle(hold, 0);
    throw error;
  }
  const pages = (relayed.json as { metadata?: { pages?: unknown } } | null)?.metadata?.pages;
  const searched =
    relayed.status >= 200 && relayed.status < 300
      ? certificateSearchPages(page, typeof pages === "number" ? pages : undefined)
      : 0;
  await account.settle(hold, searched);
  return relayedResponse(relayed);
}

const SEARCH_BODY = component("SearchBody", searchBodySchema);
const SEARCH_RESPONSE = component("SearchResponse", searchResponseSchema);

/**
 * POST /api/v1/search/certificates: forwarded as it is; with a Platform-only upstream,
 * translated and billed per Platform search made.
 */
export const certificateSearchRoute = defineRoute({
  method: "POST",
  path: "/api/v1/search/certificates",
  operation: "search",
  api: "v1",
  price: CERTIFICATE_SEARCH_PRICE,
  summary: "Search certificates",
  body: SEARCH_BODY,
  ok: SEARCH_RESPONSE,
  handler: (c) => (c.get("services").config.upstreamApi === "platform" ? searchOnPlatform(c) : forward(c)),
});

/** POST /api/v1/search/:index (ipv4, websites): forwarded as it is. */
export const searchRoute = defineRoute({
  method: "POST",
  path: "/api/v1/search/:index",
  operation: "search",
  api: "v1",
  price: legacyOnly(
    ONE_PER_REQUEST.legacy,
    "only the certificates index is translated (use /api/v2/hosts/{ip} and /api/v2/hosts/search for hosts, the Platform's web properties for websites)",
  ),
  summary: "Search an index",
  body: SEARCH_BODY,
  ok: SEARCH_RESPONSE,
  handler: forward,
});

/** POST /api/v1/report/:index: forwarded as it is. */
export const reportRoute = defineRoute({
  method: "POST",
  path: "/api/v1/report/:index",
  operation: "report",
  api: "v1",
  price: legacyOnly(
    ONE_PER_REQUEST.legacy,
    "v1 reports are not translated (use GET /api/v2/hosts/aggregate, or the Platform's /v3/global/search/aggregate)",
  ),
  summary: "Aggregate report over a query",
  body: component("ReportBody", reportBodySchema),
  ok: component("ReportResponse", reportResponseSchema),
  handler: forward,
});
