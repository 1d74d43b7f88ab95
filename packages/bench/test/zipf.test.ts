import { describe, expect, it } from "vitest";
import { mulberry32, shuffled, ZipfSampler, zipfWorkload } from "../src/zipf";

function harmonic(n: number, s: number): number {
  let h = 0;
  for (let k = 1; k <= n; k++) h += 1 / Math.pow(k, s);
  return h;
}

function frequencies(sampler: ZipfSampler, draws: number): number[] {
  const counts = new Array<number>(sampler.n).fill(0);
  for (let i = 0; i < draws; i++) {
    const rank = sampler.next();
    counts[rank] = (counts[rank] ?? 0) + 1;
  }
  return counts;
}

describe("mulberry32", () => {
  it("gives the same sequence for the same seed and another for another seed", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const first = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(first);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(first);
  });

  it("draws in [0, 1) with a mean near one half", () => {
    const random = mulberry32(7);
    const draws = Array.from({ length: 50_000 }, () => random());
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.01);
  });
});

describe("ZipfSampler", () => {
  it("draws every rank in 0..n-1 and nothing outside it", () => {
    const counts = frequencies(new ZipfSampler(20, 0.5, mulberry32(1)), 20_000);
    expect(counts).toHaveLength(20);
    expect(counts.every((c) => c > 0)).toBe(true);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(20_000);
  });

  it("gives rank k a share of 1/(k+1)^s over the harmonic number, within sampling error", () => {
    const n = 100;
    const s = 1;
    const draws = 200_000;
    const counts = frequencies(new ZipfSampler(n, s, mulberry32(3)), draws);
    const h = harmonic(n, s);
    for (const k of [0, 1, 2, 9, 49]) {
      const expected = 1 / Math.pow(k + 1, s) / h;
      const observed = (counts[k] ?? 0) / draws;
      // Five standard deviations of a binomial share.
      const sd = Math.sqrt((expected * (1 - expected)) / draws);
      expect(Math.abs(observed - expected)).toBeLessThan(5 * sd);
    }
    // With s = 1 the most popular key is asked about twice as often as the second.
    expect((counts[0] ?? 0) / (counts[1] ?? 1)).toBeGreaterThan(1.85);
    expect((counts[0] ?? 0) / (counts[1] ?? 1)).toBeLessThan(2.15);
  });

  it("concentrates on the first rank as the exponent grows", () => {
    const share = (s: number) =>
      (frequencies(new ZipfSampler(1000, s, mulberry32(5)), 20_000)[0] ?? 0) / 20_000;
    expect(share(0.5)).toBeLessThan(share(1));
    expect(share(1)).toBeLessThan(share(2));
    expect(share(2)).toBeGreaterThan(0.55);
  });

  it("refuses an empty key space or a non-positive exponent", () => {
    expect(() => new ZipfSampler(0, 1, mulberry32(1))).toThrow(RangeError);
    expect(() => new ZipfSampler(1.5, 1, mulberry32(1))).toThrow(RangeError);
    expect(() => new ZipfSampler(10, 0, mulberry32(1))).toThrow(RangeError);
  });
});

describe("zipfWorkload", () => {
  const keys = Array.from({ length: 2000 }, (_, i) => `key-${i}`);

  it("is reproducible from its seed and counts its distinct keys", () => {
    const a = zipfWorkload(keys, 20_000, 1, 1);
    const b = zipfWorkload(keys, 20_000, 1, 1);
    const c = zipfWorkload(keys, 20_000, 1, 2);
    expect(a.lookups).toHaveLength(20_000);
    expect(b.lookups).toEqual(a.lookups);
    expect(c.lookups).not.toEqual(a.lookups);
    expect(a.distinct).toBe(new Set(a.lookups).size);
    expect(a.lookups.every((k) => keys.includes(k))).toBe(true);
  });

  it("touches about as many distinct keys as the distribution predicts", () => {
    // Expected distinct keys after N draws: the sum over keys of 1 - (1 - p_k)^N.
    const n = keys.length;
    const h = harmonic(n, 1);
    let expected = 0;
    for (let k = 1; k <= n; k++) expected += 1 - Math.pow(1 - 1 / k / h, 20_000);
    const { distinct } = zipfWorkload(keys, 20_000, 1, 1);
    expect(Math.abs(distinct - expected) / expected).toBeLessThan(0.03);
    expect(distinct).toBeLessThan(n);
  });

  it("does not make the first keys of the list the popular ones", () => {
    const { lookups } = zipfWorkload(keys, 20_000, 1, 1);
    const counts = new Map<string, number>();
    for (const k of lookups) counts.set(k, (counts.get(k) ?? 0) + 1);
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    expect(top).not.toBe("key-0");
  });
});

describe("shuffled", () => {
  it("returns a permutation and leaves its input alone", () => {
    const input = Array.from({ length: 50 }, (_, i) => i);
    const out = shuffled(input, mulberry32(9));
    expect(out).not.toEqual(input);
    expect([...out].sort((a, b) => a - b)).toEqual(input);
    expect(input[0]).toBe(0);
  });
});
