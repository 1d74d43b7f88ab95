import type { Env } from "./env";
import { runMaintenance } from "./maintenance";
import type { ServiceRegistry } from "./registry";

// The worker's background entry points beside `fetch`: the cron triggers and the job queue's
// consumer, on the same services the requests use.

/** The hourly cleanup's cron (wrangler.jsonc); the other trigger only sweeps the jobs. */
export const MAINTENANCE_CRON = "17 * * * *";

export async function runScheduled(registry: ServiceRegistry, cron: string, env: Env): Promise<void> {
  const resolved = registry.resolve(env);
  if (!resolved.ok) {
    console.error(`edge config invalid, cleanup skipped: ${resolved.problems.join("; ")}`);
    return;
  }
  const { services } = resolved;
  if (services.platformJobs) {
    console.log(`edge job sweep: ${JSON.stringify(await services.platformJobs.sweep())}`);
  }
  if (cron === MAINTENANCE_CRON) {
    console.log(`edge cleanup: ${JSON.stringify(await runMaintenance(services))}`);
  }
}

/** The consumer of the JOBS queue: each message runs one query or export job over the Platform. */
export async function consumeJobs(
  registry: ServiceRegistry,
  batch: MessageBatch<unknown>,
  env: Env,
): Promise<void> {
  const resolved = registry.resolve(env);
  const jobs = resolved.ok ? resolved.services.platformJobs : null;
  if (!jobs) {
    // Messages this config cannot run (not in platform mode, or a bad config): retried until it
    // can, then dropped by the queue; the sweep ends their jobs.
    console.error(
      `edge job queue: cannot run jobs (${resolved.ok ? "UPSTREAM_API is not platform" : resolved.problems.join("; ")})`,
    );
    batch.retryAll();
    return;
  }
  await jobs.consume(batch.messages);
}
