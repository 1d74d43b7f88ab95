import type { JobMessage } from "./jobs/messages";

/** Bindings of the origin worker, as declared in wrangler.jsonc. */
export interface Env {
  DB: D1Database;
  /**
   * JSON array of the origin's own accounts: api_id, api_secret, login, email, allowance, and
   * for the Platform API (v3) personal_access_token, organization_id, user_id (see accounts.ts).
   */
  ORIGIN_ACCOUNTS: string;
  /**
   * HMAC key for v2 search cursors. A secret in production (`wrangler secret put CURSOR_SECRET`);
   * when unset, a fixed development key is used (see services/cursor.ts).
   */
  CURSOR_SECRET?: string;
  /** The snapshot series (`ipv4_rows`, ... as row versions; see snapshots/layout.ts) and nothing else: what job SQL reads. */
  SNAPSHOTS: D1Database;
  /** Query result pages, export files and raw-data files. */
  EXPORTS: R2Bucket;
  /** Query and export jobs; this worker is both producer and consumer. */
  JOBS: Queue<JobMessage>;
  /** Optional job bounds (see jobs/config.ts for the defaults). */
  QUERY_MAX_ROWS?: string;
  QUERY_MAX_BYTES?: string;
  EXPORT_MAX_ROWS?: string;
  QUERY_TIMEOUT_MS?: string;
  EXPORT_TIMEOUT_MS?: string;
  EXPORT_FILE_MAX_BYTES?: string;
}
