import { defineConfig } from "vitest/config";

// Unit tests of the bench's pure parts, in Node; the bench itself is a script (`pnpm bench`).
// No test here mocks a module or stubs a global, so every file runs in one process
// (`isolate: false`) and the modules load once, not once a file (37 s of CPU → 10 s).
export default defineConfig({ test: { include: ["test/**/*.test.ts"], isolate: false } });
