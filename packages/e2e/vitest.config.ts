import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      // Unit tests of the root scripts' helpers (scripts/lib): plain Node, no system started.
      { extends: true, test: { name: "scripts", include: ["test/scripts/**/*.test.ts"] } },
      // One system for all files (test/global-setup.ts starts it with scripts/start.mjs); the files
      // share it, each with tenants of its own.
      {
        extends: true,
        test: {
          name: "system",
          include: ["test/**/*.test.ts"],
          exclude: ["test/scripts/**"],
          globalSetup: ["./test/global-setup.ts"],
          setupFiles: ["./test/support/log-on-failure.ts"],
        },
      },
    ],
  },
});
