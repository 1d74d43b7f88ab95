import { describe, expect, it } from "vitest";
import {
  NetworkError,
  NotFoundError,
  QuotaExceededError,
  RateLimitError,
  ServerError,
  UpstreamError,
} from "../../src/errors";
import { parseRetryAfter } from "../../src/retry-after";
import {
  backoffDelay,
  decideRetry,
  DEFAULT_RETRY_OPTIONS,
  resolveRetryOptions,
} from "../../src/retry-policy";

const options = DEFAULT_RETRY_OPTIONS;
const fresh = { serverRetries: 0, rateLimitRetries: 0 };
const init = { status: 0 };
const half = () => 0.5;

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it("reads delta-seconds", () => {
    expect(parseRetryAfter("7", now)).toBe(7);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("1.5", now)).toBe(1.5);
  });
  it("reads an HTTP-date as the seconds until it, rounded up", () => {
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:09 GMT", now)).toBe(9);
  });
  it("gives 0 for a date in the past", () => {
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0);
  });
  it("ignores absent and unreadable values", () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("-3", now)).toBeUndefined();
    expect(parseRetryAfter("later", now)).toBeUndefined();
  });
});

describe("backoffDelay", () => {
  it("doubles per retry between half and all of the capped delay", () => {
    expect(backoffDelay(0, options, () => 0)).toBe(250);
    expect(backoffDelay(0, options, () => 1)).toBe(500);
    expect(backoffDelay(2, options, () => 0)).toBe(1000);
    expect(backoffDelay(2, options, () => 1)).toBe(2000);
  });
  it("never exceeds maxDelayMs", () => {
    expect(backoffDelay(30, options, () => 1)).toBe(options.maxDelayMs);
  });
});

describe("decideRetry", () => {
  it("waits a burst 429's Retry-After, even for a request that is not idempotent", () => {
    const error = new RateLimitError("slow down", { ...init, status: 429, retryAfter: 2 });
    expect(decideRetry(error, fresh, false, options, half)).toEqual({
      retry: true,
      delayMs: 2000,
      reason: "rate_limit",
    });
  });
  it("backs off on a burst 429 without Retry-After", () => {
    const error = new RateLimitError("slow down", { ...init, status: 429 });
    expect(decideRetry(error, fresh, true, options, half)).toEqual({
      retry: true,
      delayMs: 375,
      reason: "rate_limit",
    });
  });
  it("gives up on a Retry-After longer than maxRetryAfterMs", () => {
    const error = new RateLimitError("slow down", { ...init, status: 429, retryAfter: 61 });
    expect(decideRetry(error, fresh, true, options, half)).toEqual({ retry: false });
  });
  it("stops after maxRateLimitRetries", () => {
    const error = new RateLimitError("slow down", { ...init, status: 429, retryAfter: 1 });
    expect(decideRetry(error, { serverRetries: 0, rateLimitRetries: 3 }, true, options, half)).toEqual({
      retry: false,
    });
  });
  it("never retries quota exhaustion", () => {
    const error = new QuotaExceededError("quota", { ...init, status: 429 });
    expect(decideRetry(error, fresh, true, options, half)).toEqual({ retry: false });
  });
  it("retries 5xx and network errors of idempotent requests with backoff", () => {
    for (const error of [
      new ServerError("boom", { ...init, status: 500 }),
      new ServerError("unavailable", { ...init, status: 503 }),
      new UpstreamError("bad gateway", { ...init, status: 502 }),
      new NetworkError("reset", init),
    ]) {
      expect(decideRetry(error, { serverRetries: 1, rateLimitRetries: 0 }, true, options, half)).toEqual({
        retry: true,
        delayMs: 750,
        reason: "server",
      });
    }
  });
  it("never repeats a request that may have run (job starts) after a 5xx or network error", () => {
    expect(
      decideRetry(new ServerError("boom", { ...init, status: 500 }), fresh, false, options, half),
    ).toEqual({ retry: false });
    expect(decideRetry(new NetworkError("reset", init), fresh, false, options, half)).toEqual({
      retry: false,
    });
  });
  it("does not retry 501 or client errors", () => {
    expect(decideRetry(new ServerError("no", { ...init, status: 501 }), fresh, true, options, half)).toEqual({
      retry: false,
    });
    expect(
      decideRetry(new NotFoundError("gone", { ...init, status: 404 }), fresh, true, options, half),
    ).toEqual({ retry: false });
  });
  it("stops after maxRetries", () => {
    const error = new ServerError("boom", { ...init, status: 500 });
    expect(decideRetry(error, { serverRetries: 3, rateLimitRetries: 0 }, true, options, half)).toEqual({
      retry: false,
    });
  });
});

describe("resolveRetryOptions", () => {
  it("turns every retry off with false", () => {
    expect(resolveRetryOptions(false)).toMatchObject({ maxRetries: 0, maxRateLimitRetries: 0 });
  });
  it("overrides only what is given", () => {
    expect(resolveRetryOptions({ maxRetryAfterMs: 5000 })).toEqual({
      ...DEFAULT_RETRY_OPTIONS,
      maxRetryAfterMs: 5000,
    });
  });
  it("refuses negative or infinite bounds", () => {
    expect(() => resolveRetryOptions({ maxRetries: -1 })).toThrow(RangeError);
    expect(() => resolveRetryOptions({ maxDelayMs: Infinity })).toThrow(RangeError);
  });
});
