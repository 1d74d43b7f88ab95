import { applyD1Migrations, env } from "cloudflare:test";
import { emptyBucket, emptyDatabase } from "../../origin/test/support/fresh-storage";
import { freshWorkerEnv } from "./support/requests";

// The edge's test files share one runtime (`isolate: false` in vitest.config.ts), so each starts
// as a runtime of its own would: on emptied storage with the migrations applied, and with new
// services behind the worker entry. Ledger objects need no emptying: a file's tenants are new,
// with ids of their own.
await Promise.all([
  emptyDatabase(env.DB),
  emptyDatabase(env.ORIGIN_DB),
  emptyDatabase(env.ORIGIN_SNAPSHOTS),
  env.JOB_FILES && emptyBucket(env.JOB_FILES),
]);
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.ORIGIN_DB, env.ORIGIN_TEST_MIGRATIONS);
freshWorkerEnv();
