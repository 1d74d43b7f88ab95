import { NetworkError, QuotaExceededError, RateLimitError, ServerError, type ScangateError } from "./errors";

/** How the client retries. Every bound is finite: a call never retries forever. */
export interface RetryOptions {
  /** Retries after a 5xx or a network error, only for requests that are safe to repeat. */
  maxRetries: number;
  /** Retries after a burst-rate-limit 429 (never after quota exhaustion). */
  maxRateLimitRetries: number;
  /** The longest `Retry-After` the client waits out; a longer one is thrown as RateLimitError. */
  maxRetryAfterMs: number;
  /** First backoff delay; it doubles per retry. */
  baseDelayMs: number;
  /** Ceiling of one backoff delay. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_OPTIONS: Readonly<RetryOptions> = {
  maxRetries: 3,
  maxRateLimitRetries: 3,
  maxRetryAfterMs: 60_000,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
};

/** `false` turns retries off; a partial object overrides the defaults. */
export type RetryOptionsInput = Partial<RetryOptions> | false;

export function resolveRetryOptions(input: RetryOptionsInput | undefined): RetryOptions {
  if (input === false) return { ...DEFAULT_RETRY_OPTIONS, maxRetries: 0, maxRateLimitRetries: 0 };
  const merged = { ...DEFAULT_RETRY_OPTIONS, ...input };
  for (const [key, value] of Object.entries(merged)) {
    if (!Number.isFinite(value) || value < 0)
      throw new RangeError(`retry.${key} must be a finite number >= 0`);
  }
  return merged;
}

/**
 * Exponential backoff with "equal jitter": half the capped delay is fixed, half random, so
 * clients that failed together spread out without any of them retrying at once.
 */
export function backoffDelay(
  retry: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  const capped = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return Math.round(capped / 2 + (random() * capped) / 2);
}

export interface RetryState {
  /** Retries already spent on 5xx and network errors. */
  serverRetries: number;
  /** Retries already spent on burst 429s. */
  rateLimitRetries: number;
}

export type RetryDecision =
  | { retry: true; delayMs: number; reason: "rate_limit" | "server" }
  | { retry: false };

const RETRYABLE_STATUSES = new Set([500, 502, 503, 504]);

/**
 * Whether to retry after `error`. A burst 429 is retried for every request, since the service
 * turned it away before doing anything; 5xx and network errors only when `idempotent`, since
 * the first attempt may have run (a job must never start twice).
 */
export function decideRetry(
  error: ScangateError,
  state: RetryState,
  idempotent: boolean,
  options: RetryOptions,
  random: () => number = Math.random,
): RetryDecision {
  if (error instanceof QuotaExceededError) return { retry: false };
  if (error instanceof RateLimitError) {
    if (state.rateLimitRetries >= options.maxRateLimitRetries) return { retry: false };
    const delayMs =
      error.retryAfter === undefined
        ? backoffDelay(state.rateLimitRetries, options, random)
        : error.retryAfter * 1000;
    return delayMs <= options.maxRetryAfterMs
      ? { retry: true, delayMs, reason: "rate_limit" }
      : { retry: false };
  }
  const transient =
    error instanceof NetworkError || (error instanceof ServerError && RETRYABLE_STATUSES.has(error.status));
  if (!transient || !idempotent || state.serverRetries >= options.maxRetries) return { retry: false };
  return { retry: true, delayMs: backoffDelay(state.serverRetries, options, random), reason: "server" };
}
