import { QUERY_RESULTS_RETENTION_MS } from "@scangate/core";
import { importLedgers } from "./ledger/imports";
import type { EdgeServices } from "./services";

/**
 * The scheduled cleanup: bounds the document cache (rows stale beyond stale-if-error, then the
 * oldest beyond CACHE_MAX_ROWS), forgets job ownership once the upstream has dropped the job,
 * forgets signed-out sessions whose cookies have expired anyway, and moves any balance still
 * waiting in D1 into its tenant's ledger object (ledger/imports.ts). Credit holds whose
 * requests died are released by each ledger object's own alarm, not here.
 */
export async function runMaintenance(
  services: Pick<EdgeServices, "clock" | "config" | "cache" | "jobs" | "endedSessions" | "db" | "ledgers">,
): Promise<{ documents: number; jobs: number; endedSessions: number; ledgerImports: number }> {
  const now = services.clock.now();
  const { staleIfErrorSeconds, maxRows } = services.config.cache;
  const documents = await services.cache.cleanup(now, staleIfErrorSeconds * 1000, maxRows);
  // Jobs run a while before their 24 h retention starts: keep ownership for twice that.
  const jobs = await services.jobs.expire(now - 2 * QUERY_RESULTS_RETENTION_MS);
  const endedSessions = await services.endedSessions.purge(now);
  const ledgerImports = await importLedgers(services);
  return { documents, jobs, endedSessions, ledgerImports };
}
