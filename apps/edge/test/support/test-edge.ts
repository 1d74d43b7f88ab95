import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../src/app";
import { consumeJobs, runScheduled } from "../../src/background";
import type { JobMessage } from "../../src/jobs/platform-jobs";
import type { Env } from "../../src/env";
import { FixedWindowRateLimiter, unlimitedRateLimiter } from "../../src/ratelimit/fixed-window";
import type { RateLimiter } from "../../src/ratelimit/interface";
import { ServiceRegistry } from "../../src/registry";
import type { EdgeServices, ServiceOverrides } from "../../src/services";
import { ManualClock } from "./clock";
import { suiteSecretWatch } from "../reliability/secret-watch";
import { FakeUpstream } from "./fake-upstream";
import type { Fetch } from "./requests";

interface QueueOutcome {
  explicitAcks: string[];
  retryMessages: unknown[];
}

export interface TestEdge {
  fetch: Fetch;
  /**
   * The same app without the suite's secret watch, for a suite that checks every answer itself
   * (the fuzz suite: the watch would keep all of its 20,000 answers until the file ends).
   */
  unwatchedFetch: Fetch;
  clock: ManualClock;
  upstream: FakeUpstream;
  env: Env;
  /** The services this edge's requests use (built on first use, as the app builds them). */
  services(): EdgeServices;
  /** Messages this edge sent to its job queue and no delivery has taken yet. */
  queued: JobMessage[];
  /**
   * Delivers the queued messages to the worker's queue consumer (the same handler the JOBS
   * queue calls, on this edge's services), as one batch; what it acknowledged.
   */
  deliverJobs(): Promise<{ acked: number; retried: number }>;
  /** Runs the job sweep's cron trigger on this edge's services. */
  sweepJobs(): Promise<void>;
}

/**
 * The clock test edges run on: a fixed instant, not the wall clock; after the origin dataset's
 * last day (so its points in time are in the past) and mid-month (so moving the clock by days
 * never crosses a reset).
 */
export function testClock(): ManualClock {
  return new ManualClock(Date.UTC(2026, 10, 10, 12, 0, 0));
}

/**
 * The edge app with test infrastructure: a manual clock, the fault-injecting network in front
 * of the real origin, no burst limit and no failed-authentication limit unless asked, and extra vars. Each
 * request's background work (usage, revalidation) is awaited before its response is handed
 * back, so tests see it.
 */
export function testEdge(
  options: {
    vars?: Record<string, string>;
    rateLimiter?: RateLimiter;
    /** Account reads' own bucket (none unless asked, like the burst limit). */
    accountReads?: RateLimiter;
    overrides?: ServiceOverrides;
    clock?: ManualClock;
  } = {},
): TestEdge {
  const clock = options.clock ?? testClock();
  const upstream = new FakeUpstream();
  const testEnv = { ...env, ...options.vars } as Env;
  const queued: JobMessage[] = [];
  const registry = new ServiceRegistry({
    // The suite's worker runs its own JOBS consumer with the suite's vars, not this edge's: this
    // edge's messages are kept here and handed to the same consumer on this edge's services.
    jobQueue: {
      send: (message) => {
        queued.push(message);
        return Promise.resolve();
      },
    },
    clock,
    transport: upstream.transport,
    rateLimiter: options.rateLimiter ?? unlimitedRateLimiter,
    accountReads: options.accountReads ?? unlimitedRateLimiter,
    authFailures: unlimitedRateLimiter,
    ...options.overrides,
  });
  const app = createApp(registry);
  const services = () => {
    const resolved = registry.resolve(testEnv);
    if (!resolved.ok) throw new Error(`test edge config invalid: ${resolved.problems.join("; ")}`);
    return resolved.services;
  };
  const unwatchedFetch: Fetch = async (request) => {
    const ctx = createExecutionContext();
    const response = await app.fetch(request, testEnv, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  };
  const deliverJobs = async () => {
    const messages = queued.splice(0).map((body, i) => ({
      id: `msg-${crypto.randomUUID()}-${i}`,
      timestamp: new Date(clock.now()),
      attempts: 1,
      body,
    }));
    const batch = createMessageBatch("scangate-edge-jobs", messages);
    const ctx = createExecutionContext();
    await consumeJobs(registry, batch, testEnv);
    // FetcherQueueResult, spelled out: the lint's program does not see the pool's global types.
    const result = (await getQueueResult(batch, ctx)) as unknown as QueueOutcome;
    return { acked: result.explicitAcks.length, retried: result.retryMessages.length };
  };
  return {
    clock,
    upstream,
    queued,
    deliverJobs,
    sweepJobs: () => runScheduled(registry, "*/2 * * * *", testEnv),
    env: testEnv,
    fetch: suiteSecretWatch.watch(unwatchedFetch),
    unwatchedFetch,
    services,
  };
}

export { FixedWindowRateLimiter };
