import type { Clock } from "@scangate/core/http";
import type { Env } from "../env";
import { FixedWindowRateLimiter } from "../ratelimit/fixed-window";

/**
 * Sign-in attempts are limited per account (API id, or the admin console) and per client
 * address, through the Workers Rate Limiting bindings declared in wrangler.jsonc. Every attempt
 * counts, not only failures: the check must come before the credentials are looked at, or a
 * guesser would still learn when a guess was right.
 */
export const SIGNIN_LIMITS = {
  account: { binding: "RATE_LIMIT_SIGNIN_ACCOUNT", limit: 5, periodSeconds: 60 },
  address: { binding: "RATE_LIMIT_SIGNIN_ADDRESS", limit: 20, periodSeconds: 60 },
} as const;

export type SignInScope = keyof typeof SIGNIN_LIMITS;
export type SignInDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Per-isolate stand-ins for a deployment that lacks the bindings (weaker, but never unlimited). */
const fallbacks = new Map<SignInScope, FixedWindowRateLimiter>();

function fallback(scope: SignInScope, clock: Clock): FixedWindowRateLimiter {
  let limiter = fallbacks.get(scope);
  if (!limiter) {
    limiter = new FixedWindowRateLimiter(
      SIGNIN_LIMITS[scope].limit,
      SIGNIN_LIMITS[scope].periodSeconds,
      clock,
    );
    fallbacks.set(scope, limiter);
  }
  return limiter;
}

/** Counts one attempt against each key; refused when any of them is over its limit. */
export async function countSignInAttempt(
  env: Env,
  clock: Clock,
  keys: readonly { scope: SignInScope; key: string }[],
): Promise<SignInDecision> {
  let refusedFor = 0;
  for (const { scope, key } of keys) {
    const limits = SIGNIN_LIMITS[scope];
    const binding = env[limits.binding];
    const allowed = binding
      ? (await binding.limit({ key: `${scope}:${key}` })).success
      : (await fallback(scope, clock).check(`${scope}:${key}`, scope)).allowed;
    if (!allowed) refusedFor = Math.max(refusedFor, limits.periodSeconds);
  }
  return refusedFor > 0 ? { allowed: false, retryAfterSeconds: refusedFor } : { allowed: true };
}

/** The client's address as Cloudflare reports it (absent only off Cloudflare: one shared bucket). */
export function clientAddress(header: (name: string) => string | undefined): string {
  return header("cf-connecting-ip") ?? "unknown";
}
