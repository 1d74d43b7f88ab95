// Concurrent misses of one document: a round of requests for one certificate nobody asked for
// before, all at once. One upstream call must answer the round, and the requests that join it
// should wait for that call only, not for D1 work of their own.
import { emptySample, type LoadSample, mergeSamples, quantile } from "../load";
import { purgeCertificateCache } from "../dataset";
import {
  type BenchContext,
  preflight,
  type Scenario,
  SkipScenario,
  tenantHeaders,
  viewPath,
} from "../scenario";

/** Requests per round, all sent at once. */
export const COLLAPSED_ROUND = 50;

interface Answer {
  readonly status: number;
  readonly ms: number;
  readonly cacheStatus: string;
  readonly statements: number;
}

async function timedGet(url: string, headers: Record<string, string>): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  return {
    status: response.status,
    ms: performance.now() - started,
    cacheStatus: response.headers.get("cache-status") ?? "",
    statements: Number(response.headers.get("x-d1-statements") ?? Number.NaN),
  };
}

function sampleOf(answers: readonly Answer[], elapsedMs: number): LoadSample {
  const sample = emptySample();
  sample.elapsedMs = elapsedMs;
  for (const answer of answers) {
    sample.requests += 1;
    if (answer.status < 200 || answer.status > 299) sample.non2xx += 1;
    sample.statuses[String(answer.status)] = (sample.statuses[String(answer.status)] ?? 0) + 1;
    sample.latenciesMs.push(answer.ms);
  }
  return sample;
}

const median = (values: readonly number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

export const edgeMissCollapsed: Scenario = {
  id: "edge-miss-collapsed",
  title: `edge view, ${COLLAPSED_ROUND} concurrent misses of one certificate`,
  async run(ctx: BenchContext) {
    const tenant = await ctx.newTenant("miss-collapsed");
    // Each request asks the edge to count its D1 statements (the cluster allows it).
    const headers = { ...tenantHeaders(tenant), "x-d1-statements": "1" };
    const originHeaders = { authorization: ctx.originAuth };
    // Certificates the run has not asked for yet: the tail of the probe's list.
    const fresh = [...ctx.probe.fingerprints].reverse();
    if (fresh.length < 4) throw new SkipScenario("the dataset has fewer than 4 certificates");
    await preflight(`${ctx.cluster.edgeUrl}${viewPath(fresh[0] ?? "")}`, { headers });
    const total = emptySample();
    const origin: number[] = [];
    const leaders: number[] = [];
    const joiners: number[] = [];
    const hits: number[] = [];
    let rounds = 0;
    let upstreamCalls = 0;
    let badRounds = 0;
    const deadline = performance.now() + ctx.options.duration * 1000;
    for (const fingerprint of fresh.slice(1)) {
      if (performance.now() > deadline) break;
      await purgeCertificateCache(ctx.cluster.edgeDb, [fingerprint]);
      // The upstream's own cost of this view, on one connection, just before the round.
      origin.push((await timedGet(`${ctx.cluster.originUrl}${viewPath(fingerprint)}`, originHeaders)).ms);
      const url = `${ctx.cluster.edgeUrl}${viewPath(fingerprint)}`;
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: COLLAPSED_ROUND }, () => timedGet(url, headers)),
      );
      mergeSamples(total, sampleOf(answers, performance.now() - started));
      const led = answers.filter((a) => a.cacheStatus.includes("fwd="));
      upstreamCalls += led.length;
      if (led.length !== 1) badRounds += 1;
      for (const answer of answers) (led.includes(answer) ? leaders : joiners).push(answer.statements);
      // One more request once the round is over: a hit, answered from the edge's memory.
      hits.push((await timedGet(url, headers)).statements);
      rounds += 1;
    }
    const originP50 = median(origin);
    const max = (values: readonly number[]) => (values.length > 0 ? Math.max(...values) : Number.NaN);
    return {
      kind: "ran",
      sample: total,
      connections: COLLAPSED_ROUND,
      target: `GET /api/v1/view/certificates/:sha256, ${COLLAPSED_ROUND} at once, a new certificate each round`,
      counts: {
        rounds,
        upstreamCalls,
        roundsWithOtherThanOneCall: badRounds,
        originViewP50Ms: Math.round(originP50 * 100) / 100,
        leaderStatementsP50: median(leaders),
        leaderStatementsMax: max(leaders),
        joinerStatementsP50: median(joiners),
        joinerStatementsMax: max(joiners),
        memoryHitStatementsP50: median(hits),
      },
      notes: [
        `${rounds} rounds; before each, the certificate is purged from the edge's D1 (off the clock) and viewed once at the origin on one connection (origin p50 ${originP50.toFixed(1)} ms)`,
        `D1 statements per request (X-D1-Statements), p50 / max: the request that went upstream ${median(leaders)} / ${max(leaders)}, the ones that joined it ${median(joiners)} / ${max(joiners)}, a later hit from memory ${median(hits)} / ${max(hits)} (a request that reloads its tenant row, every 5 s per isolate, adds that read and a last-seen write)`,
      ],
    };
  },
};
