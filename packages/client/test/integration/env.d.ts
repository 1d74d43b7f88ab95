import type { D1Migration } from "cloudflare:test";
import type { Env as EdgeEnv } from "../../../../apps/edge/src/env";
import type * as EdgeModule from "../../../../apps/edge/src/index";

declare global {
  namespace Cloudflare {
    interface Env extends EdgeEnv {
      TEST_MIGRATIONS: D1Migration[];
      ORIGIN_DB: D1Database;
      /** The origin's SNAPSHOTS database (the tables SQL jobs read). */
      ORIGIN_SNAPSHOTS: D1Database;
      ORIGIN_TEST_MIGRATIONS: D1Migration[];
      /** The origin's accounts (JSON), from its wrangler.jsonc. */
      ORIGIN_ACCOUNTS: string;
    }
    interface GlobalProps {
      mainModule: typeof EdgeModule;
    }
  }
}
