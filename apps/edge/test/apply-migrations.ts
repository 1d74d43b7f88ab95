import { applyD1Migrations, env } from "cloudflare:test";

// Setup files run outside isolated storage and may run more than once;
// applyD1Migrations only applies migrations that have not been applied yet.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.ORIGIN_DB, env.ORIGIN_TEST_MIGRATIONS);
