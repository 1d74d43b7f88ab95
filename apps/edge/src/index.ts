import { createApp } from "./app";
import type { Env } from "./env";
import { runMaintenance } from "./maintenance";
import { ServiceRegistry } from "./registry";

export { TenantLedger } from "./ledger/tenant-ledger";

const registry = new ServiceRegistry();
const app = createApp(registry);

export default {
  fetch: app.fetch,
  scheduled(_controller, env, ctx) {
    const resolved = registry.resolve(env);
    if (!resolved.ok) {
      console.error(`edge config invalid, cleanup skipped: ${resolved.problems.join("; ")}`);
      return;
    }
    ctx.waitUntil(
      runMaintenance(resolved.services).then((removed) =>
        console.log(`edge cleanup: ${JSON.stringify(removed)}`),
      ),
    );
  },
} satisfies ExportedHandler<Env>;
