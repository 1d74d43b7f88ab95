import type { D1Migration } from "cloudflare:test";
import type { DatasetFixture } from "../../origin/test/fixtures/dataset-fixture";
import type { Env as EdgeEnv } from "../src/env";
import type * as EdgeModule from "../src/index";

declare global {
  namespace Cloudflare {
    interface Env extends EdgeEnv {
      TEST_MIGRATIONS: D1Migration[];
      /** The origin's own databases, shared with the origin worker running beside the edge. */
      ORIGIN_DB: D1Database;
      ORIGIN_SNAPSHOTS: D1Database;
      ORIGIN_TEST_MIGRATIONS: D1Migration[];
      /** The origin's generated test dataset, seeded into ORIGIN_DB by its test/seed-fixture.ts. */
      TEST_DATASET: DatasetFixture;
      /** The fault-injecting upstream worker (test/fault-upstream/worker.mjs). */
      FAULTS: Fetcher;
      /** The fuzz suite's seed from the FUZZ_SEED environment variable ("" for a fresh one). */
      FUZZ_SEED: string;
    }
    interface GlobalProps {
      mainModule: typeof EdgeModule;
    }
  }
}
