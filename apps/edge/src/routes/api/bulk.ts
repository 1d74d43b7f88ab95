import { bulkBodySchema, bulkLookupIds, bulkResponseSchema, CREDIT_COSTS } from "@scangate/core";
import { bulkResponse, lookupCachedBulk, serveBulkPerAsset } from "../../pipeline/cached-bulk";
import { defineRoute } from "../../pipeline/define-route";
import { translatedPrice } from "../../pipeline/price";
import { chargedRelay, onPlatform, readRequestBody, upstreamPath } from "../../pipeline/exchange";
import { type BulkRequest, bodyText } from "../../cache/bulk-answers";
import { certificatesBulkCodec, mergeBulk } from "../../cache/bulk-merge";
import { type BulkOutcome, bulkFromCache, fetchMissingBulk } from "../../cache/serve-bulk";
import type { EdgeServices } from "../../services";
import { relayedResponse, relayJson } from "../../upstream/relay";
import { component } from "../../openapi/components";
import { jsonOfText } from "../../http/json-body";

/**
 * The cacheable bulk request a body's text holds (its fingerprints, spelled as sent, and the
 * well-formed ones as cache keys), or null when it holds none: not JSON, or not the bulk body's
 * shape. A body whose answer the isolate keeps (`bulkAnswers`, by `key`) was read before and is
 * not parsed again.
 */
function readBulkRequest(services: EdgeServices, key: string, text: string): BulkRequest | null {
  const kept = services.bulkAnswers.request<BulkRequest>(key);
  if (kept) return kept;
  const parsed = bulkBodySchema.safeParse(jsonOfText(text));
  if (!parsed.success) return null;
  const requested = parsed.data.fingerprints;
  return { requested, unique: bulkLookupIds(requested) };
}

/**
 * POST /api/v1/bulk/certificates through the shared cache: cached certificates (from earlier
 * bulk or view calls) are served from D1, and ONE upstream bulk call asks for the rest. The
 * answer keeps every requested key in request order. Strings that are not SHA-256 fingerprints
 * are answered unknown by the edge itself: never looked up, sent upstream or charged. Bodies the
 * cache cannot read (another index, a malformed list) are forwarded for the upstream's own answer.
 *
 * A call costs 1, as a legacy query did. With a Platform-only upstream it costs what the
 * Platform bills for it: per certificate its calls answered, held before them and settled after
 * (pipeline/cached-bulk.ts); what the cache answered costs nothing.
 */
export const bulkRoute = defineRoute({
  method: "POST",
  path: "/api/v1/bulk/:index",
  operation: "bulk",
  // On the Platform each certificate answered costs its asset and its PEM, from one bulk call each.
  price: translatedPrice(
    CREDIT_COSTS.v3_certificates.credits + CREDIT_COSTS.v3_certificates_raw.credits,
    "asset",
  ),
  cache: { kind: "bulk" },
  summary: "Up to 50 certificates (cached per certificate)",
  body: component("BulkBody", bulkBodySchema),
  ok: component("BulkResponse", bulkResponseSchema),
  handler: async (c) => {
    const body = await readRequestBody(c);
    const services = c.get("services");
    const text = c.req.param("index") === "certificates" ? bodyText(body) : null;
    // Kept answers are keyed by API, route and body text.
    const key = `v1 bulk\n${text}`;
    const request = text === null ? null : readBulkRequest(services, key, text);
    if (!request) {
      return relayedResponse(await chargedRelay(c, { method: "POST", path: upstreamPath(c), body }));
    }
    const account = c.get("account");
    const { cache, upstreamTimeoutMs } = services.config;
    const codec = certificatesBulkCodec(cache.ttlSeconds.certificates);
    // Every requested key, in request order, the ones without an entry (unknown, or not a
    // fingerprint) as the unknown certificate.
    const respond = (outcome: BulkOutcome) =>
      bulkResponse(c, codec, { key, request }, outcome, {
        contentType: "application/json",
        merge: (entries, bytesOf) => mergeBulk(request.requested, entries, bytesOf),
      });
    if (request.unique.length === 0) {
      // Not one fingerprint to look up: every key is unknown, and nothing was served to charge.
      return respond({ kind: "fresh", entries: new Map(), age: 0, revalidate: [] });
    }
    const { deps, lookup } = await lookupCachedBulk(c, request.unique, codec, (bulk) =>
      relayJson(
        services.upstream,
        { method: "POST", path: "/v1/bulk/certificates", body: bulk, contentType: "application/json" },
        upstreamTimeoutMs,
      ),
    );
    if (onPlatform(c)) return respond(await serveBulkPerAsset(c, deps, lookup));

    if (lookup.toFetch.length === 0) {
      account.hit();
      await account.answeredWithoutCall(1);
      return respond(bulkFromCache(lookup));
    }

    // Charged before the upstream is asked, so an exhausted quota never reaches it.
    const charge = await account.charge();
    const outcome = await fetchMissingBulk(deps, lookup);
    if (outcome.kind !== "collapsed" && outcome.calledUpstream) account.upstreamCall();
    // Paid only for an answer its own call brought: a failed call is given back, stale rows the
    // upstream's failure let answer are free, and so is another request's call (answered without
    // a call of its own).
    if (outcome.kind !== "miss") await account.refund(charge);
    if (outcome.kind === "collapsed") {
      account.hit();
      await account.answeredWithoutCall(1);
    }
    return respond(outcome);
  },
});
