import { QUERY_RESULTS_RETENTION_MS } from "@scangate/core";
import { CreditHolds } from "./quota/holds";
import type { EdgeServices } from "./services";

/**
 * The scheduled cleanup: bounds the document cache (rows stale beyond stale-if-error, then the
 * oldest beyond CACHE_MAX_ROWS), forgets job ownership once the upstream has dropped the job,
 * forgets signed-out sessions whose cookies have expired anyway, and releases /v3 credit holds
 * whose calls never settled (quota/holds.ts).
 */
export async function runMaintenance(
  services: Pick<EdgeServices, "clock" | "config" | "cache" | "jobs" | "endedSessions" | "db" | "quota">,
): Promise<{ documents: number; jobs: number; endedSessions: number; creditHolds: number }> {
  const now = services.clock.now();
  const { staleIfErrorSeconds, maxRows } = services.config.cache;
  const documents = await services.cache.cleanup(now, staleIfErrorSeconds * 1000, maxRows);
  // Jobs run a while before their 24 h retention starts: keep ownership for twice that.
  const jobs = await services.jobs.expire(now - 2 * QUERY_RESULTS_RETENTION_MS);
  const endedSessions = await services.endedSessions.purge(now);
  const creditHolds = await new CreditHolds(services.db, services.quota).expire(now);
  return { documents, jobs, endedSessions, creditHolds };
}
