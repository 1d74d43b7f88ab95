import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { loadDatasetFixture } from "./test/fixtures/dataset-fixture";

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  // The generated test dataset, made in Node (real roots, WebCrypto keys) and cached on disk.
  const dataset = loadDatasetFixture();
  return {
    plugins: [
      cloudflareTest({
        main: "./src/index.ts",
        wrangler: { configPath: "./wrangler.jsonc" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            TEST_DATASET: dataset,
            // The fuzz suite's seed, to replay a failing run (test/fuzz.test.ts).
            FUZZ_SEED: process.env.FUZZ_SEED ?? "",
          },
        },
      }),
    ],
    test: {
      // Jobs and the fault suite do seconds of real work; a loaded 2-core machine needs room,
      // and so does seeding the test dataset in a file's beforeAll.
      testTimeout: 30_000,
      hookTimeout: 30_000,
      // One runtime for every file, each file starting on emptied storage (test/apply-migrations.ts).
      isolate: false,
      include: ["test/**/*.test.ts"],
      exclude: ["test/**/*.node.test.ts"],
      setupFiles: ["./test/apply-migrations.ts"],
    },
  };
});
