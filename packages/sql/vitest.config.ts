import { defineConfig } from "vitest/config";

// The budget tests run the engine over tens of MiB of rows on purpose: on a shared, loaded
// machine that takes seconds, so a test's bound is its own work, not vitest's 5 s default.
export default defineConfig({ test: { include: ["test/**/*.test.ts"], testTimeout: 30_000 } });
