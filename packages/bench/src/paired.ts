// Paired slices: a scenario and its reference measured in alternating short slices, so that
// whatever else loads the machine meanwhile falls on both sides of each pair alike. Each pair
// gives one ratio (the scenario's requests/s over the reference's in that pair); a target judges
// the median of them, and their spread says how steady the comparison was.
import { setTimeout as sleep } from "node:timers/promises";
import { emptySample, type LoadSample, mergeSamples } from "./load";

/** The pair ratios of one comparison, reduced: the median a target judges and the spread around it. */
export interface RatioSpread {
  readonly count: number;
  readonly median: number;
  readonly min: number;
  readonly p25: number;
  readonly p75: number;
  readonly max: number;
}

/**
 * The q-quantile (0..1) of sorted values, interpolated between the two nearest ranks (so the
 * median of an even count is the mean of the middle two).
 */
export function interpolatedQuantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const low = sorted[below] as number;
  const high = sorted[Math.min(sorted.length - 1, below + 1)] as number;
  return low + (high - low) * (at - below);
}

/** Median and spread of the ratios that are numbers (a pair with a side that answered nothing has none); null when none is. */
export function ratioSpread(ratios: readonly number[]): RatioSpread | null {
  const sorted = ratios.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  return {
    count: sorted.length,
    median: interpolatedQuantile(sorted, 0.5),
    min: sorted[0] as number,
    p25: interpolatedQuantile(sorted, 0.25),
    p75: interpolatedQuantile(sorted, 0.75),
    max: sorted[sorted.length - 1] as number,
  };
}

/** "median 0.93 (min 0.81, p25 0.90, p75 0.95, max 1.02; 10 pairs)". */
export function formatSpread(spread: RatioSpread): string {
  const f = (n: number) => n.toFixed(2);
  return `median ${f(spread.median)} (min ${f(spread.min)}, p25 ${f(spread.p25)}, p75 ${f(spread.p75)}, max ${f(spread.max)}; ${spread.count} pair${spread.count === 1 ? "" : "s"})`;
}

/** The slice lengths of a comparison: "1" when all were, else "1-4". */
export function sliceRange(seconds: readonly number[]): string {
  if (seconds.length === 0) return "-";
  const [low, high] = [Math.min(...seconds), Math.max(...seconds)];
  return low === high ? `${low}` : `${low}-${high}`;
}

/** Requests a second of one slice, over its time to the last answer; NaN for a slice that got none. */
export function sliceRate(sample: Pick<LoadSample, "requests" | "elapsedMs">): number {
  return sample.requests > 0 && sample.elapsedMs > 0
    ? sample.requests / (sample.elapsedMs / 1000)
    : Number.NaN;
}

/** The scenario's requests/s over the reference's, pair by pair. */
export function pairRatios(
  pairs: ReadonlyArray<{
    readonly scenario: Pick<LoadSample, "requests" | "elapsedMs">;
    readonly reference: Pick<LoadSample, "requests" | "elapsedMs">;
  }>,
): number[] {
  return pairs.map((pair) => sliceRate(pair.scenario) / sliceRate(pair.reference));
}

/** Which side runs first in pair `index`: the scenario in even pairs, the reference in odd ones. */
export function scenarioFirst(index: number): boolean {
  return index % 2 === 0;
}

/** How long a comparison runs, and how its slices grow when they are too short to say anything. */
export interface PairPlan {
  /** Seconds of load each side gets in all (at least one pair runs, and the last may go past it). */
  readonly durationSeconds: number;
  /** Seconds of each slice at first. */
  readonly sliceSeconds: number;
  /**
   * A pair with a slice that got fewer answers doubles the slices after it (up to
   * durationSeconds): a rate over a few answers is mostly the rounding of when they came.
   */
  readonly minAnswers: number;
}

/** The slice length after a pair whose slices got `answers` (the fewer of the two sides). */
export function nextSliceSeconds(current: number, answers: number, plan: PairPlan): number {
  return answers < plan.minAnswers ? Math.min(current * 2, Math.max(current, plan.durationSeconds)) : current;
}

/** The longest a drain after a slice waits. */
const MAX_DRAIN_MS = 10_000;

/**
 * How long to wait after a slice before the next one starts: a slice that ends at its time stops
 * listening to the requests still in flight, but the worker goes on with them, and would spend
 * the next slice's time on them (the other side's, when both share the machine). Those should be
 * done within as long as the slice's slowest answer took (its own length when nothing was
 * answered), at most MAX_DRAIN_MS.
 */
export function drainMs(sample: Pick<LoadSample, "latenciesMs">, sliceSeconds: number): number {
  let slowest = 0;
  for (const ms of sample.latenciesMs) if (ms > slowest) slowest = ms;
  return Math.min(MAX_DRAIN_MS, sample.latenciesMs.length > 0 ? slowest : sliceSeconds * 1000);
}

/** One side of a comparison: a slice of its load, whatever state it needs set first (off the clock). */
export interface Slicer {
  slice(seconds: number): Promise<LoadSample>;
}

/** Both sides' slices merged (each side's absolute figures), and each pair's ratio and slice length, in order. */
export interface PairedLoad {
  readonly scenario: LoadSample;
  readonly reference: LoadSample;
  readonly ratios: number[];
  readonly sliceSeconds: number[];
}

/**
 * Pairs of slices, one of each side in every pair, one right after the other (after the drain of
 * the one before, `drainMs`), the side that goes first alternating (scenarioFirst), until each
 * side has had `plan.durationSeconds`.
 */
export async function runPairs(scenario: Slicer, reference: Slicer, plan: PairPlan): Promise<PairedLoad> {
  const totals = { scenario: emptySample(), reference: emptySample() };
  const measured: Array<{ scenario: LoadSample; reference: LoadSample }> = [];
  const lengths: number[] = [];
  let seconds = plan.sliceSeconds;
  let spent = 0;
  // A hair under the duration counts as done: slice lengths such as 0.1 do not add up exactly.
  for (let i = 0; i === 0 || spent < plan.durationSeconds - 1e-9; i += 1) {
    const first = scenarioFirst(i) ? scenario : reference;
    const second = first === scenario ? reference : scenario;
    const a = await first.slice(seconds);
    await sleep(drainMs(a, seconds));
    const b = await second.slice(seconds);
    await sleep(drainMs(b, seconds));
    const pair = first === scenario ? { scenario: a, reference: b } : { scenario: b, reference: a };
    measured.push(pair);
    lengths.push(seconds);
    mergeSamples(totals.scenario, pair.scenario);
    mergeSamples(totals.reference, pair.reference);
    spent += seconds;
    seconds = nextSliceSeconds(seconds, Math.min(a.requests, b.requests), plan);
  }
  return { ...totals, ratios: pairRatios(measured), sliceSeconds: lengths };
}
