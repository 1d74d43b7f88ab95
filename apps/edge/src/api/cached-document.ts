import { type CacheOutcome, cacheStatus, wantsRevalidation } from "../cache/cache-status";
import { ageSeconds, freshnessPolicy, ttlSeconds } from "../cache/freshness";
import type { CachedDocument } from "../cache/interface";
import { type CachedFetchSpec, type DocumentFetchDeps, sharedFetch } from "../cache/refresh";
import { type DocumentOutcome, fetchDocument, lookupDocument } from "../cache/serve-document";
import { isCharged } from "../quota/billing";
import type { EdgeServices } from "../services";
import { type Relayed, relayedResponse, relayJson, upstreamFailure } from "../upstream/relay";
import type { Charge } from "../quota/ledger";
import { type ApiContext, chargeRequest, refundRequest } from "./exchange";

export interface CachedRoute extends CachedFetchSpec {
  /** The answer for a negative row (an unknown document). */
  readonly negativeResponse: (c: ApiContext, doc: CachedDocument) => Response;
  /** The answer for a cached document (default: its body as JSON). */
  readonly documentResponse?: (doc: CachedDocument) => Response;
  /** How the upstream is asked for `path` (default: the legacy upstream, as JSON). */
  readonly fetchUpstream?: (path: string) => Promise<Relayed>;
  /**
   * What the upstream would have charged for this document: counted in the request's
   * `quotaSaved` when a cached copy answers it for free (default: nothing counted).
   */
  readonly savedCredits?: number;
}

/** What the document cache needs from the edge's services, and the request's waitUntil. */
export function documentFetchDeps(
  services: EdgeServices,
  defer: (work: Promise<void>) => void,
): DocumentFetchDeps {
  return {
    defer,
    cache: services.cache,
    clock: services.clock,
    flights: services.flights,
    negativeTtlSeconds: services.config.cache.negativeTtlSeconds,
    fetchUpstream: (path) =>
      relayJson(services.upstream, { method: "GET", path }, services.config.upstreamTimeoutMs),
  };
}

function withCacheHeaders(response: Response, outcome: CacheOutcome, age: number): Response {
  response.headers.set("Cache-Status", cacheStatus(outcome));
  response.headers.set("Age", String(age));
  return response;
}

/** `bytesOf`: the body's bytes the cache keeps, asked only for an answer that is the body itself. */
function documentAnswer(route: CachedRoute, doc: CachedDocument, bytesOf?: () => Uint8Array): Response {
  if (route.documentResponse) return route.documentResponse(doc);
  return new Response(bytesOf ? bytesOf() : doc.body, {
    status: 200,
    headers: { "content-type": "application/json" },
  });
}

function fromCache(c: ApiContext, route: CachedRoute, doc: CachedDocument): Response {
  return doc.negative ? route.negativeResponse(c, doc) : documentAnswer(route, doc);
}

/** The answer of a fresh cached document (not a negative row) at `now`, with Cache-Status and Age. */
export function freshDocumentAnswer(
  route: CachedRoute,
  doc: CachedDocument,
  now: number,
  bytesOf?: () => Uint8Array,
): Response {
  return withCacheHeaders(
    documentAnswer(route, doc, bytesOf),
    { hit: true, ttl: ttlSeconds(doc, now) },
    ageSeconds(doc, now),
  );
}

/** Whether an outcome is a document another fetch paid for (the credits its route saves). */
function servedWithoutCost(outcome: DocumentOutcome): boolean {
  switch (outcome.kind) {
    case "fresh":
      return !outcome.doc.negative;
    case "collapsed":
      return "relayed" in outcome || !outcome.doc.negative;
    default:
      return false;
  }
}

/** The response for an outcome: the document or the upstream's answer, with Cache-Status and Age. */
function respond(c: ApiContext, route: CachedRoute, outcome: DocumentOutcome, now: number): Response {
  switch (outcome.kind) {
    case "fresh":
    case "negative": {
      if (!outcome.revalidate && !outcome.doc.negative) return freshDocumentAnswer(route, outcome.doc, now);
      const detail = outcome.revalidate ? { detail: "stale-while-revalidate" as const } : {};
      return withCacheHeaders(
        fromCache(c, route, outcome.doc),
        { hit: true, ttl: ttlSeconds(outcome.doc, now), ...detail },
        ageSeconds(outcome.doc, now),
      );
    }
    case "collapsed":
      return "doc" in outcome
        ? withCacheHeaders(
            fromCache(c, route, outcome.doc),
            { hit: true, ttl: ttlSeconds(outcome.doc, now), detail: "collapsed" },
            ageSeconds(outcome.doc, now),
          )
        : withCacheHeaders(
            relayedResponse(outcome.relayed),
            { hit: true, ttl: route.ttlSeconds, detail: "collapsed" },
            0,
          );
    case "stale":
      return withCacheHeaders(
        fromCache(c, route, outcome.doc),
        {
          hit: false,
          fwd: outcome.fwd,
          stored: false,
          fwdStatus: outcome.fwdStatus,
          detail: "stale-if-error",
        },
        ageSeconds(outcome.doc, now),
      );
    case "miss":
      return withCacheHeaders(
        relayedResponse(outcome.relayed),
        { hit: false, fwd: outcome.fwd, stored: outcome.stored },
        0,
      );
  }
}

/**
 * A document route behind the shared cache: the cache module says how the request is served
 * (cache/serve-document.ts), billing says whether it is charged (quota/billing.ts), and this
 * turns both into the response. A request that leads an upstream call is charged before it, so
 * an exhausted quota never reaches the upstream, and refunded when billing says it is free. A
 * request that joins another's call pays nothing up front; it is charged afterwards only if
 * billing charges what it got (a collapsed answer follows the hit rule).
 */
export async function serveCachedDocument(c: ApiContext, route: CachedRoute): Promise<Response> {
  const services = c.get("services");
  const { hitsCharged } = services.config.cache;
  const shared = documentFetchDeps(services, (work) => c.executionCtx.waitUntil(work));
  const deps = route.fetchUpstream ? { ...shared, fetchUpstream: route.fetchUpstream } : shared;
  const usage = c.get("usage");
  const saved = route.savedCredits ?? 0;
  const lookup = await lookupDocument(
    deps,
    freshnessPolicy(services.config.cache),
    route,
    wantsRevalidation(c.req.raw.headers),
  );

  if (lookup.kind !== "upstream") {
    const charged = isCharged(lookup, hitsCharged);
    if (charged) await chargeRequest(c);
    else if (servedWithoutCost(lookup)) usage.quotaSaved += saved;
    usage.cacheHit = true;
    if (lookup.kind === "fresh" && !lookup.revalidate && !charged && c.req.method === "GET") {
      // The next requests for this path may be answered before the router (api/hit-lane.ts).
      services.hits.remember(c.req.url, { route, operation: usage.operation ?? "unknown", saved });
    }
    if (lookup.revalidate) {
      usage.upstreamCalls += 1;
      c.executionCtx.waitUntil(
        sharedFetch(deps, route).then(
          () => undefined,
          (error: unknown) => console.error("background revalidation failed", upstreamFailure(error).message),
        ),
      );
    }
    return respond(c, route, lookup, services.clock.now());
  }

  let charge: Charge | null | undefined;
  let served;
  try {
    served = await fetchDocument(deps, route, lookup, async () => {
      charge = await chargeRequest(c);
    });
  } catch (error) {
    if (charge) await refundRequest(c, charge);
    throw error;
  }
  const { outcome, calledUpstream } = served;
  if (calledUpstream) usage.upstreamCalls += 1;
  if (outcome.kind !== "miss") usage.cacheHit = true;
  const billed =
    outcome.kind === "miss" ? { kind: "miss" as const, status: outcome.relayed.status } : outcome;
  const owed = isCharged(billed, hitsCharged);
  // `undefined`: this request led no call, so it has paid nothing yet.
  if (charge === undefined) {
    if (owed) await chargeRequest(c);
  } else if (!owed) await refundRequest(c, charge);
  if (!owed && servedWithoutCost(outcome)) usage.quotaSaved += saved;
  return respond(c, route, outcome, services.clock.now());
}
