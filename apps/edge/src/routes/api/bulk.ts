import { bulkBodySchema } from "@scangate/core";
import { defineApiRoute } from "../../api/define-route";
import {
  chargedRelay,
  chargeRequest,
  readRequestBody,
  refundRequest,
  upstreamPath,
} from "../../api/exchange";
import { type BulkFetch, fetchBulk, sharedBulkFetch } from "../../cache/bulk-fetch";
import { mergeBulk, uniqueFingerprints } from "../../cache/bulk-merge";
import { type CacheOutcome, cacheStatus, wantsRevalidation } from "../../cache/cache-status";
import { ageSeconds, type Freshness, freshness, freshnessPolicy } from "../../cache/freshness";
import type { CachedDocument } from "../../cache/interface";
import { relayedResponse } from "../../upstream/relay";

function parseJson(body: Uint8Array | undefined): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(body));
  } catch {
    return undefined;
  }
}

function bulkResponse(text: string, outcome: CacheOutcome, age: number): Response {
  return new Response(text, {
    status: 200,
    headers: { "content-type": "application/json", "Cache-Status": cacheStatus(outcome), Age: String(age) },
  });
}

/**
 * POST /api/v1/bulk/certificates through the shared cache: cached certificates (from earlier
 * bulk or view calls) are served from D1, and ONE upstream bulk call asks for the rest. The
 * answer keeps every requested key in request order. Bodies the cache cannot read (another
 * index, a malformed list) are forwarded for the upstream's own answer.
 */
export const bulkRoute = defineApiRoute({
  method: "POST",
  path: "/api/v1/bulk/:index",
  operation: "bulk",
  version: "v1",
  cost: 1,
  cache: { kind: "bulk" },
  summary: "Up to 50 certificates (cached per certificate)",
  body: "BulkBody",
  ok: "BulkResponse",
  handler: async (c) => {
    const body = await readRequestBody(c);
    const parsed = bulkBodySchema.safeParse(parseJson(body));
    if (c.req.param("index") !== "certificates" || !parsed.success) {
      return relayedResponse(await chargedRelay(c, { method: "POST", path: upstreamPath(c), body }));
    }
    const services = c.get("services");
    const { cache: cacheConfig } = services.config;
    const policy = freshnessPolicy(cacheConfig);
    const usage = c.get("usage");
    const requested = parsed.data.fingerprints;
    const wanted = uniqueFingerprints(requested);
    const revalidationAsked = wantsRevalidation(c.req.raw.headers);
    const rows = await services.cache.getMany("certificates", wanted);
    const now = services.clock.now();
    const states = new Map<string, { doc: CachedDocument; state: Freshness }>();
    for (const [fp, doc] of rows) states.set(fp, { doc, state: freshness(doc, now, policy) });
    const servable = (fp: string) => {
      const s = states.get(fp);
      return !revalidationAsked && s !== undefined && (s.state === "fresh" || s.state === "revalidate");
    };
    const toFetch = wanted.filter((fp) => !servable(fp));
    const toRevalidate = wanted.filter((fp) => servable(fp) && states.get(fp)?.state === "revalidate");
    const entries = new Map<string, string>();
    let age = 0;
    const useCached = (fp: string) => {
      const s = states.get(fp);
      if (!s) return;
      entries.set(fp, s.doc.body);
      age = Math.max(age, ageSeconds(s.doc, now));
    };
    wanted.filter(servable).forEach(useCached);
    if (toRevalidate.length > 0) {
      usage.upstreamCalls += 1;
      c.executionCtx.waitUntil(fetchBulk(services, toRevalidate).then(() => undefined));
    }

    if (toFetch.length === 0) {
      if (cacheConfig.hitsCharged) await chargeRequest(c);
      usage.cacheHit = true;
      const detail = toRevalidate.length > 0 ? { detail: "stale-while-revalidate" as const } : {};
      return bulkResponse(mergeBulk(requested, entries), { hit: true, ttl: null, ...detail }, age);
    }

    const charge = await chargeRequest(c);
    const { results, called } = await sharedBulkFetch(services, toFetch);
    if (called) usage.upstreamCalls += 1;
    let failure: Exclude<BulkFetch, { ok: true }> | null = null;
    let staleUsed = false;
    for (const fp of toFetch) {
      const result = results.get(fp);
      if (result?.ok) {
        entries.set(fp, result.entries.get(fp) ?? "");
        continue;
      }
      const fallback = states.get(fp);
      if (fallback && fallback.state !== "expired") {
        useCached(fp);
        staleUsed = true;
      } else if (result) {
        failure = result;
      }
    }
    if (failure || staleUsed) await refundRequest(c, charge);
    if (failure) {
      if ("error" in failure) throw failure.error;
      return relayedResponse(failure.relayed);
    }
    const fwd = revalidationAsked
      ? "request"
      : toFetch.length < wanted.length
        ? "partial"
        : rows.size > 0
          ? "stale"
          : "uri-miss";
    if (staleUsed) {
      return bulkResponse(
        mergeBulk(requested, entries),
        { hit: false, fwd, stored: false, detail: "stale-if-error" },
        age,
      );
    }
    if (!called && !cacheConfig.hitsCharged) {
      // Other requests' upstream calls answered this one: a cache hit, and hits are free.
      await refundRequest(c, charge);
      usage.cacheHit = true;
      return bulkResponse(mergeBulk(requested, entries), { hit: true, ttl: null, detail: "collapsed" }, age);
    }
    return bulkResponse(mergeBulk(requested, entries), { hit: false, fwd, stored: true }, age);
  },
});
