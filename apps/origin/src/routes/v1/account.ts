import type { Account } from "@scangate/core";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { chargeQuota } from "../../http/quota";
import { accountTimestamp as formatAccountTimestamp } from "@scangate/core/http";
import { quotaPeriod } from "../../services/quota";

/** GET /api/v1/account: the calling account and its quota in the current period. */
export function registerAccount(app: Hono<AppEnv>): void {
  app.get("/api/v1/account", chargeQuota("account"), (c) => {
    const { account, usage } = c.var;
    const body: Account = {
      login: account.login,
      email: account.email,
      first_login: formatAccountTimestamp(usage.firstLogin),
      last_login: formatAccountTimestamp(usage.lastLogin, true),
      quota: {
        used: usage.used,
        allowance: account.allowance,
        resets_at: formatAccountTimestamp(quotaPeriod(c.var.services.clock.now()).resetsAt),
      },
    };
    return c.json(body);
  });
}
