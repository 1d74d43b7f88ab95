import type { Clock } from "@scangate/core/http";
import type { RateDecision, RateLimiter } from "./interface";

/**
 * An exact fixed-window limiter in memory: deterministic under an injected clock, so tests can
 * assert the burst behaviour the Workers binding only approximates.
 */
export class FixedWindowRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly periodSeconds: number,
    private readonly clock: Clock,
  ) {}

  check(tenantId: string, _tier: string): Promise<RateDecision> {
    const now = this.clock.now();
    const periodMs = this.periodSeconds * 1000;
    const start = now - (now % periodMs);
    const window = this.windows.get(tenantId);
    const current = window && window.start === start ? window : { start, count: 0 };
    current.count += 1;
    this.windows.set(tenantId, current);
    if (current.count <= this.limit) return Promise.resolve({ allowed: true });
    return Promise.resolve({ allowed: false, retryAfterSeconds: Math.ceil((start + periodMs - now) / 1000) });
  }
}

/** No burst limit at all (benchmarks, and tests about something else). */
export const unlimitedRateLimiter: RateLimiter = { check: () => Promise.resolve({ allowed: true }) };
