// Cache misses through the edge: views of certificates the cache does not hold, each an upstream
// view and a store, in slices paired with the origin answering the view itself.
import { purgeCertificateCache } from "../dataset";
import { formatCount } from "../format";
import { runLoad } from "../load";
import { type Slicer, sliceRate } from "../paired";
import {
  EDGE_MEMORY_HOLD_MS,
  pairedLoad,
  preflight,
  type Scenario,
  settledUsage,
  sleep,
  tenantHeaders,
  usageCounts,
  viewPath,
} from "../scenario";
import { originView } from "./reference";

/**
 * The miss scenario's walk over the certificates, in slices: each slice goes on where the last
 * one stopped (the load's cursor), and first waits, off the clock, until nothing it will ask for
 * was asked within the edge's memory hold. With D1 emptied before each slice, every request is
 * then a miss: the isolate's memory tier answers a row for CACHE_MEMORY_HOLD_MS after it held it.
 */
export class MissWalk {
  readonly cursor = { next: 0 };
  /** When each position was last asked for (by then at the latest). */
  private readonly askedAt: Float64Array;

  constructor(
    private readonly size: number,
    private readonly holdMs: number,
  ) {
    this.askedAt = new Float64Array(size).fill(Number.NEGATIVE_INFINITY);
  }

  /** Milliseconds to wait at `now` before asking for the next `count`: until each was last asked `holdMs` ago. */
  waitMs(now: number, count: number): number {
    let latest = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < Math.min(count, this.size); i += 1)
      latest = Math.max(latest, this.askedAt[(this.cursor.next + i) % this.size] as number);
    return Math.max(0, latest + this.holdMs - now);
  }

  /** The positions from `from` up to the cursor were asked for by `at`. */
  asked(from: number, at: number): void {
    const count = Math.min(this.cursor.next - from, this.size);
    for (let i = 0; i < count; i += 1) this.askedAt[(from + i) % this.size] = at;
  }
}

export const edgeViewMiss: Scenario = {
  id: "edge-view-miss",
  title: "edge view, cache miss (upstream view + store)",
  async run(ctx) {
    const tenant = await ctx.newTenant("view-miss");
    const headers = tenantHeaders(tenant);
    const { fingerprints } = ctx.probe;
    const walk = new MissWalk(fingerprints.length, EDGE_MEMORY_HOLD_MS + 250);
    // The first certificate answers the preflight: the walk starts after it.
    await preflight(`${ctx.cluster.edgeUrl}${viewPath(fingerprints[0] ?? "")}`, { headers });
    walk.cursor.next = 1;
    walk.asked(0, performance.now());
    const requests = fingerprints.map((fp) => ({ method: "GET" as const, path: viewPath(fp) }));
    const { connections } = ctx.options;
    let waitedMs = 0;
    // Requests a second of the last slice: each slice asks for about as many as fit in its time.
    let rate = 0;
    const misses: Slicer = {
      async slice(seconds) {
        // A set number of requests, each answered: a slice cut at its time would leave the edge
        // busy with upstream calls nobody waits for, in the time of the slice after it.
        const amount = Math.min(fingerprints.length, Math.max(2 * connections, Math.round(rate * seconds)));
        const wait = walk.waitMs(performance.now(), amount);
        waitedMs += wait;
        if (wait > 0) await sleep(wait);
        await purgeCertificateCache(ctx.cluster.edgeDb);
        const from = walk.cursor.next;
        const sample = await runLoad({
          baseUrl: ctx.cluster.edgeUrl,
          headers,
          requests,
          cursor: walk.cursor,
          amount,
          connections,
          durationSeconds: seconds,
        });
        walk.asked(from, performance.now());
        rate = sliceRate(sample) || rate;
        return sample;
      },
    };
    const paired = await pairedLoad(ctx, "edge-view-miss", misses, originView);
    const usage = await settledUsage(ctx, tenant, paired.sample.requests + 1);
    const counts = usageCounts(usage);
    return {
      kind: "ran",
      ...paired,
      connections: ctx.options.connections,
      target: `GET /api/v1/view/certificates/:sha256 over ${fingerprints.length} certificates`,
      counts,
      notes: [
        `each slice goes on through the ${fingerprints.length} certificates where the last stopped, the cache emptied before it (off the clock), and asks for as many as the last slice answered in its time (at least ${2 * connections}); the edge counted ${formatCount(counts.cache_hits ?? 0)} cache hits (the warm-up request, asked before, may be one); ${(waitedMs / 1000).toFixed(1)} s spent waiting, off the clock, for the edge's memory to forget certificates asked for within ${(EDGE_MEMORY_HOLD_MS + 250) / 1000} s; 1 warm-up request`,
      ],
    };
  },
};
