import { defineConfig } from "vitest/config";

// Unit tests of the bench's pure parts, in Node; the bench itself is a script (`pnpm bench`).
export default defineConfig({ test: { include: ["test/**/*.test.ts"] } });
