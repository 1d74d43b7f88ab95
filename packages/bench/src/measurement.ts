// What a run keeps of a scenario's load: the figures the table, the targets and the results file
// show (raw latencies are reduced here).
import { type LoadSample, quantile } from "./load";
import { type RatioSpread, ratioSpread } from "./paired";

/** How a scenario was measured against its reference in paired slices (paired.ts). */
export interface Pairing {
  /** Id of the row of the reference's own slices. */
  readonly reference: string;
  /** Each pair's ratio (scenario req/s / reference req/s), in the order run; NaN where a side got no answer. */
  readonly ratios: readonly number[];
  /** Seconds of each pair's slices, in the same order (paired.ts: a slice too short to say anything doubles). */
  readonly sliceSeconds: readonly number[];
}

/** A pairing with its ratios reduced: the median a target judges and the spread (null: no pair had both sides answered). */
export interface PairedRatios extends Pairing {
  readonly spread: RatioSpread | null;
}

export interface Measurement {
  readonly id: string;
  readonly title: string;
  /** What was asked, e.g. the path and query. */
  readonly target: string;
  readonly connections: number;
  readonly requests: number;
  /** Responses outside 2xx plus connection errors and timeouts. */
  readonly errors: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly loadSeconds: number;
  /**
   * CPU milliseconds of the bench's workerd processes per request during the load: steadier
   * than requests/s on a shared machine (null: /proc not readable, or no request answered).
   */
  readonly cpuMsPerRequest: number | null;
  readonly counts: Readonly<Record<string, number>>;
  readonly notes: readonly string[];
  /** Set when the scenario ran in paired slices against a reference. */
  readonly pairs?: PairedRatios;
}

/** A scenario that could not run, and why. */
export interface Skipped {
  readonly id: string;
  readonly title: string;
  readonly reason: string;
}

export interface MeasureInput {
  readonly id: string;
  readonly title: string;
  readonly target: string;
  readonly connections: number;
  readonly sample: LoadSample;
  readonly counts?: Readonly<Record<string, number>>;
  readonly notes?: readonly string[];
  readonly pairing?: Pairing;
}

/** Reduces a load sample: requests/s over the time under load, nearest-rank p50 and p99. */
export function measure(input: MeasureInput): Measurement {
  const { sample } = input;
  const sorted = Array.from(Float64Array.from(sample.latenciesMs).sort());
  const seconds = sample.elapsedMs / 1000;
  return {
    id: input.id,
    title: input.title,
    target: input.target,
    connections: input.connections,
    requests: sample.requests,
    errors: sample.non2xx + sample.socketErrors,
    statuses: { ...sample.statuses },
    requestsPerSecond: seconds > 0 ? sample.requests / seconds : 0,
    p50Ms: quantile(sorted, 0.5),
    p99Ms: quantile(sorted, 0.99),
    loadSeconds: seconds,
    cpuMsPerRequest:
      sample.workerdCpuMs === null || sample.requests === 0 ? null : sample.workerdCpuMs / sample.requests,
    counts: { ...input.counts },
    notes: [...(input.notes ?? [])],
    ...(input.pairing ? { pairs: { ...input.pairing, spread: ratioSpread(input.pairing.ratios) } } : {}),
  };
}
