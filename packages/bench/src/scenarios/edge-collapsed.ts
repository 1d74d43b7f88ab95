// Concurrent misses of one document: a round of requests for one certificate nobody asked for
// before, all at once. One upstream call must answer the round, and the requests that join it
// should wait for that call only, not for D1 work of their own.
import http from "node:http";
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

/** Rounds after the timed ones, off the clock, whose requests ask for their D1 statement counts. */
export const COUNTED_ROUNDS = 3;

/**
 * Longer than the edge lets a row or a tenant be held in an isolate's memory
 * (CACHE_MEMORY_HOLD_MS and AUTH_CACHE_TTL_MS are each at most 5 s: apps/edge/src/config.ts):
 * after this pause a cached certificate's hit reads its row from D1.
 */
const PAST_MEMORY_HOLD_MS = 5_250;

interface Answer {
  readonly status: number;
  readonly ms: number;
  readonly cacheStatus: string;
  readonly statements: number;
}

/**
 * GETs over node:http with keep-alive sockets, one per concurrent request. Not `fetch`: in a round
 * of 50, Node's fetch cost this process about 4 ms of the p50 (a round of 50 cached hits: 9.7 ms
 * through fetch, 5.0 to 5.9 ms here), which the edge does not spend.
 */
class Getter {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: COLLAPSED_ROUND });

  get(url: string, headers: Record<string, string>): Promise<Answer> {
    if (!url.startsWith("http:")) throw new Error(`collapsed rounds speak plain HTTP (got ${url})`);
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const request = http.get(url, { headers, agent: this.agent }, (response) => {
        response.resume();
        response.on("error", reject);
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            ms: performance.now() - started,
            cacheStatus: String(response.headers["cache-status"] ?? ""),
            statements: Number(response.headers["x-d1-statements"] ?? Number.NaN),
          }),
        );
      });
      request.on("error", reject);
    });
  }

  /** COLLAPSED_ROUND requests for `url`, all at once. */
  round(url: string, headers: Record<string, string>): Promise<Answer[]> {
    return Promise.all(Array.from({ length: COLLAPSED_ROUND }, () => this.get(url, headers)));
  }

  close(): void {
    this.agent.destroy();
  }
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

const max = (values: readonly number[]) => (values.length > 0 ? Math.max(...values) : Number.NaN);

/** Where the rounds run, and what they may use. */
export interface CollapsedRounds {
  readonly edgeUrl: string;
  readonly originUrl: string;
  /** A tenant's headers at the edge. */
  readonly headers: Record<string, string>;
  /** The upstream's credential, for its own view of each certificate (the reference). */
  readonly originHeaders: Record<string, string>;
  /** Certificates to ask for, one per round, in order (COUNTED_ROUNDS more than the timed rounds). */
  readonly fingerprints: readonly string[];
  /** Removes a certificate from the edge's cache (off the clock). */
  purge(fingerprint: string): Promise<void>;
  /** When to stop starting timed rounds (a `performance.now()` time), and at most this many. */
  readonly deadline: number;
  readonly maxRounds: number;
}

/** The request that went upstream in each round, and the others (which joined it or hit). */
interface RoundAnswers {
  readonly led: Answer[];
  readonly joined: Answer[];
}

/**
 * Rounds of COLLAPSED_ROUND concurrent views of one certificate just purged from the edge, each
 * after the origin's own view of it on one connection: the figures of `edge-miss-collapsed`, on
 * workerd's sockets (the bench) or on the local system (local-system).
 *
 * Each timed round is followed by a round of the same view, now cached: what 50 concurrent
 * requests cost with no upstream call at all. The D1 statement counts come from COUNTED_ROUNDS
 * more rounds off the clock, whose requests send X-D1-Statements: counting is per-request work,
 * so the timed rounds do not ask.
 */
export async function collapsedRounds(run: CollapsedRounds): Promise<ScenarioOutcome> {
  const getter = new Getter();
  const counting = { ...run.headers, "x-d1-statements": "1" };
  const total = emptySample();
  const origin: number[] = [];
  const cachedRounds: number[] = [];
  const statements = {
    leaders: [] as number[],
    joiners: [] as number[],
    hits: [] as number[],
    d1Hits: [] as number[],
  };
  let rounds = 0;
  let counted = 0;
  let upstreamCalls = 0;
  let badRounds = 0;

  /** A round for a certificate just purged: the request that led the upstream call, and the rest. */
  const missRound = async (fingerprint: string, headers: Record<string, string>): Promise<RoundAnswers> => {
    const answers = await getter.round(`${run.edgeUrl}${viewPath(fingerprint)}`, headers);
    const led = answers.filter((a) => a.cacheStatus.includes("fwd="));
    upstreamCalls += led.length;
    if (led.length !== 1) badRounds += 1;
    return { led, joined: answers.filter((a) => !led.includes(a)) };
  };

  try {
    // The last COUNTED_ROUNDS certificates are kept for the counted rounds.
    const timedOnes = run.fingerprints.slice(0, Math.max(0, run.fingerprints.length - COUNTED_ROUNDS));
    for (const fingerprint of timedOnes) {
      if (performance.now() > run.deadline || rounds >= run.maxRounds) break;
      await run.purge(fingerprint);
      // The upstream's own cost of this view, on one connection, just before the round.
      origin.push((await getter.get(`${run.originUrl}${viewPath(fingerprint)}`, run.originHeaders)).ms);
      const started = performance.now();
      const { led, joined } = await missRound(fingerprint, run.headers);
      mergeSamples(total, sampleOf([...led, ...joined], performance.now() - started));
      const cached = await getter.round(`${run.edgeUrl}${viewPath(fingerprint)}`, run.headers);
      cachedRounds.push(median(cached.map((a) => a.ms)));
      rounds += 1;
    }
    for (const fingerprint of run.fingerprints.slice(rounds, rounds + COUNTED_ROUNDS)) {
      await run.purge(fingerprint);
      const { led, joined } = await missRound(fingerprint, counting);
      statements.leaders.push(...led.map((a) => a.statements));
      statements.joiners.push(...joined.map((a) => a.statements));
      // One more request once the round is over: a hit, answered from the edge's memory.
      statements.hits.push((await getter.get(`${run.edgeUrl}${viewPath(fingerprint)}`, counting)).statements);
      counted += 1;
    }
    // Hits read from D1: the counted certificates once no memory holds them. The account
    // request after the pause is not counted: it reloads the tenant row the counted ones then find.
    const countedOnes = run.fingerprints.slice(rounds, rounds + counted);
    if (countedOnes.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, PAST_MEMORY_HOLD_MS));
      await getter.get(`${run.edgeUrl}/api/v1/account`, run.headers);
      for (const fingerprint of countedOnes)
        statements.d1Hits.push(
          (await getter.get(`${run.edgeUrl}${viewPath(fingerprint)}`, counting)).statements,
        );
    }
  } finally {
    getter.close();
  }

  const originP50 = median(origin);
  const cachedP50 = median(cachedRounds);
  const countsKnown = statements.leaders.some(Number.isFinite);
  const { leaders, joiners, hits, d1Hits } = statements;
  return {
    kind: "ran",
    sample: total,
    connections: COLLAPSED_ROUND,
    target: `GET /api/v1/view/certificates/:sha256, ${COLLAPSED_ROUND} at once, a new certificate each round`,
    counts: {
      rounds,
      countedRounds: counted,
      upstreamCalls,
      roundsWithOtherThanOneCall: badRounds,
      originViewP50Ms: Math.round(originP50 * 100) / 100,
      cachedRoundP50Ms: Math.round(cachedP50 * 100) / 100,
      ...(countsKnown
        ? {
            leaderStatementsP50: median(leaders),
            leaderStatementsMax: max(leaders),
            joinerStatementsP50: median(joiners),
            joinerStatementsMax: max(joiners),
            memoryHitStatementsP50: median(hits),
            memoryHitStatementsMax: max(hits),
            d1HitStatementsP50: median(d1Hits),
            d1HitStatementsMax: max(d1Hits),
          }
        : {}),
    },
    notes: [
      `${rounds} timed rounds; before each, the certificate is purged from the edge's cache (off the clock) and viewed once at the origin on one connection (origin p50 ${originP50.toFixed(1)} ms); after each, a round of the same view, now cached (p50 of the rounds' p50s ${cachedP50.toFixed(1)} ms: 50 concurrent requests with no upstream call)`,
      countsKnown
        ? `D1 statements per request (X-D1-Statements, in ${counted} more rounds off the clock), p50 / max: the request that went upstream ${median(leaders)} / ${max(leaders)}, the ones that joined it ${median(joiners)} / ${max(joiners)}, a later hit from memory ${median(hits)} / ${max(hits)}, a hit read from D1 ${median(d1Hits)} / ${max(d1Hits)} (the same certificates ${PAST_MEMORY_HOLD_MS / 1000} s later, when no memory holds them; a request that reloads its tenant row, every 5 s per isolate, adds that read and a last-seen write)`
        : "D1 statements not counted (the edge's D1_STATEMENTS_HEADER is off)",
    ],
  };
}

export const edgeMissCollapsed: Scenario = {
  id: "edge-miss-collapsed",
  title: `edge view, ${COLLAPSED_ROUND} concurrent misses of one certificate`,
  async run(ctx: BenchContext) {
    const tenant = await ctx.newTenant("miss-collapsed");
    const headers = tenantHeaders(tenant);
    // Certificates the run has not asked for yet: the tail of the probe's list.
    const fresh = [...ctx.probe.fingerprints].reverse();
    if (fresh.length < 2 + COUNTED_ROUNDS) {
      throw new SkipScenario(`the dataset has fewer than ${2 + COUNTED_ROUNDS} certificates`);
    }
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
