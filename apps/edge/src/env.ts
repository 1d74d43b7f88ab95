import type { EdgeVar } from "./config";
import type { TenantLedger } from "./ledger/tenant-ledger";

/** The vars config.ts reads (its `envSchema`): strings from `.dev.vars`, or JSON values from wrangler.jsonc. */
type Vars = { [name in EdgeVar]?: unknown };

/**
 * Bindings of the edge worker, as declared in wrangler.jsonc, plus its secrets and vars;
 * config.ts validates all of them once.
 */
export interface Env extends Vars {
  DB: D1Database;
  /** Each tenant's ledger object (ledger/tenant-ledger.ts), addressed by the tenant's id. */
  LEDGER: DurableObjectNamespace<TenantLedger>;
  /** Service binding to the origin (local default upstream). */
  ORIGIN?: Fetcher;

  /** Secret: bearer token of the admin API. */
  ADMIN_TOKEN?: string;
  /** Secret: root key of the dashboard and admin console session cookies (at least 32 characters); unset, one is derived from ADMIN_TOKEN. */
  SESSION_SECRET?: string;
  /** Secret: JSON array of `{api_id, api_secret}` upstream credentials. */
  UPSTREAM_CREDENTIALS?: string;
  /** Secret: JSON array of `{token, organization_id}` Platform credentials (the /v3 pool). */
  PLATFORM_CREDENTIALS?: string;

  /** The queue of query and export jobs run over the Platform (producer and consumer). */
  JOBS?: Queue<unknown>;
  /** Result pages and export files of those jobs (24 hours, then the sweep deletes them). */
  JOB_FILES?: R2Bucket;

  /** Workers Rate Limiting bindings named by RATE_TIERS. */
  [binding: `RATE_LIMIT_${string}`]: RateLimit | undefined;
}
