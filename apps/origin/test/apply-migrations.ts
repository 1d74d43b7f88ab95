import { applyD1Migrations, env } from "cloudflare:test";
import { emptyBucket, emptyDatabase } from "./support/fresh-storage";

// Each test file starts from empty storage with the migrations applied (see fresh-storage.ts).
await Promise.all([emptyDatabase(env.DB), emptyDatabase(env.SNAPSHOTS), emptyBucket(env.EXPORTS)]);
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
