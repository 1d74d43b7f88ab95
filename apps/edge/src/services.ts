import { AnnotationStore } from "./annotations/store";
import { AUTH_FAILURE_LIMIT, FailedAuthentications } from "./auth/failed-authentications";
import { PlatformTokenAuthenticator, TenantAuthenticator } from "./auth/tenant-auth";
import { AssembledBulkAnswers } from "./cache/bulk-answers";
import { D1DocumentCache } from "./cache/d1";
import { MemoryTieredCache } from "./cache/memory-tier";
import type { DocumentCache } from "./cache/interface";
import { SingleFlight } from "./cache/single-flight";
import { type Clock, systemClock } from "@scangate/core/http";
import { ACCOUNT_READ_LIMIT, type EdgeConfig, type PlatformUpstreamConfig } from "./config";
import { edgeDb } from "./db/client";
import { countLedgerCall, meteredD1 } from "./db/statement-meter";
import type { Env } from "./env";
import { JobStore } from "./jobs/store";
import { bindingQueue, type JobQueue, PlatformJobs } from "./jobs/platform-jobs";
import { PlatformJobStore } from "./jobs/platform-store";
import { ChargeBatches } from "./ledger/charge-batches";
import { KnownQuotas } from "./ledger/known-quotas";
import { countedLedger, durableLedgers, type Ledgers } from "./ledger/ledgers";
import type { RateLimiter } from "./ratelimit/interface";
import { bindingRateLimiter, WorkersRateLimiter } from "./ratelimit/workers";
import { EndedSessions } from "./sessions/ended-sessions";
import {
  type SignInLimiters,
  SignInThrottle,
  wallClockPause,
  signInLimiters,
} from "./sessions/signin-throttle";
import { AuditLog } from "./tenants/audit";
import { PlatformTokenStore } from "./tenants/platform-tokens";
import { TenantStore } from "./tenants/store";
import { CredentialPool } from "./upstream/credential-pool";
import type { Transport, Upstream } from "./upstream/interface";
import { PlatformPool, PlatformUpstream } from "./upstream/platform";
import { LegacyOnPlatformUpstream } from "./upstream/legacy-on-platform";
import { PooledUpstream } from "./upstream/pooled";
import { BatchedUsageRecorder } from "./usage/recorder";

/** Everything a request handler uses, built once per isolate (what `createServices` builds). */
export type EdgeServices = ReturnType<typeof createServices>;

/** Replacements tests make: a clock they move, a fake network, deterministic limiters. */
export interface ServiceOverrides {
  clock?: Clock;
  /** Wraps the D1 binding (the fault tests inject failing statements through it). */
  d1?: (db: D1Database) => D1Database;
  transport?: Transport;
  upstream?: Upstream;
  rateLimiter?: RateLimiter;
  accountReads?: RateLimiter;
  signInLimiters?: SignInLimiters;
  /** How the sign-in delay waits (the wall clock unless replaced). */
  pause?: (ms: number) => Promise<void>;
  cache?: DocumentCache;
  /** Replaces the tenants' ledger objects (the fault tests wrap them). */
  ledgers?: (ledgers: Ledgers) => Ledgers;
  /** Failed authentications per address (the Rate Limiting binding unless replaced). */
  authFailures?: RateLimiter;
  /** The job queue's producer (the JOBS binding unless replaced: tests deliver its messages). */
  jobQueue?: JobQueue;
}

/** The origin behind the service binding (the host is not resolved, only routed): its /v3 is at the root. */
const SERVICE_BINDING_URL = "http://scangate-origin.internal";

/**
 * The base URL of `target` (`serviceUrl` behind the service binding) and how requests reach it:
 * the test's transport, else the internet for a URL upstream, else the ORIGIN service binding.
 */
function reach(
  env: Env,
  target: PlatformUpstreamConfig["target"],
  serviceUrl: string,
  override: Transport | undefined,
): { baseUrl: string; transport: Transport } {
  const baseUrl = target.kind === "url" ? target.baseUrl : serviceUrl;
  if (override) return { baseUrl, transport: override };
  if (target.kind === "url") return { baseUrl, transport: (request) => fetch(request) };
  const origin = env.ORIGIN;
  if (!origin) throw new Error("no ORIGIN service binding (config validation should have said so)");
  return { baseUrl, transport: (request) => origin.fetch(request) };
}

function upstreamFrom(
  env: Env,
  config: EdgeConfig,
  clock: Clock,
  transport: Transport | undefined,
  platform: PlatformUpstream | null,
): Upstream {
  if (config.upstreamApi === "platform") {
    if (!platform)
      throw new Error(
        "UPSTREAM_API platform without a Platform upstream (config validation should have said so)",
      );
    return new LegacyOnPlatformUpstream(`${platform.baseUrl}/api`, platform, clock);
  }
  const legacy = reach(env, config.upstream, `${SERVICE_BINDING_URL}/api`, transport);
  const pool = new CredentialPool(config.upstreamCredentials, clock);
  return new PooledUpstream(legacy.baseUrl, legacy.transport, pool, config.upstream.kind === "service");
}

/** A Platform upstream over `platform`'s credentials, reached as its target says. */
export function platformUpstreamOf(
  env: Env,
  { target, credentials }: PlatformUpstreamConfig,
  clock: Clock,
  transport?: Transport,
): PlatformUpstream {
  const { baseUrl, transport: reached } = reach(env, target, SERVICE_BINDING_URL, transport);
  return new PlatformUpstream(baseUrl, reached, new PlatformPool(credentials, clock));
}

/** The one place that picks each implementation from the bindings. */
export function createServices(env: Env, config: EdgeConfig, overrides: ServiceOverrides = {}) {
  const clock = overrides.clock ?? systemClock;
  const d1 = overrides.d1 ? overrides.d1(env.DB) : env.DB;
  const db = edgeDb(config.statementsHeader ? meteredD1(d1) : d1);
  const tenants = new TenantStore(db, clock);
  const platformTokens = new PlatformTokenStore(db, clock);
  const platform = config.platform && platformUpstreamOf(env, config.platform, clock, overrides.transport);
  const durable = durableLedgers(env.LEDGER);
  const overridden = overrides.ledgers ? overrides.ledgers(durable) : durable;
  // Each ledger call is counted for the request making it when the config lets requests ask for
  // their counts (X-Ledger-Calls beside X-D1-Statements).
  const ledgers: Ledgers = config.statementsHeader
    ? (tenantId) => countedLedger(overridden(tenantId), countLedgerCall)
    : overridden;
  const queue = overrides.jobQueue ?? (env.JOBS ? bindingQueue(env.JOBS) : null);
  const usage = new BatchedUsageRecorder(db, config.usageFlushDelayMs);
  return {
    config,
    clock,
    db,
    tenants,
    /** Tenants' Platform (/v3) bearer tokens, stored as hashes. */
    platformTokens,
    /** Checks Basic credentials, and (`auth.tokens`) Platform bearer tokens. */
    auth: new TenantAuthenticator(
      tenants,
      clock,
      config.authCacheTtlMs,
      new PlatformTokenAuthenticator(platformTokens, clock, config.authCacheTtlMs),
      new FailedAuthentications(
        overrides.authFailures ??
          bindingRateLimiter(env[AUTH_FAILURE_LIMIT.binding], AUTH_FAILURE_LIMIT, clock),
        clock,
        config.authCacheTtlMs,
      ),
    ),
    audit: new AuditLog(db, clock),
    /** The team's tags and comments (kept here, never upstream). */
    annotations: new AnnotationStore(db, clock),
    endedSessions: new EndedSessions(db),
    jobs: new JobStore(db, clock),
    /**
     * Query and export jobs the edge runs over the Platform (UPSTREAM_API=platform with the JOBS
     * queue and the JOB_FILES bucket bound); null otherwise.
     */
    platformJobs:
      config.upstreamApi === "platform" && platform && queue && env.JOB_FILES
        ? new PlatformJobs({
            store: new PlatformJobStore(db, clock),
            queue,
            files: env.JOB_FILES,
            platform,
            ledgers,
            usage,
            clock,
            upstreamTimeoutMs: config.upstreamTimeoutMs,
          })
        : null,
    /** Each tenant's ledger: its balance, in a Durable Object of its own (ledger/tenant-ledger.ts). */
    ledgers,
    /** Each tenant's charges in this isolate, sent to its ledger in batches (group commit). */
    charges: new ChargeBatches(),
    /** The last ledger answer for each tenant in this isolate (the RateLimit headers of free requests). */
    quotas: new KnownQuotas(config.authCacheTtlMs),
    rateLimiter: overrides.rateLimiter ?? new WorkersRateLimiter(env, config.rateTiers),
    /** Account reads' own small bucket (config.ts ACCOUNT_READ_LIMIT), instead of the tier's. */
    accountReads:
      overrides.accountReads ??
      bindingRateLimiter(env[ACCOUNT_READ_LIMIT.binding], ACCOUNT_READ_LIMIT, clock),
    /** Dashboard and admin console sign-in attempts. */
    signIn: new SignInThrottle(
      overrides.signInLimiters ?? signInLimiters(env, clock),
      overrides.pause ?? wallClockPause,
    ),
    upstream: overrides.upstream ?? upstreamFrom(env, config, clock, overrides.transport, platform),
    /** The Platform API (/v3) upstream with its token pool; null when none is configured. */
    platform,
    cache:
      overrides.cache ??
      new MemoryTieredCache(new D1DocumentCache(db), clock, {
        holdMs: config.cache.memoryHoldMs,
        maxChars: config.cache.memoryMaxChars,
      }),
    /** Concurrent cache misses of one document share one upstream call. */
    // Joiners wait at most as long as the leader's upstream call may take, plus a margin.
    flights: new SingleFlight<unknown>(config.upstreamTimeoutMs + 5_000),
    usage,
    /** Bulk answers the cache gave whole, kept for the same request again (cache/bulk-answers.ts). */
    // A quarter of what the memory tier may hold: none when it holds nothing.
    bulkAnswers: new AssembledBulkAnswers(Math.floor(config.cache.memoryMaxChars / 4)),
  };
}
