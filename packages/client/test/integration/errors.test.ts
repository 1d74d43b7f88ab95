import { beforeAll, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  QuotaExceededError,
  RateLimitError,
  ScangateError,
  UnexpectedResponseError,
  type RetryEvent,
} from "../../src/index";
import { faultyFetch, jsonResponse, recordingFetch } from "./support/recording-fetch";
import { adminClient, createTenant, edgeClient, EDGE_URL, edgeFetch, seedOrigin } from "./support/stack";
import { createClient } from "../../src/index";

beforeAll(() => seedOrigin());

describe("authentication errors", () => {
  it("throws AuthenticationError with the v1 403 body for a wrong secret", async () => {
    const tenant = await createTenant();
    const error = await edgeClient({ ...tenant, api_secret: `${tenant.api_secret}x` })
      .account()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(403);
    expect((error as AuthenticationError).body).toMatchObject({ status: "error", error_type: "unathorized" });
  });

  it("throws AuthenticationError (401) on v2 without credentials", async () => {
    const client = createClient({ baseUrl: EDGE_URL, fetch: edgeFetch });
    const error = await client.hosts.view("1.1.1.1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
  });

  it("says the API ID is disabled when an admin disabled the tenant", async () => {
    const tenant = await createTenant();
    await adminClient().tenants.disable(tenant.id);
    await expect(edgeClient(tenant).account()).rejects.toThrow(/disabled/);
  });
});

describe("quota exhaustion", () => {
  it("throws QuotaExceededError with the reset time and never retries it", async () => {
    const tenant = await createTenant({ allowance: 1, period: "monthly" });
    const retries: RetryEvent[] = [];
    const recorder = recordingFetch();
    const client = edgeClient(tenant, { fetch: recorder.fetch, onRetry: (event) => retries.push(event) });
    await client.hosts.view("1.1.1.1");
    const error = await client.hosts.view("8.8.8.8").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect((error as QuotaExceededError).status).toBe(429);
    expect((error as QuotaExceededError).resetsAt?.getTime()).toBeGreaterThan(Date.now());
    expect((error as QuotaExceededError).message).toContain("quota resets at");
    expect(retries).toEqual([]);
    expect(recorder.requests).toHaveLength(2);
    expect((await client.account()).quota.used).toBe(1);
  });
});

// Account reads count against a bucket of their own, so the burst limit is reached on another route.
describe("burst rate limit", () => {
  /**
   * Calls until one is refused. The binding counts in fixed 10 s windows of the wall clock, so
   * on a loaded machine the calls may straddle a window's end and need more than 4 to be refused.
   */
  async function untilRefused(call: () => Promise<unknown>): Promise<unknown> {
    for (let i = 0; i < 20; i += 1) {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      if (error !== undefined) return error;
    }
    return undefined;
  }

  it("retries a real burst 429 after its Retry-After, then throws RateLimitError once retries run out", async () => {
    const tenant = await createTenant({ tier: "tight" });
    const retries: RetryEvent[] = [];
    const client = edgeClient(tenant, {
      onRetry: (event) => retries.push(event),
      retry: { maxRateLimitRetries: 2 },
    });
    const error = await untilRefused(() => {
      // Only the refused call's retries count: one that a new window let through retried too.
      retries.length = 0;
      return client.data.series();
    });
    expect(error).toBeInstanceOf(RateLimitError);
    const retryAfter = (error as RateLimitError).retryAfter;
    expect(retryAfter).toBeGreaterThan(0);
    expect((error as RateLimitError).body).toMatchObject({
      error_type: "rate_limit_exceeded",
      error_code: 429,
    });
    // Two retries, each after the server's Retry-After (the test's sleep returns at once).
    expect(retries.map((r) => r.delayMs)).toEqual([retryAfter! * 1000, retryAfter! * 1000]);
  });

  it("does not wait out a Retry-After longer than maxRetryAfterMs", async () => {
    const tenant = await createTenant({ tier: "tight" });
    const retries: RetryEvent[] = [];
    const client = edgeClient(tenant, {
      onRetry: (event) => retries.push(event),
      retry: { maxRetryAfterMs: 500 },
    });
    const error = await untilRefused(() => client.data.series());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(retries).toEqual([]);
  });
});

describe("responses that do not match the wire format", () => {
  it("throws UnexpectedResponseError naming what is wrong", async () => {
    const tenant = await createTenant();
    const { fetch } = faultyFetch([jsonResponse(200, { login: "x" })]);
    const error = await edgeClient(tenant, { fetch })
      .account()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).issues.join()).toContain("quota");
    expect(error).toBeInstanceOf(ScangateError);
  });

  it("returns the body unchecked with validate: false", async () => {
    const tenant = await createTenant();
    const { fetch } = faultyFetch([jsonResponse(200, { login: "x" })]);
    expect(await edgeClient(tenant, { fetch, validate: false }).account()).toEqual({ login: "x" });
  });
});
