import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { FetchLike } from "../../../src/index";
import { createApp } from "../../../../../apps/edge/src/app";
import { FixedWindowRateLimiter } from "../../../../../apps/edge/src/ratelimit/fixed-window";
import { ServiceRegistry } from "../../../../../apps/edge/src/registry";

/**
 * The real edge app and origin, with the edge's own exact fixed-window burst limiter on a
 * clock that moves only when the client sleeps: a Retry-After wait takes no real time, yet
 * the edge sees it pass (the limiter is the seam the edge offers for this).
 */
export function limitedEdge(limit: number, periodSeconds: number) {
  let now = Date.now();
  const clock = { now: () => now };
  // Usage rows are flushed at once: waiting for the batch delay would only slow the test.
  const testEnv = { ...env, USAGE_FLUSH_DELAY_MS: "0" };
  const app = createApp(
    new ServiceRegistry({ rateLimiter: new FixedWindowRateLimiter(limit, periodSeconds, clock) }),
  );
  const fetch: FetchLike = async (input, init) => {
    const ctx = createExecutionContext();
    const response = await app.fetch(new Request(input, init), testEnv, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  };
  const sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    signal?.throwIfAborted();
    now += ms;
    return Promise.resolve();
  };
  return { fetch, sleep };
}
