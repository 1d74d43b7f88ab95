/** Burst limiting per tenant. */
export interface RateLimiter {
  /** Counts one request of `tenantId` against its tier. */
  check(tenantId: string, tier: string): Promise<RateDecision>;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };
