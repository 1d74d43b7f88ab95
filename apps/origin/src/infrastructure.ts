import type { Env } from "./env";
import { parseAccounts, type OriginAccount } from "./services/accounts";
import { systemClock, type Clock } from "./services/clock";
import { createCursorCodec, DEV_CURSOR_SECRET, type CursorCodec } from "./services/cursor";
import { d1QuotaLedger, type QuotaLedger } from "./services/quota";

/** What the routes use, each behind a small interface. Chosen here, and only here. */
export interface Services {
  clock: Clock;
  accounts: readonly OriginAccount[];
  quota: QuotaLedger;
  cursors: CursorCodec;
  db: D1Database;
}

/** Overrides for tests; anything left out comes from the bindings. */
export interface AppDeps {
  clock?: Clock;
}

/**
 * Builds the services for a request from the bindings. Parsed configuration and imported keys
 * are kept per isolate, keyed by the configuration text, so a changed binding is picked up.
 */
export function servicesFactory(deps: AppDeps = {}): (env: Env) => Promise<Services> {
  let accounts: { source: string; value: readonly OriginAccount[] } | undefined;
  let cursors: { source: string; value: Promise<CursorCodec> } | undefined;
  return async (env) => {
    if (accounts?.source !== env.ORIGIN_ACCOUNTS) {
      accounts = { source: env.ORIGIN_ACCOUNTS, value: parseAccounts(env.ORIGIN_ACCOUNTS) };
    }
    const secret = env.CURSOR_SECRET || DEV_CURSOR_SECRET;
    if (cursors?.source !== secret) cursors = { source: secret, value: createCursorCodec(secret) };
    return {
      clock: deps.clock ?? systemClock,
      accounts: accounts.value,
      quota: d1QuotaLedger(env.DB),
      cursors: await cursors.value,
      db: env.DB,
    };
  };
}
