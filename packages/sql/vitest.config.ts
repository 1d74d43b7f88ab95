import { defineConfig } from "vitest/config";

// The budget tests run the engine over tens of MiB of rows on purpose: on a shared, loaded
// machine that takes seconds, so a test's bound is its own work, not vitest's 5 s default.
// No test here mocks a module or stubs a global, so every file runs in one process
// (`isolate: false`) and the modules load once, not once a file (17 s of CPU → 9 s).
export default defineConfig({
  test: { include: ["test/**/*.test.ts"], testTimeout: 30_000, isolate: false },
});
