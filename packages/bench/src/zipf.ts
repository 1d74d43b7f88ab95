// A seeded Zipf workload: the popularity shape of real lookups (a few certificates asked for
// all the time, a long tail asked for once), reproducible run after run.

/** mulberry32: a small, fast 32-bit PRNG; good enough to draw a workload, and seeded. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Draws ranks 0..n-1 with P(rank k) proportional to 1 / (k + 1)^s, by binary search over the
 * cumulative distribution (computed once).
 */
export class ZipfSampler {
  private readonly cdf: Float64Array;

  constructor(
    readonly n: number,
    readonly s: number,
    private readonly random: () => number,
  ) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError("n must be a positive integer");
    if (!(s > 0)) throw new RangeError("s must be positive");
    this.cdf = new Float64Array(n);
    let total = 0;
    for (let k = 0; k < n; k++) {
      total += 1 / Math.pow(k + 1, s);
      this.cdf[k] = total;
    }
    for (let k = 0; k < n; k++) this.cdf[k] = (this.cdf[k] ?? 0) / total;
  }

  next(): number {
    const u = this.random();
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cdf[mid] ?? 1) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Fisher-Yates with the given PRNG, so which key is popular does not follow the key order. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const a = out[i] as T;
    out[i] = out[j] as T;
    out[j] = a;
  }
  return out;
}

export interface ZipfWorkload<T> {
  readonly lookups: T[];
  readonly distinct: number;
}

/** `count` lookups over `keys` (rank order shuffled by the seed), and how many distinct keys they touch. */
export function zipfWorkload<T>(keys: readonly T[], count: number, s: number, seed: number): ZipfWorkload<T> {
  const random = mulberry32(seed);
  const ranked = shuffled(keys, random);
  const sampler = new ZipfSampler(ranked.length, s, random);
  const lookups: T[] = [];
  for (let i = 0; i < count; i++) lookups.push(ranked[sampler.next()] as T);
  return { lookups, distinct: new Set(lookups).size };
}
