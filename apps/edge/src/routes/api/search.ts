import { holdCharge, settle } from "../../api/asset-billing";
import { defineApiRoute } from "../../api/define-route";
import { askUpstream, type ApiContext, readRequestBody, upstreamPath } from "../../api/exchange";
import { forward } from "../../api/forward";
import { certificateSearchCredits } from "../../upstream/legacy-credits";
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
  const body = await readRequestBody(c);
  const page = pageAsked(body);
  c.set("cost", certificateSearchCredits(page));
  const charged = await holdCharge(c);
  let relayed: Relayed;
  try {
    relayed = await askUpstream(c, { method: "POST", path: upstreamPath(c), body });
  } catch (error) {
    await settle(c, charged, 0);
    throw error;
  }
  const pages = (relayed.json as { metadata?: { pages?: unknown } } | null)?.metadata?.pages;
  const spent =
    relayed.status >= 200 && relayed.status < 300
      ? certificateSearchCredits(page, typeof pages === "number" ? pages : undefined)
      : 0;
  await settle(c, charged, spent);
  return relayedResponse(relayed);
}

/**
 * POST /api/v1/search/:index: forwarded as it is. With a Platform-only upstream only the
 * certificates index is translated (the others answer 501 before this), billed per search made.
 */
export const searchRoute = defineApiRoute({
  method: "POST",
  path: "/api/v1/search/:index",
  operation: "search",
  version: "v1",
  cost: 1,
  summary: "Search an index",
  body: component("SearchBody", searchBodySchema),
  ok: component("SearchResponse", searchResponseSchema),
  handler: (c) => (c.get("services").config.upstreamApi === "platform" ? searchOnPlatform(c) : forward(c)),
});

/** POST /api/v1/report/:index: forwarded as it is. */
export const reportRoute = defineApiRoute({
  method: "POST",
  path: "/api/v1/report/:index",
  operation: "report",
  version: "v1",
  cost: 1,
  summary: "Aggregate report over a query",
  body: component("ReportBody", reportBodySchema),
  ok: component("ReportResponse", reportResponseSchema),
  handler: forward,
});
