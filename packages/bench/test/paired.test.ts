import { describe, expect, it } from "vitest";
import { emptySample, type LoadSample } from "../src/load";
import {
  drainMs,
  formatSpread,
  interpolatedQuantile,
  nextSliceSeconds,
  pairRatios,
  ratioSpread,
  runPairs,
  scenarioFirst,
  sliceRange,
  type Slicer,
} from "../src/paired";

/** A slice's sample: `requests` answered over `seconds`. */
function slice(requests: number, seconds: number, cpuMs: number | null = null): LoadSample {
  return { ...emptySample(), requests, elapsedMs: seconds * 1000, latenciesMs: [1], workerdCpuMs: cpuMs };
}

describe("ratioSpread", () => {
  it("gives the median (the mean of the middle two of an even count), the quartiles and the extremes", () => {
    expect(ratioSpread([1.2, 0.8, 1.0, 0.9])).toEqual({
      count: 4,
      median: 0.95,
      min: 0.8,
      p25: 0.875,
      p75: 1.05,
      max: 1.2,
    });
    expect(ratioSpread([0.5, 3, 1])?.median).toBe(1);
  });

  it("leaves out the pairs with no ratio, and is null when no pair has one", () => {
    expect(ratioSpread([Number.NaN, 0.9, Number.POSITIVE_INFINITY, 1.1])).toMatchObject({
      count: 2,
      median: 1,
    });
    expect(ratioSpread([Number.NaN])).toBeNull();
    expect(ratioSpread([])).toBeNull();
  });

  it("is not moved by one pair that a burst of other work spoiled, as a ratio of totals would be", () => {
    // Nine quiet pairs at 0.9, and one whose edge slice got a tenth of the machine.
    const pairs = [
      ...Array.from({ length: 9 }, () => ({ scenario: slice(900, 1), reference: slice(1000, 1) })),
      { scenario: slice(90, 1), reference: slice(1000, 1) },
    ];
    expect(ratioSpread(pairRatios(pairs))?.median).toBeCloseTo(0.9, 10);
    expect(ratioSpread(pairRatios(pairs))?.min).toBeCloseTo(0.09, 10);
  });

  it("prints the median with its spread and the number of pairs", () => {
    expect(formatSpread({ count: 10, median: 0.934, min: 0.81, p25: 0.9, p75: 0.951, max: 1.02 })).toBe(
      "median 0.93 (min 0.81, p25 0.90, p75 0.95, max 1.02; 10 pairs)",
    );
    expect(formatSpread({ count: 1, median: 1, min: 1, p25: 1, p75: 1, max: 1 })).toContain("; 1 pair)");
  });

  it("interpolates quantiles between ranks, and has none of nothing", () => {
    expect(interpolatedQuantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
    expect(interpolatedQuantile([1, 2], 0.5)).toBe(1.5);
    expect(interpolatedQuantile([], 0.5)).toBeNaN();
  });
});

describe("pairRatios", () => {
  it("is each pair's scenario requests/s over its reference's, over each slice's own time", () => {
    expect(
      pairRatios([
        { scenario: slice(800, 1), reference: slice(1000, 1) },
        { scenario: slice(900, 0.5), reference: slice(1000, 1) },
      ]),
    ).toEqual([0.8, 1.8]);
  });

  it("has no ratio for a pair where a side got no answer", () => {
    const [ratio] = pairRatios([{ scenario: slice(800, 1), reference: slice(0, 1) }]);
    expect(ratio).toBeNaN();
  });
});

describe("the order and length of slices", () => {
  it("lets the scenario go first in even pairs and the reference in odd ones", () => {
    expect([0, 1, 2, 3].map(scenarioFirst)).toEqual([true, false, true, false]);
  });

  it("doubles the slices after a pair with too few answers, up to the duration", () => {
    const plan = { durationSeconds: 10, sliceSeconds: 1, minAnswers: 100 };
    expect(nextSliceSeconds(1, 99, plan)).toBe(2);
    expect(nextSliceSeconds(1, 100, plan)).toBe(1);
    expect(nextSliceSeconds(8, 3, plan)).toBe(10);
    expect(nextSliceSeconds(10, 3, plan)).toBe(10);
  });

  it("names the slice lengths of a comparison", () => {
    expect(sliceRange([1, 1, 1])).toBe("1");
    expect(sliceRange([1, 2, 4])).toBe("1-4");
    expect(sliceRange([])).toBe("-");
  });
});

describe("runPairs", () => {
  /** A side that answers `rate` requests a second, and logs each slice it ran. */
  function side(name: string, rate: number, log: string[]): Slicer {
    return {
      slice: (seconds) => {
        log.push(`${name} ${seconds}`);
        return Promise.resolve(slice(Math.round(rate * seconds), seconds, 10 * seconds));
      },
    };
  }

  it("alternates which side goes first, pair after pair, until each side has had the duration", async () => {
    const log: string[] = [];
    const run = await runPairs(side("edge", 900, log), side("bare", 1000, log), {
      durationSeconds: 4,
      sliceSeconds: 1,
      minAnswers: 100,
    });
    expect(log).toEqual(["edge 1", "bare 1", "bare 1", "edge 1", "edge 1", "bare 1", "bare 1", "edge 1"]);
    expect(run.ratios).toEqual([0.9, 0.9, 0.9, 0.9]);
    expect(run.sliceSeconds).toEqual([1, 1, 1, 1]);
    // Each side's slices merged: its absolute figures.
    expect(run.scenario).toMatchObject({ requests: 3600, elapsedMs: 4000, workerdCpuMs: 40 });
    expect(run.reference).toMatchObject({ requests: 4000, elapsedMs: 4000 });
  });

  it("lengthens the slices of a side too slow to answer enough in one, keeping the time per side", async () => {
    const log: string[] = [];
    const run = await runPairs(side("edge", 30, log), side("origin", 1000, log), {
      durationSeconds: 7,
      sliceSeconds: 1,
      minAnswers: 100,
    });
    expect(run.sliceSeconds).toEqual([1, 2, 4]);
    expect(log).toEqual(["edge 1", "origin 1", "origin 2", "edge 2", "edge 4", "origin 4"]);
  });

  it("runs one pair even when the duration is shorter than a slice", async () => {
    const log: string[] = [];
    const run = await runPairs(side("a", 100, log), side("b", 100, log), {
      durationSeconds: 1,
      sliceSeconds: 2,
      minAnswers: 1,
    });
    expect(run.ratios).toEqual([1]);
    expect(log).toEqual(["a 2", "b 2"]);
  });
});

describe("drainMs", () => {
  it("waits as long as the slice's slowest answer took, at most 10 s", () => {
    expect(drainMs({ latenciesMs: [3, 120.5, 40] }, 1)).toBe(120.5);
    expect(drainMs({ latenciesMs: [25_000] }, 1)).toBe(10_000);
  });

  it("waits the slice's own length when nothing was answered in it", () => {
    expect(drainMs({ latenciesMs: [] }, 2)).toBe(2000);
  });
});
