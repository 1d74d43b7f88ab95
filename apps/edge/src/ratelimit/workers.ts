import type { Clock } from "@scangate/core/http";
import { rateTierNamed, type RateTier } from "../config";
import type { Env } from "../env";
import { FixedWindowRateLimiter } from "./fixed-window";
import type { RateDecision, RateLimiter } from "./interface";

/**
 * The Workers Rate Limiting binding (`ratelimits` in wrangler.jsonc), one binding per tier,
 * keyed by tenant. The binding counts per Cloudflare location and is eventually consistent:
 * right for burst protection, which is why exact accounting is the quota's job, not this.
 */
export class WorkersRateLimiter implements RateLimiter {
  constructor(
    private readonly env: Env,
    private readonly tiers: Readonly<Record<string, RateTier>>,
  ) {}

  async check(tenantId: string, tierName: string): Promise<RateDecision> {
    const tier = rateTierNamed(this.tiers, tierName);
    // A tier removed from config after tenants were put on it: no burst limit rather than an outage.
    if (!tier || tier.unlimited) return { allowed: true };
    const binding = this.env[tier.binding as `RATE_LIMIT_${string}`];
    if (!binding) return { allowed: true };
    const { success } = await binding.limit({ key: tenantId });
    return success ? { allowed: true } : { allowed: false, retryAfterSeconds: tier.periodSeconds };
  }
}

/**
 * One fixed limit on one Rate Limiting binding, keyed by the caller; for a deployment that
 * lacks the binding, exact fixed windows in this isolate's memory (weaker, but never unlimited).
 */
export function bindingRateLimiter(
  binding: RateLimit | undefined,
  limits: { readonly limit: number; readonly periodSeconds: number },
  clock: Clock,
): RateLimiter {
  if (!binding) return new FixedWindowRateLimiter(limits.limit, limits.periodSeconds, clock);
  return {
    check: async (key) =>
      (await binding.limit({ key })).success
        ? { allowed: true }
        : { allowed: false, retryAfterSeconds: limits.periodSeconds },
  };
}
