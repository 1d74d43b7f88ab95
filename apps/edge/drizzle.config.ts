import { defineConfig } from "drizzle-kit";

// Flat SQL migrations that both wrangler (`d1 migrations apply`) and the test pool read.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema.ts",
  out: "./migrations",
});
