import type { TenantLedger } from "./ledger/tenant-ledger";

/**
 * Bindings of the edge worker, as declared in wrangler.jsonc, plus its secrets and vars.
 * Vars arrive as strings from `.dev.vars` and secrets, or as JSON values from wrangler.jsonc;
 * config.ts validates all of them once.
 */
export interface Env {
  DB: D1Database;
  /** Each tenant's ledger object (ledger/tenant-ledger.ts), addressed by the tenant's id. */
  LEDGER: DurableObjectNamespace<TenantLedger>;
  /** Service binding to the origin (local default upstream). */
  ORIGIN?: Fetcher;

  /** Secret: bearer token of the admin API. */
  ADMIN_TOKEN?: string;
  /** Secret: root key of the dashboard and admin console session cookies (at least 32 characters); unset, one is derived from ADMIN_TOKEN. */
  SESSION_SECRET?: string;
  /**
   * What the legacy routes are answered from: `legacy` (default), the upstream's legacy API;
   * `platform`, the Platform upstream alone (translated, 501 where there is no equivalent).
   */
  UPSTREAM_API?: string;
  /** Production upstream base URL, e.g. https://search.censys.io/api; unset locally (ORIGIN is used). */
  UPSTREAM_URL?: string;
  /** Secret: JSON array of `{api_id, api_secret}` upstream credentials. */
  UPSTREAM_CREDENTIALS?: string;
  UPSTREAM_TIMEOUT_MS?: string | number;
  /** The Censys Platform API base for /v3, e.g. https://api.platform.censys.io; unset locally (ORIGIN is used). */
  PLATFORM_URL?: string;
  /** Secret: JSON array of `{token, organization_id}` Platform credentials (the /v3 pool). */
  PLATFORM_CREDENTIALS?: string;

  CACHE_TTL_SECONDS?: string | Record<string, number>;
  CACHE_NEGATIVE_TTL_SECONDS?: string | number;
  CACHE_STALE_WHILE_REVALIDATE_SECONDS?: string | number;
  CACHE_STALE_IF_ERROR_SECONDS?: string | number;
  CACHE_MAX_ROWS?: string | number;
  CACHE_HITS_CHARGED?: string | boolean;

  DEFAULT_ALLOWANCE?: string | number;
  DEFAULT_PERIOD?: string;
  DEFAULT_TIER?: string;
  /** JSON map of tier name to `{binding, limit, period}` (a `ratelimits` binding) or `{unlimited: true}`. */
  RATE_TIERS?: string | Record<string, unknown>;
  AUTH_CACHE_TTL_MS?: string | number;
  USAGE_FLUSH_DELAY_MS?: string | number;

  /** The queue of query and export jobs run over the Platform (producer and consumer). */
  JOBS?: Queue<unknown>;
  /** Result pages and export files of those jobs (24 hours, then the sweep deletes them). */
  JOB_FILES?: R2Bucket;
  JOB_MAX_PAGES?: string | number;

  /** Workers Rate Limiting bindings named by RATE_TIERS. */
  [binding: `RATE_LIMIT_${string}`]: RateLimit | undefined;
}
