import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { defineConfig } from "vitest/config";

// Two projects: pure unit tests in Node ("unit"), and the client and CLI against the real
// workers ("workers"): the edge compiled from source, as in its own tests, with the real origin
// (built by turbo to apps/origin/dist) behind it. No mock of our API.
const edgeDir = path.join(import.meta.dirname, "../../apps/edge");
const originDir = path.join(import.meta.dirname, "../../apps/origin");
const ORIGIN_TEST_DB = "origin-test-db";
const ORIGIN_SNAPSHOTS_TEST_DB = "origin-snapshots-test-db";

function originWorker() {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(originDir, "wrangler.jsonc"));
  return {
    ...workerOptions,
    // Its other D1 databases, R2 buckets and queues stay as wrangler.jsonc declares them.
    d1Databases: {
      ...(workerOptions.d1Databases as Record<string, string> | undefined),
      DB: ORIGIN_TEST_DB,
      SNAPSHOTS: ORIGIN_SNAPSHOTS_TEST_DB,
    },
    // Jobs start as soon as they are queued in wrangler.jsonc; here the queue waits a second
    // before delivering, so a test can see a job that has not run yet (JobNotReadyError).
    queueConsumers: { "scangate-origin-jobs": { maxBatchSize: 5, maxBatchTimeout: 1, maxRetries: 3 } },
    name: "scangate-origin",
    modules: true,
    scriptPath: path.join(originDir, "dist/index.js"),
    modulesRoot: path.join(originDir, "dist"),
  };
}

/**
 * The edge's /v3 pool: the origin's local Platform accounts (personal access token and
 * organization id of each ORIGIN_ACCOUNTS entry), as `pnpm start` configures the local edge.
 */
function platformCredentials(accounts: string): string {
  const entries = JSON.parse(accounts) as { personal_access_token?: string; organization_id?: string }[];
  return JSON.stringify(
    entries.flatMap(({ personal_access_token: token, organization_id }) =>
      token && organization_id ? [{ token, organization_id }] : [],
    ),
  );
}

/** The origin's own accounts (its ORIGIN_ACCOUNTS var, JSON): the edge's upstream credential here. */
function originAccounts(): string {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(originDir, "wrangler.jsonc"));
  const accounts = (workerOptions as { bindings?: Record<string, unknown> }).bindings?.ORIGIN_ACCOUNTS;
  if (typeof accounts !== "string")
    throw new Error("apps/origin/wrangler.jsonc declares no ORIGIN_ACCOUNTS var");
  return accounts;
}

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(edgeDir, "migrations"));
  const originMigrations = await readD1Migrations(path.join(originDir, "migrations"));
  const accounts = originAccounts();
  const workers = {
    plugins: [
      cloudflareTest({
        main: path.join(edgeDir, "src/index.ts"),
        wrangler: { configPath: path.join(edgeDir, "wrangler.jsonc") },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            ORIGIN_TEST_MIGRATIONS: originMigrations,
            ADMIN_TOKEN: "client-tests-admin-token-0123456789abcdef",
            UPSTREAM_CREDENTIALS: JSON.stringify(
              (JSON.parse(accounts) as { api_id: string; api_secret: string }[]).map(
                ({ api_id, api_secret }) => ({ api_id, api_secret }),
              ),
            ),
            ORIGIN_ACCOUNTS: accounts,
            PLATFORM_CREDENTIALS: platformCredentials(accounts),
            // A tier the tests can exhaust; everyone else is unlimited so tests do not trip it.
            RATE_TIERS: JSON.stringify({
              unlimited: { unlimited: true },
              tight: { binding: "RATE_LIMIT_CLIENT_TIGHT", limit: 3, period: 10 },
            }),
            DEFAULT_TIER: "unlimited",
          },
          // The origin's databases, bound here too so tests can migrate, seed and publish snapshots.
          d1Databases: { ORIGIN_DB: ORIGIN_TEST_DB, ORIGIN_SNAPSHOTS: ORIGIN_SNAPSHOTS_TEST_DB },
          ratelimits: { RATE_LIMIT_CLIENT_TIGHT: { simple: { limit: 3, period: 10 } } },
          workers: [originWorker()],
        },
      }),
    ],
    test: {
      name: "workers",
      include: ["test/integration/**/*.test.ts"],
      // The CLI tests start processes against real workers; a loaded 2-core machine needs room.
      testTimeout: 30_000,
      setupFiles: ["./test/integration/apply-migrations.ts"],
    },
  };
  return {
    test: {
      // The unit files mock nothing global, so they share one process (`isolate: false`).
      projects: [{ test: { name: "unit", include: ["test/unit/**/*.test.ts"], isolate: false } }, workers],
    },
  };
});
