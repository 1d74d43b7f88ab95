/**
 * The generated test dataset, for any origin test in the Workers pool:
 *
 *   import { seedTestDataset } from "./seed-fixture";
 *   beforeAll(() => seedTestDataset());
 *
 * It loads a small dataset made by the real generator (FIXTURE_OPTIONS in
 * fixtures/dataset-fixture.ts: 160 hosts with history, all of Node's real roots plus the
 * generated PKI, their websites) into this test file's D1. The SQL is produced in Node by
 * vitest.config.ts and handed over as the TEST_DATASET binding. Storage is isolated per test
 * file, so call it once per file (beforeAll); a second call in the same file is a no-op.
 * Expected values should be read back from the seeded rows, not hard-coded.
 */
import { env } from "cloudflare:workers";
import type { DatasetSummary } from "../src/dataset/generate";

/** Statements per D1 batch (each statement is at most ~90 KB). */
const BATCH = 25;

export async function seedTestDataset(db: D1Database = env.DB): Promise<DatasetSummary> {
  const { statements, summary } = env.TEST_DATASET;
  const seeded = await db
    .prepare("SELECT value FROM dataset_meta WHERE key = 'dataset'")
    .first<{ value: string }>();
  if (seeded?.value === summary.fingerprint) return summary;
  for (let i = 0; i < statements.length; i += BATCH) {
    await db.batch(statements.slice(i, i + BATCH).map((sql) => db.prepare(sql)));
  }
  return summary;
}
