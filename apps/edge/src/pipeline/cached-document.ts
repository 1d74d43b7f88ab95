import { type CacheOutcome, cacheStatus, wantsRevalidation } from "../cache/cache-status";
import { ageSeconds, freshnessPolicy, ttlSeconds } from "../cache/freshness";
import type { CachedDocument } from "../cache/interface";
import { type CachedFetchSpec, type DocumentFetchDeps, sharedFetch } from "../cache/refresh";
import { type DocumentOutcome, fetchDocument, lookupDocument } from "../cache/serve-document";
import type { PlatformTally } from "../upstream/interface";
import { isSuccess, type Relayed, relayedResponse, relayJson, upstreamFailure } from "../upstream/relay";
import type { Charge } from "./account";
import type { ApiContext } from "./define-route";
import { onPlatform } from "./exchange";

export interface CachedRoute extends CachedFetchSpec {
  /** The answer for a negative row (an unknown document). */
  readonly negativeResponse: (c: ApiContext, doc: CachedDocument) => Response;
  /**
   * How a cached document is answered: the answer its body makes (default: the body itself), one
   * function for every request of the route, and its media type (default: JSON).
   */
  readonly answer?: { readonly render?: (body: string) => string; readonly contentType: string };
  /** How the upstream is asked for `path` (default: the legacy upstream, as JSON). */
  readonly fetchUpstream?: (path: string) => Promise<Relayed>;
}

// Cache-Status and Age go into each response's constructor with its other headers: a header set
// afterwards is a call into the runtime of its own, a measurable part of a memory hit's cost.
function cacheHeaders(outcome: CacheOutcome, age: number): Record<string, string> {
  return { "Cache-Status": cacheStatus(outcome), Age: String(age) };
}

/** The response for an outcome: the document or the upstream's answer, with Cache-Status and Age. */
function respond(
  c: ApiContext,
  route: CachedRoute,
  outcome: DocumentOutcome,
  now: number,
  bytesOf: (doc: CachedDocument) => Uint8Array,
): Response {
  if (outcome.kind === "miss") {
    const missed: CacheOutcome = { hit: false, fwd: outcome.fwd, stored: outcome.stored };
    return relayedResponse(outcome.relayed, cacheHeaders(missed, 0));
  }
  if (!("doc" in outcome)) {
    const collapsed: CacheOutcome = { hit: true, ttl: route.ttlSeconds, detail: "collapsed" };
    return relayedResponse(outcome.relayed, cacheHeaders(collapsed, 0));
  }
  const { doc } = outcome;
  const served: CacheOutcome =
    outcome.kind === "stale"
      ? {
          hit: false,
          fwd: outcome.fwd,
          stored: false,
          fwdStatus: outcome.fwdStatus,
          detail: "stale-if-error",
        }
      : outcome.kind === "collapsed"
        ? { hit: true, ttl: ttlSeconds(doc, now), detail: "collapsed" }
        : outcome.revalidate
          ? { hit: true, ttl: ttlSeconds(doc, now), detail: "stale-while-revalidate" }
          : { hit: true, ttl: ttlSeconds(doc, now) };
  const headers = cacheHeaders(served, ageSeconds(doc, now));
  if (doc.negative) {
    const response = route.negativeResponse(c, doc);
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  }
  // A plain fresh hit answers the bytes the memory tier keeps of the answer, not the text made
  // and encoded again.
  const plainHit = outcome.kind === "fresh" && !outcome.revalidate;
  const render = route.answer?.render;
  return new Response(plainHit ? bytesOf(doc) : render ? render(doc.body) : doc.body, {
    status: 200,
    headers: { "content-type": route.answer?.contentType ?? "application/json", ...headers },
  });
}

/** Whether a cached answer is a document (a negative row, an unknown one, saves nothing). */
function answersDocument(outcome: DocumentOutcome): boolean {
  return "doc" in outcome ? !outcome.doc.negative : true;
}

/**
 * A document route behind the shared cache: the cache module says how the request is served
 * (cache/serve-document.ts), the request's account prices it (pipeline/account.ts), and this
 * turns both into the response. A request that leads an upstream call is charged before it, so
 * an exhausted quota never reaches the upstream, and refunded when the call fails or a stale row
 * answers instead. A request that joins another's call, or that the cache answers, is answered
 * without a call of its own: free (credits saved) unless hits are charged.
 */
export async function serveCachedDocument(c: ApiContext, route: CachedRoute): Promise<Response> {
  const services = c.get("services");
  const account = c.get("account");
  // A legacy view on a Platform-only upstream that misses: the Platform calls it became that
  // answered, what the Platform billed for it (a search that found nothing included).
  let tally: PlatformTally | undefined;
  const deps: DocumentFetchDeps = {
    defer: (work) => c.executionCtx.waitUntil(work),
    cache: services.cache,
    clock: services.clock,
    flights: services.flights,
    negativeTtlSeconds: services.config.cache.negativeTtlSeconds,
    fetchUpstream:
      route.fetchUpstream ??
      ((path) =>
        relayJson(services.upstream, { method: "GET", path, tally }, services.config.upstreamTimeoutMs)),
  };
  const bytesOf = (doc: CachedDocument) =>
    services.cache.bodyBytes(route.key, doc.body, route.answer?.render);
  const lookup = await lookupDocument(
    deps,
    freshnessPolicy(services.config.cache),
    route,
    wantsRevalidation(c.req.raw.headers),
  );

  if (lookup.kind !== "upstream") {
    account.hit();
    await account.answeredWithoutCall(1, { known: answersDocument(lookup) });
    if (lookup.revalidate) {
      account.upstreamCall();
      c.executionCtx.waitUntil(
        sharedFetch(deps, route).then(
          () => undefined,
          (error: unknown) => console.error("background revalidation failed", upstreamFailure(error).message),
        ),
      );
    }
    return respond(c, route, lookup, services.clock.now(), bytesOf);
  }

  if (route.fetchUpstream === undefined && onPlatform(c)) tally = { answered: 0 };
  let charge: Charge | null = null;
  let served;
  try {
    served = await fetchDocument(deps, route, lookup, async () => {
      charge = await account.charge();
    });
  } catch (error) {
    await account.refund(charge, tally?.answered);
    throw error;
  }
  const { outcome, calledUpstream } = served;
  if (calledUpstream) account.upstreamCall();
  const paid = outcome.kind === "miss" && isSuccess(outcome.relayed.status);
  // The upstream bills nothing for a failed call, nor for one a stale row answered instead (but
  // for the Platform calls that answered).
  if (!paid) await account.refund(charge, tally?.answered);
  if (outcome.kind !== "miss") account.hit();
  if (outcome.kind === "collapsed") await account.answeredWithoutCall(1, { known: answersDocument(outcome) });
  return respond(c, route, outcome, services.clock.now(), bytesOf);
}
