import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { defineConfig } from "vitest/config";
import { loadDatasetFixture } from "../origin/test/fixtures/dataset-fixture";

const ORIGIN_TEST_DB = "origin-test-db";
const ORIGIN_TEST_SNAPSHOTS = "origin-test-snapshots";
const originDir = path.join(import.meta.dirname, "../origin");

/** The real origin worker (built by turbo before these tests) runs beside the edge. */
function originWorker() {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(originDir, "wrangler.jsonc"));
  return {
    ...workerOptions,
    // Every binding of the origin's wrangler.jsonc, with its databases named so the edge tests can
    // bind the same ones to seed them.
    d1Databases: {
      ...(workerOptions.d1Databases as Record<string, unknown>),
      DB: ORIGIN_TEST_DB,
      SNAPSHOTS: ORIGIN_TEST_SNAPSHOTS,
    },
    name: "scangate-origin",
    modules: true,
    scriptPath: path.join(originDir, "dist/index.js"),
    modulesRoot: path.join(originDir, "dist"),
  };
}

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  const originMigrations = await readD1Migrations(path.join(originDir, "migrations"));
  // The origin's generated test dataset (its test/seed-fixture.ts seeds ORIGIN_DB from it).
  const dataset = loadDatasetFixture();
  return {
    plugins: [
      cloudflareTest({
        main: "./src/index.ts",
        wrangler: { configPath: "./wrangler.jsonc" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            ORIGIN_TEST_MIGRATIONS: originMigrations,
            TEST_DATASET: dataset,
            // Secrets a real deployment sets with `wrangler secret put`; the upstream credential is
            // the origin's default account (its ORIGIN_ACCOUNTS var).
            ADMIN_TOKEN: "test-admin-token-0123456789abcdef0123456789",
            UPSTREAM_CREDENTIALS: JSON.stringify([
              { api_id: "origin-local", api_secret: "origin-local-secret" },
            ]),
            // Blank is unset: each test gives the Platform pool it wants, whatever a developer's
            // .dev.vars beside wrangler.jsonc holds (`pnpm start` writes one with the local pool,
            // and wrangler merges it into these bindings).
            PLATFORM_CREDENTIALS: "",
            USAGE_FLUSH_DELAY_MS: "0",
            // The fuzz suite's seed, to replay a failing run (test/reliability/fuzz.test.ts).
            FUZZ_SEED: process.env.FUZZ_SEED ?? "",
          },
          // The origin's database, bound here too so tests can migrate and seed it.
          d1Databases: { ORIGIN_DB: ORIGIN_TEST_DB, ORIGIN_SNAPSHOTS: ORIGIN_TEST_SNAPSHOTS },
          // FAULTS: a fault-injecting upstream worker in front of the origin, for the fault tests.
          serviceBindings: { ORIGIN: "scangate-origin", FAULTS: "scangate-faults" },
          workers: [
            originWorker(),
            {
              name: "scangate-faults",
              modules: true,
              scriptPath: path.join(import.meta.dirname, "test/fault-upstream/worker.mjs"),
              compatibilityDate: "2026-04-20",
              serviceBindings: { ORIGIN: "scangate-origin" },
            },
          ],
        },
      }),
    ],
    test: {
      // Every file runs in one runtime; each starts on emptied storage (test/apply-migrations.ts).
      isolate: false,
      // Late in the one runtime, and on a loaded machine, a test of many requests can pass 5 s.
      testTimeout: 30_000,
      hookTimeout: 30_000,
      include: ["test/**/*.test.ts"],
      setupFiles: ["./test/apply-migrations.ts", "./test/watch-secrets.ts"],
    },
  };
});
