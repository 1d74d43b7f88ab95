// Concurrent misses of one document: a round of requests for one certificate nobody asked for
// before, all at once. One upstream call must answer the round, and the requests that join it
// should wait for that call only, not for D1 work of their own.
import { emptySample, type LoadSample, mergeSamples, quantile } from "../load";
import { purgeCertificate } from "../admin-client";
import {
  type BenchContext,
  preflight,
  type Scenario,
  type ScenarioOutcome,
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

/** Where the rounds run, and what they may use. */
export interface CollapsedRounds {
  readonly edgeUrl: string;
  readonly originUrl: string;
  /** A tenant's headers at the edge; the edge is asked to count each request's D1 statements. */
  readonly headers: Record<string, string>;
  /** The upstream's credential, for its own view of each certificate (the reference). */
  readonly originHeaders: Record<string, string>;
  /** Certificates to ask for, one per round, in order. */
  readonly fingerprints: readonly string[];
  /** Removes a certificate from the edge's cache (off the clock). */
  purge(fingerprint: string): Promise<void>;
  /** When to stop starting rounds (a `performance.now()` time), and at most this many. */
  readonly deadline: number;
  readonly maxRounds: number;
}

/**
 * Rounds of COLLAPSED_ROUND concurrent views of one certificate just purged from the edge, each
 * after the origin's own view of it on one connection: the figures of `edge-miss-collapsed`, on
 * workerd's sockets (the bench) or on the local system (local-system).
 */
export async function collapsedRounds(run: CollapsedRounds): Promise<ScenarioOutcome> {
  const total = emptySample();
  const origin: number[] = [];
  const leaders: number[] = [];
  const joiners: number[] = [];
  const hits: number[] = [];
  let rounds = 0;
  let upstreamCalls = 0;
  let badRounds = 0;
  for (const fingerprint of run.fingerprints) {
    if (performance.now() > run.deadline || rounds >= run.maxRounds) break;
    await run.purge(fingerprint);
    // The upstream's own cost of this view, on one connection, just before the round.
    origin.push((await timedGet(`${run.originUrl}${viewPath(fingerprint)}`, run.originHeaders)).ms);
    const url = `${run.edgeUrl}${viewPath(fingerprint)}`;
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: COLLAPSED_ROUND }, () => timedGet(url, run.headers)),
    );
    mergeSamples(total, sampleOf(answers, performance.now() - started));
    const led = answers.filter((a) => a.cacheStatus.includes("fwd="));
    upstreamCalls += led.length;
    if (led.length !== 1) badRounds += 1;
    for (const answer of answers) (led.includes(answer) ? leaders : joiners).push(answer.statements);
    // One more request once the round is over: a hit, answered from the edge's memory.
    hits.push((await timedGet(url, run.headers)).statements);
    rounds += 1;
  }
  const originP50 = median(origin);
  const counted = leaders.some(Number.isFinite);
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
      ...(counted
        ? {
            leaderStatementsP50: median(leaders),
            leaderStatementsMax: max(leaders),
            joinerStatementsP50: median(joiners),
            joinerStatementsMax: max(joiners),
            memoryHitStatementsP50: median(hits),
          }
        : {}),
    },
    notes: [
      `${rounds} rounds; before each, the certificate is purged from the edge's cache (off the clock) and viewed once at the origin on one connection (origin p50 ${originP50.toFixed(1)} ms)`,
      counted
        ? `D1 statements per request (X-D1-Statements), p50 / max: the request that went upstream ${median(leaders)} / ${max(leaders)}, the ones that joined it ${median(joiners)} / ${max(joiners)}, a later hit from memory ${median(hits)} / ${max(hits)} (a request that reloads its tenant row, every 5 s per isolate, adds that read and a last-seen write)`
        : "D1 statements not counted (the edge's D1_STATEMENTS_HEADER is off)",
    ],
  };
}

export const edgeMissCollapsed: Scenario = {
  id: "edge-miss-collapsed",
  title: `edge view, ${COLLAPSED_ROUND} concurrent misses of one certificate`,
  async run(ctx: BenchContext) {
    const tenant = await ctx.newTenant("miss-collapsed");
    // Each request asks the edge to count its D1 statements (the cluster allows it).
    const headers = { ...tenantHeaders(tenant), "x-d1-statements": "1" };
    // Certificates the run has not asked for yet: the tail of the probe's list.
    const fresh = [...ctx.probe.fingerprints].reverse();
    if (fresh.length < 4) throw new SkipScenario("the dataset has fewer than 4 certificates");
    await preflight(`${ctx.cluster.edgeUrl}${viewPath(fresh[0] ?? "")}`, { headers });
    return collapsedRounds({
      edgeUrl: ctx.cluster.edgeUrl,
      originUrl: ctx.cluster.originUrl,
      headers,
      originHeaders: { authorization: ctx.originAuth },
      fingerprints: fresh.slice(1),
      // Through the admin API: the isolate's memory tier may still hold it from an earlier scenario.
      purge: (fingerprint) => purgeCertificate(ctx.cluster.edgeUrl, ctx.adminToken, fingerprint),
      deadline: performance.now() + ctx.options.duration * 1000,
      maxRounds: Number.POSITIVE_INFINITY,
    });
  },
};
