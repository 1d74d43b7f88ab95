// Lookups with a real popularity shape against an empty cache: how many times the edge goes
// upstream. Every distinct certificate should cost exactly one upstream call, however many
// concurrent lookups ask for it while the first is in flight.
import { originQuotaUsed } from "../admin-client";
import { EDGE_NAME } from "../cluster";
import { inspectWorker } from "../inspector";
import { purgeCertificateCache } from "../dataset";
import { runLoad } from "../load";
import {
  EDGE_MEMORY_HOLD_MS,
  preflight,
  type Scenario,
  settledUsage,
  sleep,
  tenantHeaders,
  usageCounts,
  viewPath,
} from "../scenario";
import { zipfWorkload } from "../zipf";

export const zipfLookups: Scenario = {
  id: "zipf",
  title: "Zipf lookups from an empty cache (edge views)",
  async run(ctx) {
    const { zipfLookups: count, zipfKeys, zipfExponent, zipfSeed, zipfConcurrency } = ctx.options;
    const keys = ctx.probe.fingerprints.slice(0, zipfKeys);
    const workload = zipfWorkload(keys, count, zipfExponent, zipfSeed);
    const tenant = await ctx.newTenant("zipf");
    const headers = tenantHeaders(tenant);
    // The route is there (an account read: free, and not a certificate) before the cache is emptied.
    await preflight(`${ctx.cluster.edgeUrl}/api/v1/account`, { headers });
    await purgeCertificateCache(ctx.cluster.edgeDb);
    // The isolate's memory tier may still hold certificates an earlier scenario fetched: they go
    // back to D1 (now empty) once held for CACHE_MEMORY_HOLD_MS (5 s, the edge's default).
    await sleep(EDGE_MEMORY_HOLD_MS + 500);
    const originBefore = await originQuotaUsed(ctx.cluster.originUrl, ctx.originAuth);
    // The edge isolate's heap while the memory tier fills, read four times a second.
    const inspector = ctx.cluster.inspectorUrl
      ? await inspectWorker(ctx.cluster.inspectorUrl, EDGE_NAME)
      : undefined;
    const heap = inspector?.watchHeap(250);
    const sample = await runLoad({
      baseUrl: ctx.cluster.edgeUrl,
      headers,
      requests: workload.lookups.map((fp) => ({ method: "GET" as const, path: viewPath(fp) })),
      amount: workload.lookups.length,
      connections: zipfConcurrency,
      durationSeconds: ctx.options.duration,
    });
    const peak = await heap?.stop();
    // What the isolate holds once garbage is collected, right away: the memory tier is at its
    // fullest now (it keeps a row for CACHE_MEMORY_HOLD_MS, up to its size bound).
    const kept = await inspector?.heapAfterCollection();
    inspector?.close();
    const usage = await settledUsage(ctx, tenant, sample.requests + 1);
    const originCalls = (await originQuotaUsed(ctx.cluster.originUrl, ctx.originAuth)) - originBefore;
    return {
      kind: "ran",
      sample,
      connections: zipfConcurrency,
      target: `${count} views over ${keys.length} certificates, exponent ${zipfExponent}, seed ${zipfSeed}`,
      counts: {
        lookups: workload.lookups.length,
        distinct_keys: workload.distinct,
        origin_calls: originCalls,
        ...usageCounts(usage),
        ...(peak && kept
          ? {
              edge_heap_total_peak_bytes: peak.totalSize,
              edge_heap_used_peak_bytes: peak.usedSize,
              edge_heap_readings: peak.readings,
              edge_heap_after_gc_bytes: kept.usedSize,
            }
          : {}),
      },
      notes: [
        "upstream_calls: the edge's usage rollups for the scenario's tenant; origin_calls: what the origin charged the bench's account meanwhile",
        "edge_heap_*: the edge isolate's V8 heap through the inspector: total and used as V8 had them, read four times a second during the load (garbage included; workerd here sets no heap limit, so V8 lets garbage grow before collecting), and used right after a full collection at the end of the load, with the memory tier at its fullest (what the isolate holds)",
      ],
    };
  },
};
