// The edge's shared document cache: certificate views and bulk lookups it holds, and bulks it
// holds half of (misses: edge-miss.ts). The scenarios a ratio target judges run in paired slices
// against their reference (scenario.ts).
import { BULK_MAX_FINGERPRINTS } from "@scangate/core";
import { type BenchTenant, bulkBody } from "../admin-client";
import { purgeCertificateCache } from "../dataset";
import {
  type BenchContext,
  bulkFingerprints,
  inRounds,
  pairedLoad,
  preflight,
  type ReferenceScenario,
  type Scenario,
  settledUsage,
  SkipScenario,
  slicesOf,
  tenantHeaders,
  usageCounts,
  viewPath,
} from "../scenario";
import { bareBulk, bareWorker } from "./reference";

/** Asks twice; the second answer must be a cache hit, or the scenario would not measure hits. */
async function expectCacheHit(url: string, init: RequestInit): Promise<number> {
  await preflight(url, init);
  const { response } = await preflight(url, init);
  const status = response.headers.get("cache-status") ?? "";
  if (!/;\s*hit/.test(status))
    throw new SkipScenario(`a repeated request was not a cache hit (Cache-Status: "${status}")`);
  return 2;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i + size <= items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export type CachedRequest = { method: "GET" | "POST"; path: string; body?: string };

/** How a cached load is run: what warms the cache first, whose credential asks, and against what. */
export interface CachedLoadOptions {
  /** Requests that fill the cache before the check that the first measured request is a hit. */
  readonly warm?: readonly CachedRequest[];
  /** The tenant's `Authorization` value (default: its Basic credential). */
  readonly authorization?: (tenant: BenchTenant) => Promise<string>;
  /** Run in paired slices against this reference (the scenario's `id` names its rows). */
  readonly pairedWith?: { readonly id: string; readonly reference: ReferenceScenario };
}

/**
 * A load of `requests` (in turn) by a new tenant, after `warm` requests that fill the cache and
 * a check that the first request is then a cache hit: `--duration` seconds of it, or as many
 * seconds of slices alternating with a reference's (`pairedWith`).
 */
export async function cachedLoad(
  ctx: BenchContext,
  label: string,
  requests: readonly [CachedRequest, ...CachedRequest[]],
  options: CachedLoadOptions = {},
) {
  const tenant = await ctx.newTenant(label);
  const authorization = options.authorization ? await options.authorization(tenant) : tenant.authorization;
  const headers = { ...tenantHeaders(tenant), authorization };
  const init = (request: CachedRequest): RequestInit => ({
    method: request.method,
    headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
  const warm = options.warm ?? [];
  for (const request of warm) await preflight(`${ctx.cluster.edgeUrl}${request.path}`, init(request));
  const [first] = requests;
  const warmups = warm.length + (await expectCacheHit(`${ctx.cluster.edgeUrl}${first.path}`, init(first)));
  const own = slicesOf({
    baseUrl: ctx.cluster.edgeUrl,
    headers,
    requests: [...requests],
    connections: ctx.options.connections,
  });
  const paired = options.pairedWith
    ? await pairedLoad(ctx, options.pairedWith.id, own, options.pairedWith.reference)
    : undefined;
  const sample = paired ? paired.sample : await own.slice(ctx.options.duration);
  const usage = await settledUsage(ctx, tenant, sample.requests + warmups);
  return {
    sample,
    counts: usageCounts(usage),
    warmups,
    ...(paired ? { extra: paired.extra, pairing: paired.pairing } : {}),
  };
}

export const edgeViewHit: Scenario = {
  id: "edge-view-hit",
  title: "edge view, cache hit",
  async run(ctx) {
    const path = viewPath(ctx.probe.viewFingerprint);
    const loaded = await cachedLoad(ctx, "view-hit", [{ method: "GET", path }], {
      pairedWith: { id: "edge-view-hit", reference: bareWorker },
    });
    return {
      kind: "ran",
      ...loaded,
      connections: ctx.options.connections,
      target: `GET ${path}`,
      notes: [`${loaded.warmups} warm-up requests before the load (counted in the edge's usage)`],
    };
  },
};

export const edgeBulkHit: Scenario = {
  id: "edge-bulk-hit",
  title: `edge bulk of ${BULK_MAX_FINGERPRINTS}, all cached`,
  async run(ctx) {
    const fingerprints = bulkFingerprints(ctx.probe);
    if (fingerprints.length < BULK_MAX_FINGERPRINTS)
      throw new SkipScenario(`the dataset has fewer than ${BULK_MAX_FINGERPRINTS} certificates`);
    const request = {
      method: "POST" as const,
      path: "/api/v1/bulk/certificates",
      body: bulkBody(fingerprints),
    };
    const loaded = await cachedLoad(ctx, "bulk-hit", [request], {
      pairedWith: { id: "edge-bulk-hit", reference: bareBulk },
    });
    return {
      kind: "ran",
      ...loaded,
      connections: ctx.options.connections,
      target: `POST ${request.path} (${fingerprints.length} fingerprints)`,
      notes: [`${loaded.warmups} warm-up requests before the load (counted in the edge's usage)`],
    };
  },
};

/** Different bulk requests the varied scenario cycles through, more than the edge keeps answers for. */
const VARIED_BULKS = 20;

export const edgeBulkVaried: Scenario = {
  id: "edge-bulk-varied",
  title: `edge bulk of ${BULK_MAX_FINGERPRINTS}, all cached, ${VARIED_BULKS} different requests in turn`,
  async run(ctx) {
    const needed = BULK_MAX_FINGERPRINTS + VARIED_BULKS - 1;
    const pool = ctx.probe.fingerprints.slice(0, needed);
    if (pool.length < needed) throw new SkipScenario(`the dataset has fewer than ${needed} certificates`);
    const bulk = (fingerprints: readonly string[]) => ({
      method: "POST" as const,
      path: "/api/v1/bulk/certificates",
      body: bulkBody(fingerprints),
    });
    const [first, ...rest] = Array.from({ length: VARIED_BULKS }, (_, i) =>
      bulk(pool.slice(i, i + BULK_MAX_FINGERPRINTS)),
    );
    if (!first) throw new SkipScenario("no bulk requests to send");
    // Every certificate of the pool cached first, so each request is answered whole.
    const warm = [bulk(pool.slice(0, BULK_MAX_FINGERPRINTS)), bulk(pool.slice(BULK_MAX_FINGERPRINTS))];
    const { sample, counts, warmups } = await cachedLoad(ctx, "bulk-varied", [first, ...rest], { warm });
    return {
      kind: "ran",
      sample,
      connections: ctx.options.connections,
      target: `POST /api/v1/bulk/certificates, ${VARIED_BULKS} bodies of ${BULK_MAX_FINGERPRINTS} cached certificates in turn`,
      counts,
      notes: [
        `${VARIED_BULKS} different requests (windows of ${BULK_MAX_FINGERPRINTS} over ${pool.length} certificates) in turn: more than the edge keeps assembled answers for at its default CACHE_MEMORY_MAX_BYTES, so each answer is assembled (edge-bulk-hit repeats one request, whose kept answer is sent again)`,
        `${warmups} warm-up requests before the load (counted in the edge's usage)`,
      ],
    };
  },
};

export const edgeBulkHalf: Scenario = {
  id: "edge-bulk-half",
  title: `edge bulk of ${BULK_MAX_FINGERPRINTS}, half cached`,
  async run(ctx) {
    const half = BULK_MAX_FINGERPRINTS / 2;
    const cached = ctx.probe.fingerprints.slice(0, half);
    // Every request: the same cached half, and a half no request asked for before in its round.
    const fresh = chunks(ctx.probe.fingerprints.slice(half), half);
    if (fresh.length === 0)
      throw new SkipScenario(`the dataset has fewer than ${BULK_MAX_FINGERPRINTS} certificates`);
    const tenant = await ctx.newTenant("bulk-half");
    const headers = tenantHeaders(tenant);
    const url = `${ctx.cluster.edgeUrl}/api/v1/bulk/certificates`;
    const { sample, rounds } = await inRounds(
      ctx.options.duration,
      async () => {
        await purgeCertificateCache(ctx.cluster.edgeDb);
        await preflight(url, { method: "POST", headers, body: bulkBody(cached) });
      },
      () => ({
        baseUrl: ctx.cluster.edgeUrl,
        headers,
        requests: fresh.map((missing) => ({
          method: "POST" as const,
          path: "/api/v1/bulk/certificates",
          body: bulkBody([...cached, ...missing]),
        })),
        amount: fresh.length,
        connections: ctx.options.connections,
        durationSeconds: ctx.options.duration,
      }),
    );
    const usage = await settledUsage(ctx, tenant, sample.requests + rounds);
    return {
      kind: "ran",
      sample,
      connections: ctx.options.connections,
      target: `POST /api/v1/bulk/certificates (${half} cached + ${half} not)`,
      counts: usageCounts(usage),
      notes: [
        `${rounds} rounds of ${fresh.length} requests; before each (off the clock) the cache is emptied and the cached half warmed by 1 bulk request`,
      ],
    };
  },
};
