import { defineConfig } from "vitest/config";

// One system for all files (test/global-setup.ts starts it with scripts/start.mjs); the files
// share it, each with tenants of its own.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    globalSetup: ["./test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
