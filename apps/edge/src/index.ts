import { createApp } from "./app";
import { consumeJobs, runScheduled } from "./background";
import type { Env } from "./env";
import { ServiceRegistry } from "./registry";

export { TenantLedger } from "./ledger/tenant-ledger";

const registry = new ServiceRegistry();
const app = createApp(registry);

export default {
  fetch: app.fetch,
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(registry, controller.cron, env));
  },
  queue: (batch, env) => consumeJobs(registry, batch, env),
} satisfies ExportedHandler<Env>;
