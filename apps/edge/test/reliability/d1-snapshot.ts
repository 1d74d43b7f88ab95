import { env } from "cloudflare:workers";
import {
  changedTables,
  type MutableParts,
  ORIGIN_MUTABLE,
  type Snapshot,
  snapshotDatabase,
} from "../../../origin/test/support/d1-snapshot";

export { changedTables, type MutableParts, ORIGIN_MUTABLE, type Snapshot, snapshotDatabase };

/**
 * What a refused request may legitimately change, per database. Everything else, in every
 * table that exists (listed from sqlite_master, so a table added later is covered without
 * touching this file), must be byte-identical before and after bad input.
 *
 * - edge `usage`: the hourly rollups count every request, refused ones as errors (issue 5).
 * - edge `tenants.last_seen_at`: written (at most once a minute) by any authenticated request.
 *   `used` is NOT exempt: a charge for a refused request must have been refunded.
 * - origin `account_usage` login times: the origin records when its account (the edge's
 *   upstream credential) last called. Its `used` is not exempt either: refused calls are refunded.
 */
export const EDGE_MUTABLE: MutableParts = { tables: ["usage"], columns: { tenants: ["last_seen_at"] } };

/** Both workers' databases: the edge's, and the origin's two (dataset and published snapshots). */
export async function snapshotAll(): Promise<Record<string, Snapshot>> {
  return {
    edge: await snapshotDatabase(env.DB, EDGE_MUTABLE),
    origin: await snapshotDatabase(env.ORIGIN_DB, ORIGIN_MUTABLE),
    originSnapshots: await snapshotDatabase(env.ORIGIN_SNAPSHOTS, { tables: [], columns: {} }),
  };
}
