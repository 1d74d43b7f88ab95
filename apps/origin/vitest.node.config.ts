import { defineConfig } from "vitest/config";

// Plain-Node tests of the dataset generator (it needs Node's real root certificates and runs
// the whole generator twice, which belongs outside the Workers pool). `pnpm test` runs both.
export default defineConfig({
  test: {
    include: ["test/**/*.node.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
