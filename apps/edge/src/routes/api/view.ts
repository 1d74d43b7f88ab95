import {
  CREDIT_COSTS,
  certificateDocumentSchema,
  ipv4DocumentSchema,
  normalizeDocumentId,
  renderErrorBody,
  viewParamsSchema,
  websiteDocumentSchema,
} from "@scangate/core";
import { requestTarget } from "@scangate/core/http";
import { z } from "zod";
import { UNKNOWN_CERTIFICATE_ENTRY } from "../../cache/bulk-merge";
import { BoundedMemo } from "../../http/bounded-memo";
import { renderedError } from "../../http/errors";
import { component } from "../../openapi/components";
import { serveCachedDocument } from "../../pipeline/cached-document";
import { type ApiContext, type ApiRoute, defineRoute } from "../../pipeline/define-route";
import { chargedRelay, upstreamPath } from "../../pipeline/exchange";
import { translatedPrice } from "../../pipeline/price";
import { relayedResponse } from "../../upstream/relay";

/**
 * The view's parameters by path, parsed once while remembered: a team's clients ask for the same
 * documents over and over, and the parse depends on the path alone (paths up to 256 characters,
 * far longer than any id of an index).
 */
const parsedPaths = new BoundedMemo<ReturnType<typeof viewParamsSchema.safeParse>>(1024, 256);

const VIEW_DOCUMENT = component(
  "V1Document",
  z.union([ipv4DocumentSchema, websiteDocumentSchema, certificateDocumentSchema]),
);

/** What an unknown document's row keeps: a certificate's bulk entry, or the v1 404 body. */
const UNKNOWN_CERTIFICATE_BODY = JSON.stringify(UNKNOWN_CERTIFICATE_ENTRY);
const NOT_FOUND_BODY = JSON.stringify(renderErrorBody("not_found", "v1"));

/**
 * One document through the shared cache. A certificate row is the same one bulk reads and
 * writes. Ids that do not fit their index, or extra query parameters, are forwarded uncached
 * so the upstream gives its own answer.
 */
async function serveView(c: ApiContext, index: string): Promise<Response> {
  const params =
    parsedPaths.get(c.req.path) ??
    parsedPaths.remember(c.req.path, viewParamsSchema.safeParse({ index, id: c.req.param("id") }));
  if (!params.success || requestTarget(c.req.url).search !== "") {
    return relayedResponse(await chargedRelay(c, { method: "GET", path: upstreamPath(c) }));
  }
  const { index: parsedIndex, id } = params.data;
  return serveCachedDocument(c, {
    key: { index: parsedIndex, id: normalizeDocumentId(parsedIndex, id), atTime: "" },
    path: upstreamPath(c),
    ttlSeconds: c.get("services").config.cache.ttlSeconds[parsedIndex],
    negativeBody: parsedIndex === "certificates" ? UNKNOWN_CERTIFICATE_BODY : NOT_FOUND_BODY,
    negativeResponse: (ctx) => renderedError(ctx, "not_found", "v1"),
  });
}

export const VIEW_ROUTES: readonly ApiRoute[] = [
  // With a Platform-only upstream a certificate is its asset and its PEM, one Platform call each.
  defineRoute({
    method: "GET",
    path: "/api/v1/view/certificates/:id",
    operation: "view",
    price: translatedPrice(CREDIT_COSTS.v3_certificate.credits + CREDIT_COSTS.v3_certificate_raw.credits),
    cache: { kind: "document", ttl: "per_index" },
    summary: "One certificate (cached)",
    ok: VIEW_DOCUMENT,
    handler: (c) => serveView(c, "certificates"),
  }),
  // ipv4 and websites. With a Platform-only upstream an ipv4 document is the host asset, a
  // website one search for the web properties of its name (1 credit each).
  defineRoute({
    method: "GET",
    path: "/api/v1/view/:index/:id",
    operation: "view",
    price: translatedPrice(Math.max(CREDIT_COSTS.v3_host.credits, CREDIT_COSTS.v3_search_query.credits)),
    cache: { kind: "document", ttl: "per_index" },
    summary: "One document (cached)",
    ok: VIEW_DOCUMENT,
    handler: (c) => serveView(c, c.req.param("index") ?? ""),
  }),
];
