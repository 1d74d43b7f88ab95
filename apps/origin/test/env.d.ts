import type { D1Migration } from "cloudflare:test";
import type { Env as OriginEnv } from "../src/env";
import type * as OriginModule from "../src/index";
import type { DatasetFixture } from "./fixtures/dataset-fixture";

declare global {
  namespace Cloudflare {
    interface Env extends OriginEnv {
      TEST_MIGRATIONS: D1Migration[];
      /** The generated test dataset's SQL (see test/seed-fixture.ts). */
      TEST_DATASET: DatasetFixture;
      /** The fuzz suite's seed from the FUZZ_SEED environment variable ("" for a fresh one). */
      FUZZ_SEED: string;
    }
    interface GlobalProps {
      mainModule: typeof OriginModule;
    }
  }
}
