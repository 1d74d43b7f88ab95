// The load generator: autocannon on loopback, one scenario at a time. Latencies are recorded
// per response here (not only autocannon's summary), so a scenario run in several rounds
// (purging the cache between them) still reports one p50/p99 over all of its requests.
import autocannon from "autocannon";
import { workerdCpuMs } from "./workerd-cpu";

export interface RequestSpec {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly body?: string;
}

export interface LoadPlan {
  /** Origin of the target, e.g. http://127.0.0.1:40123. */
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  /** One request repeated, or a list walked in order (each request the next entry, wrapping). */
  readonly requests: readonly RequestSpec[];
  /**
   * Where the walk over a list starts, advanced as requests are sent: a load in slices passes the
   * same cursor to each, so every slice goes on where the last one stopped. From 0 when not given.
   */
  readonly cursor?: { next: number };
  readonly connections: number;
  /** Stop after this many requests (all connections together), else after `durationSeconds`. */
  readonly amount?: number;
  readonly durationSeconds: number;
}

/** What one or more load runs measured. */
export interface LoadSample {
  requests: number;
  /** Responses with a status outside 2xx. */
  non2xx: number;
  /** Connection errors and timeouts (no response at all). */
  socketErrors: number;
  statuses: Record<string, number>;
  latenciesMs: number[];
  elapsedMs: number;
  /**
   * CPU time the bench's workerd processes used during the load (`workerd-cpu.ts`); null when
   * not measured (a sample built from other timings, or no /proc to read).
   */
  workerdCpuMs: number | null;
}

export function emptySample(): LoadSample {
  return {
    requests: 0,
    non2xx: 0,
    socketErrors: 0,
    statuses: {},
    latenciesMs: [],
    elapsedMs: 0,
    workerdCpuMs: null,
  };
}

export function mergeSamples(into: LoadSample, add: LoadSample): LoadSample {
  into.requests += add.requests;
  into.non2xx += add.non2xx;
  into.socketErrors += add.socketErrors;
  for (const [status, count] of Object.entries(add.statuses))
    into.statuses[status] = (into.statuses[status] ?? 0) + count;
  for (const ms of add.latenciesMs) into.latenciesMs.push(ms);
  into.elapsedMs += add.elapsedMs;
  if (add.workerdCpuMs !== null) into.workerdCpuMs = (into.workerdCpuMs ?? 0) + add.workerdCpuMs;
  return into;
}

function autocannonRequests(
  specs: readonly RequestSpec[],
  cursor: { next: number } = { next: 0 },
): autocannon.Request[] {
  const [only] = specs;
  if (!only) throw new Error("a load plan needs at least one request");
  if (specs.length === 1)
    return [
      { method: only.method, path: only.path, ...(only.body !== undefined ? { body: only.body } : {}) },
    ];
  // One shared cursor over the list for every connection: with `amount` equal to the list's
  // length, each entry is sent exactly once.
  return [
    {
      setupRequest: (request) => {
        const spec = specs[cursor.next % specs.length] as RequestSpec;
        cursor.next += 1;
        return {
          ...request,
          method: spec.method,
          path: spec.path,
          ...(spec.body !== undefined ? { body: spec.body } : {}),
        };
      },
    },
  ];
}

/** Runs one load test to completion. */
export function runLoad(plan: LoadPlan): Promise<LoadSample> {
  const sample = emptySample();
  const cpuBefore = workerdCpuMs();
  const started = performance.now();
  let lastAnswer = started;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: plan.baseUrl,
        // autocannon refuses more connections than requests.
        connections: Math.min(plan.connections, plan.amount ?? plan.connections),
        headers: { ...plan.headers },
        requests: autocannonRequests(plan.requests, plan.cursor),
        ...(plan.amount !== undefined ? { amount: plan.amount } : { duration: plan.durationSeconds }),
        timeout: 30,
        // autocannon notices it is done only on this tick (1 s by default): rounds end sooner.
        sampleInt: 100,
      },
      (error: unknown, result: autocannon.Result) => {
        if (error) {
          reject(error instanceof Error ? error : new Error(JSON.stringify(error)));
          return;
        }
        // Up to the last answer, not to autocannon's wind-down (up to one sampleInt tick).
        sample.elapsedMs = (sample.requests > 0 ? lastAnswer : performance.now()) - started;
        sample.socketErrors = result.errors;
        const cpuAfter = workerdCpuMs();
        sample.workerdCpuMs = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
        for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
          sample.statuses[status] = (sample.statuses[status] ?? 0) + (stats.count ?? 0);
        }
        resolve(sample);
      },
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      lastAnswer = performance.now();
      sample.requests += 1;
      if (statusCode < 200 || statusCode > 299) sample.non2xx += 1;
      sample.latenciesMs.push(responseTime);
    });
  });
}

/** The q-quantile (0..1) of latencies, nearest-rank. */
export function quantile(sortedMs: readonly number[], q: number): number {
  if (sortedMs.length === 0) return Number.NaN;
  const rank = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil(q * sortedMs.length) - 1));
  return sortedMs[rank] as number;
}
