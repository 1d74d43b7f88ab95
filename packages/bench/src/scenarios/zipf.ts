// Lookups with a real popularity shape against an empty cache: how many times the edge goes
// upstream. Every distinct certificate should cost exactly one upstream call, however many
// concurrent lookups ask for it while the first is in flight.
import { originQuotaUsed } from "../admin-client";
import { purgeCertificateCache } from "../dataset";
import { runLoad } from "../load";
import { preflight, type Scenario, settledUsage, tenantHeaders, usageCounts, viewPath } from "../scenario";
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
    const originBefore = await originQuotaUsed(ctx.cluster.originUrl, ctx.originAuth);
    const sample = await runLoad({
      baseUrl: ctx.cluster.edgeUrl,
      headers,
      requests: workload.lookups.map((fp) => ({ method: "GET" as const, path: viewPath(fp) })),
      amount: workload.lookups.length,
      connections: zipfConcurrency,
      durationSeconds: ctx.options.duration,
    });
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
      },
      notes: [
        "upstream_calls: the edge's usage rollups for the scenario's tenant; origin_calls: what the origin charged the bench's account meanwhile",
      ],
    };
  },
};
